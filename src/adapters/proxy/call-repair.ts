/**
 * The repair of one client `tools/call` line: only the bytes of `params.arguments` are rewritten
 * (by the text path, which hands back the spans it rewrote), every other byte goes on as it came;
 * a call that cannot go on (rejected, arguments with two readings, cut-off text) is answered
 * with an isError result carrying the message `prepareToolCall` gives.
 */
import { coerceArgsJson, prepareToolCall } from '../../index.js';
import { ArgsParseError } from '../../json/errors.js';
import { scanJson, scanningPlain, skipSpace, type JsonVisitor } from '../../json/scanner.js';
import { coerceArgsJsonEdits, TextEdits } from '../../coerce/coerce.js';
import { resolveRules, type Rules } from '../../coerce/lenient.js';
import type { CoerceOptions } from '../../index.js';
import { isAscii, isAsciiBytes, isPlainAsciiBytes } from './ascii.js';
import { flatCopy, utf8Of, type MessageHead } from './message.js';
import { byteEdits, SplicedLine } from './splice.js';
import type { Line } from './framing.js';
import type { Piece } from './outlet.js';
import { coerceOptionsOf, type ProxyOptions, type Wiring } from './options.js';
import { envelopeOf } from './modern.js';
import { errorResult } from '../shared/tool-error.js';

/** How a call to one tool is repaired: its options, and the same without syntax repair (see `strictOptions`), each with its rules resolved. */
interface ToolOptions {
  readonly options: CoerceOptions;
  readonly rules: Rules | null;
  readonly strict: CoerceOptions;
  readonly strictRules: Rules | null;
}

/** Tools whose options are kept at most (past it they are made again). */
const TOOL_OPTIONS_KEPT = 256;

const NEWLINE = Buffer.from('\n');
const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;

/** Repairs the calls of one session, with its options. */
export class CallRepair {
  private readonly options: ProxyOptions;
  private readonly coerceOptions: CoerceOptions;
  /**
   * The same without syntax repair, for arguments the head only located: an object or array that
   * is not JSON makes the line not JSON, which goes on as it came, never repaired. (The rule
   * repairs only text that fails strictly or a root string, so valid JSON reads the same.)
   */
  private readonly strictOptions: CoerceOptions;
  /**
   * The options of each tool's calls, made once: made per call, the options object (its spread)
   * and the rules resolved from it cost about a fifth of the proxy's time on a 1 KB call.
   */
  private readonly toolOptions = new Map<string, ToolOptions>();
  /** Syntax repair is on: text given as a string is read as the text entries read it. */
  private readonly readsText: boolean;
  private readonly wiring: Wiring;

  constructor(options: ProxyOptions, wiring: Wiring) {
    this.options = options;
    this.wiring = wiring;
    this.coerceOptions = coerceOptionsOf(options);
    const lenient = options.lenient;
    this.strictOptions = typeof lenient === 'object' || lenient === true ? { ...this.coerceOptions, lenient: { ...(lenient === true ? {} : lenient), syntax: false } } : this.coerceOptions;
    this.readsText = lenient === true || (typeof lenient === 'object' && lenient.syntax !== false);
  }

  /**
   * Forwards a tools/call with only its argument bytes repaired, or answers it with an isError
   * result: when it is rejected, and when its arguments cannot be read one way only (an object
   * repeating a key with two values) or were cut off.
   */
  repairCall(line: Line, text: string, terminated: boolean, head: MessageHead, schema: unknown): void {
    const name = head.name!;
    const span = head.args;
    const ending: Piece[] = terminated ? [NEWLINE] : [];
    if (schema === undefined || span === undefined) {
      this.wiring.toServer([line, ...ending]);
      return;
    }
    const raw = text.slice(span.start, span.end);
    if (raw.charCodeAt(0) === QUOTE) {
      this.repairStringCall(line, text, terminated, head, raw, schema);
      return;
    }
    // Arguments of printable ASCII (not a byte below 0x20, no tab or line break either) have their
    // strings found by native searches.
    const plain = isPlainAsciiBytes(line, span.start, span.end);
    const ascii = plain || isAsciiBytes(line) || isAscii(raw);
    const argsText = ascii ? raw : line.toString('utf8', span.start, span.end);
    // The tool's name: the lenient `unwrap` rule takes the arguments out of {"name": <it>, "arguments": {…}}.
    const tool = this.optionsFor(name);
    const options = span.unread ? tool.strict : tool.options;
    let edits: TextEdits;
    if (plain) scanningPlain(argsText);
    try {
      // ASCII arguments are their own latin1 image: an edit's offsets are byte offsets. Others have
      // their edits moved to byte offsets, so every byte outside an edit goes on as it came.
      edits = coerceArgsJsonEdits(argsText, schema, options, span.unread ? tool.strictRules : tool.rules);
      if (!ascii) edits = byteEdits(argsText, raw, edits) ?? TextEdits.one(0, raw.length, coerceArgsJson(argsText, schema, options));
    } catch (error) {
      // Arguments the head only located that are not JSON make the line not JSON: it goes on as
      // it came. JSON arguments the repair refuses (a key repeated with two values) are answered.
      if (error instanceof ArgsParseError && (!span.unread || isJsonText(argsText))) this.refuse(argsText, schema, text, head);
      else this.wiring.toServer([line, ...ending]);
      return;
    } finally {
      if (plain) scanningPlain(undefined);
    }
    if (!this.settle(argsText, schema, text, head)) return;
    this.forward(line, terminated, span.start, edits);
  }

  /** The options of the calls to the tool `name` (see `toolOptions`). */
  private optionsFor(name: string): ToolOptions {
    const kept = this.toolOptions.get(name);
    if (kept !== undefined) return kept;
    if (this.toolOptions.size >= TOOL_OPTIONS_KEPT) this.toolOptions.clear();
    const toolName = flatCopy(name);
    const options = { ...this.coerceOptions, toolName };
    const strict = { ...this.strictOptions, toolName };
    const made = { options, rules: resolveRules(options.lenient), strict, strictRules: resolveRules(strict.lenient) };
    this.toolOptions.set(toolName, made);
    return made;
  }

  /**
   * A call whose `arguments` is a string: its value is the arguments' text, read as every text
   * entry reads it (`coerceArgsJson`, with the proxy's options). Text that reads as an object goes
   * on as that object in place of the string; cut-off text is answered with the message that says
   * so, and so is, under syntax repair, any text the reader refuses (markup, two values, a bad
   * escape: the message names why, as `prepareToolCall`'s does); any other string goes on as it came.
   */
  private repairStringCall(line: Line, text: string, terminated: boolean, head: MessageHead, raw: string, schema: unknown): void {
    const name = head.name!;
    const span = head.args!;
    const argsText = JSON.parse(utf8Of(raw)) as string;
    let output: string;
    try {
      output = coerceArgsJson(argsText, schema, { ...this.coerceOptions, toolName: name });
    } catch (error) {
      if (error instanceof ArgsParseError && (error.truncated || this.readsText)) this.refuse(argsText, schema, text, head);
      else this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
      return;
    }
    if (output.charCodeAt(skipSpace(output, 0)) !== OPEN_BRACE) {
      this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
      return;
    }
    if (!this.settle(argsText, schema, text, head)) return;
    // The object goes on inside the line: a line break in JSON is white space between tokens, so
    // a space in its place keeps every token and the message on one line.
    this.forward(line, terminated, span.start, TextEdits.one(0, raw.length, output.replace(LINE_BREAKS, ' ')));
  }

  /** Sends the line on with `edits` (byte offsets from `offset`) applied. */
  private forward(line: Line, terminated: boolean, offset: number, edits: TextEdits): void {
    this.wiring.toServer(edits.length === 0 ? (terminated ? [line, NEWLINE] : [line]) : [new SplicedLine(line, offset, edits, terminated)]);
  }

  /** Answers a call whose arguments cannot go on (see `repairCall`) with the pipeline's message. */
  private refuse(argsText: string, schema: unknown, text: string, head: MessageHead): void {
    const call = prepareToolCall(argsText, schema, { ...this.coerceOptions, toolName: head.name! });
    // The pipeline refuses whatever text `coerceArgsJson` refused, and a refusal has a message.
    this.answer(text, head, call.message!);
  }

  /**
   * Reports the call's changes and refusals, and answers it with an isError result when it is
   * rejected; only when a log, reports, validation or undeclared-key rejection is asked for.
   *
   * @returns Whether the call goes on to the server.
   */
  private settle(argsText: string, schema: unknown, text: string, head: MessageHead): boolean {
    const name = head.name!;
    const id = head.id!;
    const { validator, rejectUndeclared = false, log, verbose = false, reports = false } = this.options;
    if (validator === undefined && !rejectUndeclared && log === undefined && !verbose && !reports) return true;
    const call = prepareToolCall(argsText, schema, {
      ...this.coerceOptions,
      toolName: name,
      rejectUndeclared,
      ...(validator === undefined ? {} : { validate: validator }),
    });
    for (const change of call.changes) this.wiring.report({ kind: 'change', tool: name, ...change }, id);
    for (const { path, reason, expected, message } of call.refusals) this.wiring.report({ kind: 'refusal', tool: name, path, reason, expected, message }, id);
    // Without a validator or rejectUndeclared, a call the repair has read is never refused.
    if (call.ok) return true;
    this.answer(text, head, call.message!);
    return false;
  }

  /**
   * Answers the call of the line `text` (its latin1 image) with an isError result carrying
   * `message`, in the call's era (see `errorResult`), and reports the rejection.
   */
  private answer(text: string, head: MessageHead, message: string): void {
    const id = head.id!;
    this.wiring.report({ kind: 'rejection', tool: head.name!, message }, id);
    const result = errorResult(message, envelopeOf(text, head) !== undefined);
    this.wiring.toClient(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n'));
  }
}

/** Line breaks, which in JSON text can only be white space between tokens. */
const LINE_BREAKS = /[\n\r]/g;

/** Whether `text` is JSON (RFC 8259): read by the scanner, nothing built. */
function isJsonText(text: string): boolean {
  try {
    scanJson(text, IGNORE);
    return true;
  } catch {
    return false;
  }
}

const nothing = (): void => undefined;
/** A visitor that takes nothing from what it is shown. */
const IGNORE: JsonVisitor = { open: nothing, key: nothing, string: nothing, number: nothing, literal: nothing, close: nothing };

