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
 *   it is repaired like any other, never dropped.
 *
 * Every change and refusal is reported as an argument repair's is. Anything else goes on
 * untouched. The repair is the library's `repairToolResult` (`toolResultEdits`, one
 * implementation): this module finds the response's `result`, and splices the edits into its bytes.
 */
import { applyTextEdits, TextEdits } from '../../coerce/coerce.js';
import { topLevelParts, type TopLevelPart } from '../../json/top-level.js';
import { toolResultEdits } from '../../report/tool-result.js';
import type { ArgsValidator, CoerceOptions } from '../../index.js';
import { isAscii } from './ascii.js';
import { utf8Of, type MessageId } from './message.js';
import { byteEdits, SplicedLine } from './splice.js';
import type { Line } from './framing.js';
import type { Wiring } from './options.js';

/** Calls awaiting their result, at most (past it the oldest is forgotten: its result goes on as it came). */
const KEPT = 4_096;

/** The results of one session's calls to tools with an output schema. */
export class ResultRepair {
  /** The calls waiting for their result: id key → the tool's name and output schema. */
  private readonly calls = new Map<string, [name: string, schema: unknown]>();
  private readonly options: CoerceOptions;
  private readonly validator: ArgsValidator | undefined;
  private readonly wiring: Wiring;

  /**
   * @param options - The session's repair options (integers, and the lenient rules when on).
   * @param validator - Tells whether an error's `structuredContent` matches; none: it is never dropped.
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
   * A response from the server with `id` (`text`: the line's latin1 image): when it answers a
   * call tracked and its result needs a repair, it goes to the client repaired (and this returns
   * true); anything else is left to the caller. Refusals are reported either way.
   */
  fromServer(line: Line, terminated: boolean, id: MessageId, text: string): boolean {
    const key = keyOf(id);
    const call = this.calls.get(key);
    if (call === undefined) return false;
    this.calls.delete(key);
    const [tool, schema] = call;
    const result = resultOf(text);
    if (result === undefined) return false;
    const raw = text.slice(result.start, result.end);
    const content = isAscii(raw) ? raw : utf8Of(raw);
    const repair = toolResultEdits(content, schema, { ...this.options, toolName: tool, ...(this.validator === undefined ? {} : { validate: this.validator }) });
    for (const change of repair.changes) this.wiring.report({ kind: 'change', tool, ...change });
    for (const { path, reason, expected, message } of repair.refusals) this.wiring.report({ kind: 'refusal', tool, path, reason, expected, message });
    if (repair.edits.length === 0) return false;
    const edits = content === raw ? repair.edits : (byteEdits(content, raw, repair.edits) ?? TextEdits.one(0, raw.length, applyTextEdits(content, repair.edits)));
    this.wiring.toClient(new SplicedLine(line, result.start, edits, terminated));
    return true;
  }
}

/** A map key for an id: a number and the string of its digits are different ids. */
function keyOf(id: MessageId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

/** Where the response's `result` lies in its line; `undefined` when it has none, or two (readers would differ on which counts). */
function resultOf(text: string): TopLevelPart | undefined {
  let parts: TopLevelPart[];
  try {
    parts = topLevelParts(text);
  } catch {
    return undefined;
  }
  const results = parts.filter((part) => part.key === 'result');
  return results.length === 1 ? results[0] : undefined;
}
