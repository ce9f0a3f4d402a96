/**
 * Tool results repaired against the tool's `outputSchema` (`--repair-results`, off by default).
 * Clients validate a result's `structuredContent` against the output schema the tool listed and
 * reject the whole result on a mismatch; two kinds of servers trip it: float64 pipelines that
 * write `5.0` for an integer, and servers whose error results carry a `structuredContent` of
 * another shape. So, for the response to a `tools/call` of a tool with an output schema:
 *
 * - `structuredContent` is repaired by the text path exactly as arguments are (integers
 *   restored; under `--lenient` the lenient rules too): only the spans that change are rewritten,
 *   every other byte of the line goes on as it came;
 * - an `isError` result whose `structuredContent` does not match the output schema has it dropped
 *   (the spec makes it optional; the error's text stays), when a validator can tell; without one
 *   it is left as it came.
 *
 * Every change is reported as an argument repair's is. Anything else goes on untouched.
 */
import { prepareToolCall } from '../../index.js';
import { scanJson, type JsonVisitor } from '../../json/scanner.js';
import { coerceArgsJsonEdits, TextEdits } from '../../coerce/coerce.js';
import type { ArgsValidator, CoerceOptions } from '../../index.js';
import { isAscii } from './ascii.js';
import { utf8Of, type MessageId } from './message.js';
import { byteEdits, SplicedLine } from './splice.js';
import type { Line } from './framing.js';
import type { Wiring } from './options.js';

/** Calls awaiting their result, at most (past it the oldest is forgotten: its result goes on as it came). */
const KEPT = 4_096;
const COMMA = 0x2c;

/** The parts of a response line the repair acts on. */
interface ResultSpans {
  /** The `structuredContent` member: where its key starts, where its value starts and ends. */
  readonly member: number;
  readonly start: number;
  readonly end: number;
  /** The commas around the member, or -1: the one before its key, and the one after its value. */
  readonly commaBefore: number;
  readonly commaAfter: number;
  readonly isError: boolean;
}

/** The results of one session's calls to tools with an output schema. */
export class ResultRepair {
  /** The calls waiting for their result: id key → the tool's name and output schema. */
  private readonly calls = new Map<string, [name: string, schema: unknown]>();
  private readonly options: CoerceOptions;
  private readonly validator: ArgsValidator | undefined;
  private readonly wiring: Wiring;

  /**
   * @param options - The session's repair options (integers, and the lenient rules when on).
   * @param validator - Tells whether an error's `structuredContent` matches; none: it is left alone.
   */
  constructor(options: CoerceOptions, validator: ArgsValidator | undefined, wiring: Wiring) {
    this.options = options;
    this.validator = validator;
    this.wiring = wiring;
  }

  /** A call went to the server: its result will be read, when the tool has an output schema. */
  track(id: MessageId, name: string, schema: unknown): void {
    if (schema === undefined) return;
    this.calls.set(keyOf(id), [name, schema]);
    if (this.calls.size > KEPT) this.calls.delete(this.calls.keys().next().value!);
  }

  /** Whether a result is awaited (server lines must then be read). */
  get waiting(): boolean {
    return this.calls.size > 0;
  }

  /**
   * A response from the server with `id`: when it answers a call tracked, it goes to the client
   * repaired (and this returns true); anything else is left to the caller.
   */
  fromServer(line: Line, terminated: boolean, id: MessageId, text: string): boolean {
    const key = keyOf(id);
    const call = this.calls.get(key);
    if (call === undefined) return false;
    this.calls.delete(key);
    const [name, schema] = call;
    const spans = resultSpans(text);
    if (spans === undefined) return false;
    const raw = text.slice(spans.start, spans.end);
    const content = isAscii(raw) ? raw : utf8Of(raw);
    if (spans.isError) {
      if (this.validator === undefined || this.validator(JSON.parse(content), schema, {}).ok) return false;
      // The member goes with one comma beside it, so the object stays JSON (`isError` is another
      // member: when none follows, one comes before).
      const [from, to] = spans.commaAfter !== -1 ? [spans.member, spans.commaAfter + 1] : [spans.commaBefore, spans.end];
      this.wiring.report({ kind: 'change', tool: name, path: '/structuredContent', from: JSON.parse(content) as unknown, rule: 'error-structured-content', message: 'an isError result whose structuredContent does not match the output schema: structuredContent dropped, the error text kept' });
      this.wiring.toClient(new SplicedLine(line, from, TextEdits.one(0, to - from, ''), terminated));
      return true;
    }
    let edits: TextEdits;
    try {
      edits = coerceArgsJsonEdits(content, schema, this.options);
      if (content !== raw) edits = byteEdits(content, raw, edits) ?? TextEdits.one(0, raw.length, JSON.stringify(JSON.parse(content)));
    } catch {
      // Content the repair refuses (a key repeated with two values) goes on as it came.
      return false;
    }
    if (edits.length === 0) return false;
    for (const change of prepareToolCall(content, schema, this.options).changes) this.wiring.report({ kind: 'change', tool: name, ...change, path: `/structuredContent${change.path}` });
    this.wiring.toClient(new SplicedLine(line, spans.start, edits, terminated));
    return true;
  }
}

/** A map key for an id: a number and the string of its digits are different ids. */
function keyOf(id: MessageId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

/** Where `result.structuredContent` (an object) lies in a response line, and whether `result.isError` is `true`; `undefined` when it has none. */
function resultSpans(text: string): ResultSpans | undefined {
  const finder = new ResultFinder();
  try {
    scanJson(text, finder);
  } catch {
    return undefined;
  }
  return finder.end === -1 || finder.repeated ? undefined : { member: finder.member, start: finder.start, end: finder.end, commaBefore: commaBefore(text, finder.member), commaAfter: commaAfter(text, finder.end), isError: finder.isError };
}

/** The comma before `at`, past white space only, or -1. */
function commaBefore(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return text.charCodeAt(i) === COMMA ? i : -1;
}

/** The comma at or after `at`, past white space only, or -1. */
function commaAfter(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === COMMA ? i : -1;
}

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** A visitor that finds `result.structuredContent` and `result.isError` in a response. */
class ResultFinder implements JsonVisitor {
  member = -1;
  start = -1;
  end = -1;
  isError = false;
  /** `result` repeats `structuredContent` or `isError`: a client keeping the last would read another result, so it is left alone. */
  repeated = false;
  private readonly seen = new Set<string>();
  private depth = 0;
  private key1 = '';
  private key2 = '';
  private keyStart = -1;

  open(isArray: boolean, at: number): void {
    if (this.depth === 2 && this.inResult() && this.key2 === 'structuredContent' && !isArray && this.start === -1) {
      this.start = at;
      this.member = this.keyStart;
    }
    this.depth++;
  }
  key(raw: string, start: number): void {
    if (this.depth === 1) this.key1 = raw;
    else if (this.depth === 2) {
      this.key2 = raw;
      this.keyStart = start;
      if (this.inResult() && (raw === 'structuredContent' || raw === 'isError')) {
        if (this.seen.has(raw)) this.repeated = true;
        this.seen.add(raw);
      }
    }
  }
  string(): void {}
  number(): void {}
  literal(value: boolean | null): void {
    if (this.depth === 2 && this.inResult() && this.key2 === 'isError') this.isError = value === true;
  }
  close(at: number): void {
    this.depth--;
    if (this.depth === 2 && this.inResult() && this.key2 === 'structuredContent' && this.start !== -1 && this.end === -1) this.end = at + 1;
  }
  private inResult(): boolean {
    return this.key1 === 'result';
  }
}
