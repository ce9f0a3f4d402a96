/**
 * The proxy's session: what it knows of the server's tools, and the calls waiting to learn more.
 * Lines arrive as bytes, and are read as their latin1 images (byte offsets, bytes kept exactly).
 * A client line that may name a `tools/` method (it holds `tools` or an escape) is read;
 * one whose envelope or `params` repeats a key is answered with a JSON-RPC error, never forwarded
 * (a server keeping the last key would read another call). Every other line is forwarded as the
 * very bytes it came as.
 */
import { randomUUID } from 'node:crypto';
import { coerceArgsJson, prepareToolCall } from '../../index.js';
import { ArgsParseError } from '../../json/errors.js';
import { scanJson, scanningPlain, skipSpace, type JsonVisitor } from '../../json/scanner.js';
import { coerceArgsJsonEdits, TextEdits } from '../../coerce/coerce.js';
import { resolveRules, type Rules } from '../../coerce/lenient.js';
import type { ArgsValidator, CoerceOptions } from '../../index.js';
import { LISTING_MS, Paging, ToolSchemas, type SharedSchemas } from '../shared/tool-schemas.js';
import { batchRefusal } from './batch.js';
import { CallShapes } from './call-shapes.js';
import { ambiguityError, flatCopy, isAscii, isAsciiBytes, isPlainAsciiBytes, readHead, utf8Of, type MessageHead, type MessageId } from './message.js';
import { byteEdits, SplicedLine } from './splice.js';
import type { Line } from './framing.js';
import type { Piece } from './outlet.js';

/** Options of the proxy, as the CLI reads them. */
export interface ProxyOptions extends CoerceOptions {
  /** Validate each call with this validator (the CLI's `--validate` loads `validateArgs`). */
  readonly validator?: ArgsValidator;
  readonly rejectUndeclared?: boolean;
  /** A file to append one JSON line to per change, refusal and rejection. */
  readonly log?: string;
  /** Report the same lines on stderr. */
  readonly verbose?: boolean;
  /** Schemas shared with other sessions (the gateway's), so identical ones are compiled once. */
  readonly sharedSchemas?: SharedSchemas;
}

/** How a call to one tool is repaired: its options, and the same without syntax repair (see `strictOptions`), each with its rules resolved. */
interface ToolOptions {
  readonly options: CoerceOptions;
  readonly rules: Rules | null;
  readonly strict: CoerceOptions;
  readonly strictRules: Rules | null;
}

/** Tools whose options are kept at most (past it they are made again). */
const TOOL_OPTIONS_KEPT = 256;

/** One entry of the log: a change, a refusal or a rejection, with the tool it concerns. */
type Report = Record<string, unknown> & { kind: 'change' | 'refusal' | 'rejection'; tool: string };

/** Where the session sends what it forwards, answers and reports. */
export interface Wiring {
  /** One client message for the server, as pieces in order (its newline included when it had one). */
  toServer(pieces: readonly Piece[]): void;
  toClient(piece: Piece): void;
  report(entry: Report): void;
}

const NEWLINE = Buffer.from('\n');
const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
/** A server line can matter only if it holds one of these (an escape may hide a name). */
const LIST_CHANGED = 'list_changed';
const ESCAPE = '\\u';
/** A client line can matter only if it holds one of these. */
const TOOLS = 'tools';
const TOOLS_BYTES = Buffer.from(TOOLS);
const LIST_CHANGED_BYTES = Buffer.from(LIST_CHANGED);
const ESCAPE_BYTES = Buffer.from(ESCAPE);

/** The proxy's state between one client and one server. */
export class ProxySession {
  private readonly tools: ToolSchemas;
  /** The shapes of the client's calls, so a call like one before is read without its envelope. */
  private readonly shapes = new CallShapes();
  /** Tools the proxy has asked the server about since the list last changed. */
  private readonly asked = new Set<string>();
  /** How the ids of the session's own requests (its tools/list) begin: random per session, so no client can write one. */
  readonly ownPrefix: string = `schema-coerce-proxy:${randomUUID()}:`;
  private readonly ownPrefixBytes = Buffer.from(this.ownPrefix);
  private ownCount = 0;
  /** The proxy's own requests not answered yet (a late answer is the proxy's, never the client's). */
  private ownPending = 0;
  /** While the proxy lists the server's tools itself, client lines wait here, in order. */
  private waiting: [line: Line, terminated: boolean][] | null = null;
  /** The bounds of the proxy's own listing, while it runs. */
  private paging: Paging | undefined;
  /** The pages of the proxy's own listing stored so far. */
  private ownPages = 0;
  private timer: NodeJS.Timeout | undefined;
  private idle: (() => void) | undefined;
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
    this.tools = new ToolSchemas(options.sharedSchemas);
    this.coerceOptions = {
      ...(options.lenient === undefined ? {} : { lenient: options.lenient }),
      ...(options.integerRange === undefined ? {} : { integerRange: options.integerRange }),
    };
    const lenient = options.lenient;
    this.strictOptions = typeof lenient === 'object' || lenient === true ? { ...this.coerceOptions, lenient: { ...(lenient === true ? {} : lenient), syntax: false } } : this.coerceOptions;
    this.readsText = lenient === true || (typeof lenient === 'object' && lenient.syntax !== false);
  }

  /** Stops the session's timer. */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** Runs `then` once no client line is waiting (at once when none is). */
  whenIdle(then: () => void): void {
    if (this.waiting === null) then();
    else this.idle = then;
  }

  /** Whether the whole client lines of `chunk` may go to the server unread. */
  clientPasses(chunk: Buffer): boolean {
    return this.waiting === null && !chunk.includes(TOOLS_BYTES) && !chunk.includes(ESCAPE_BYTES);
  }

  /** Whether the whole server lines of `chunk` may go to the client unread. */
  serverPasses(chunk: Buffer): boolean {
    return !this.tools.awaiting && this.waiting === null && !chunk.includes(LIST_CHANGED_BYTES) && !chunk.includes(ESCAPE_BYTES) && (this.ownPending === 0 || !chunk.includes(this.ownPrefixBytes));
  }

  /** Whether a long server line whose start is `head` may be streamed to the client unread. */
  serverStreams(head: Buffer): boolean {
    // (A late reply to the proxy's own tools/list names its id in its head: JSON-RPC writes it first.)
    return !this.tools.awaiting && this.waiting === null && !head.includes(LIST_CHANGED_BYTES) && (this.ownPending === 0 || !head.includes(this.ownPrefixBytes));
  }

  /** One line from the client, with its latin1 image when the framing has it. */
  fromClient(line: Line, terminated: boolean, image?: string): void {
    if (this.waiting !== null) {
      this.waiting.push([line, terminated]);
      return;
    }
    const text = mayName(image ?? line, TOOLS, TOOLS_BYTES) ? (image ?? line.toString('latin1')) : undefined;
    if (text !== undefined && text.charCodeAt(skipSpace(text, 0)) === OPEN_BRACKET && this.refusesBatch(text)) return;
    const head = text === undefined ? undefined : this.clientHead(text);
    const ambiguous = head === undefined ? undefined : ambiguityError(head);
    if (ambiguous !== undefined) {
      this.wiring.report({ kind: 'rejection', tool: head!.name ?? '', message: `the request repeats the key ${JSON.stringify(head!.repeated)}` });
      this.wiring.toClient(Buffer.from(ambiguous + '\n'));
      return;
    }
    if (head?.method === 'tools/list' && head.id !== undefined) {
      this.tools.listRequested(typeof head.id === 'string' ? flatCopy(head.id) : head.id, !head.cursor);
    } else if (head?.method === 'tools/call' && head.id !== undefined && head.name !== undefined) {
      if (this.tools.get(head.name) === undefined && !this.asked.has(head.name)) {
        this.asked.add(flatCopy(head.name));
        this.waiting = [[line, terminated]];
        this.paging = new Paging();
        clearTimeout(this.timer);
        // However the server pages, the calls waiting go on once the listing's time is up.
        this.timer = setTimeout(() => this.release(), LISTING_MS);
        this.listOwnTools(undefined);
        return;
      }
      this.repairCall(line, text!, terminated, head);
      return;
    }
    this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
  }

  /**
   * Answers a batch that holds a `tools/` request (see `batchRefusal`) instead of forwarding it.
   *
   * @returns Whether the batch was refused.
   */
  private refusesBatch(text: string): boolean {
    const refusal = batchRefusal(text);
    if (refusal === undefined) return false;
    this.wiring.report({ kind: 'rejection', tool: '', message: `a batch of ${refusal.members} holding a tools/ request` });
    if (refusal.answer !== null) this.wiring.toClient(Buffer.from(refusal.answer + '\n'));
    return true;
  }

  /** The head of a client line (its latin1 image), its shape kept for the calls like it. */
  private clientHead(text: string): MessageHead | undefined {
    const known = this.shapes.match(text);
    if (known !== undefined) return known;
    const head = readHead(text, true);
    if (head !== undefined) this.shapes.learn(text, head);
    return head;
  }

  /** One line from the server. */
  fromServer(line: Line, terminated: boolean): void {
    const mayMatter = this.tools.awaiting || this.waiting !== null || mayName(line, LIST_CHANGED, LIST_CHANGED_BYTES) || (this.ownPending > 0 && mayName(line, this.ownPrefix, this.ownPrefixBytes));
    const head = mayMatter ? readHead(line.toString('latin1'), false) : undefined;
    if (head !== undefined) {
      if (typeof head.id === 'string' && head.id.startsWith(this.ownPrefix)) {
        this.ownListPage(line, head.id);
        return;
      }
      if (head.method === 'notifications/tools/list_changed') {
        this.tools.clear();
        this.asked.clear();
      } else if (head.id !== undefined && head.method === undefined && this.tools.answers(head.id)) {
        this.tools.responded(head.id, resultOf(line));
      }
    }
    this.wiring.toClient(line);
    if (terminated) this.wiring.toClient(NEWLINE);
  }

  /** Asks the server for (a page of) its tools with an id no client can have used. */
  private listOwnTools(cursor: unknown): void {
    const id = `${this.ownPrefix}${++this.ownCount}`;
    const params = cursor === undefined ? {} : { cursor };
    this.ownPending++;
    this.wiring.toServer([Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }) + '\n')]);
  }

  /** A page of the proxy's own listing: the next one is asked for within the listing's bounds. */
  private ownListPage(line: Line, id: string): void {
    // A page is the listing's only when it answers the last request; any other came late.
    const paging = id === `${this.ownPrefix}${this.ownCount}` ? this.paging : undefined;
    if (this.ownPending > 0) this.ownPending--;
    const result = resultOf(line) as { tools?: unknown; nextCursor?: unknown } | undefined;
    const tools = result?.tools;
    // A late page adds its tools; nothing more is asked.
    if (Array.isArray(tools)) this.tools.store(tools, paging !== undefined && this.ownPages++ === 0);
    if (paging === undefined) return;
    const next = result?.nextCursor;
    if (Array.isArray(tools) && paging.follows(next)) this.listOwnTools(next);
    else this.release();
  }

  /** Lets the waiting client lines go on, in order, now that the proxy knows what it can. */
  private release(): void {
    clearTimeout(this.timer);
    this.paging = undefined;
    this.ownPages = 0;
    // Only a call waiting starts a listing and its timer, and both end here: lines wait now.
    const lines = this.waiting!;
    this.waiting = null;
    for (const [line, terminated] of lines) this.fromClient(line, terminated);
    if (this.waiting === null && this.idle !== undefined) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
  }

  /**
   * Forwards a tools/call with only its argument bytes repaired, or answers it with an isError
   * result: when it is rejected, and when its arguments cannot be read one way only (an object
   * repeating a key with two values) or were cut off.
   */
  private repairCall(line: Line, text: string, terminated: boolean, head: MessageHead): void {
    const name = head.name!;
    const schema = this.tools.get(name);
    const span = head.args;
    const ending: Piece[] = terminated ? [NEWLINE] : [];
    if (schema === undefined || span === undefined) {
      this.wiring.toServer([line, ...ending]);
      return;
    }
    const raw = text.slice(span.start, span.end);
    if (raw.charCodeAt(0) === QUOTE) {
      this.repairStringCall(line, terminated, head, raw, schema);
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
      if (error instanceof ArgsParseError && (!span.unread || isJsonText(argsText))) this.refuse(argsText, schema, name, head.id!);
      else this.wiring.toServer([line, ...ending]);
      return;
    } finally {
      if (plain) scanningPlain(undefined);
    }
    if (!this.settle(argsText, schema, name, head.id!)) return;
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
  private repairStringCall(line: Line, terminated: boolean, head: MessageHead, raw: string, schema: unknown): void {
    const name = head.name!;
    const span = head.args!;
    const argsText = JSON.parse(utf8Of(raw)) as string;
    let output: string;
    try {
      output = coerceArgsJson(argsText, schema, { ...this.coerceOptions, toolName: name });
    } catch (error) {
      if (error instanceof ArgsParseError && (error.truncated || this.readsText)) this.refuse(argsText, schema, name, head.id!);
      else this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
      return;
    }
    if (output.charCodeAt(skipSpace(output, 0)) !== OPEN_BRACE) {
      this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
      return;
    }
    if (!this.settle(argsText, schema, name, head.id!)) return;
    // The object goes on inside the line: a line break in JSON is white space between tokens, so
    // a space in its place keeps every token and the message on one line.
    this.forward(line, terminated, span.start, TextEdits.one(0, raw.length, output.replace(LINE_BREAKS, ' ')));
  }

  /** Sends the line on with `edits` (byte offsets from `offset`) applied. */
  private forward(line: Line, terminated: boolean, offset: number, edits: TextEdits): void {
    this.wiring.toServer(edits.length === 0 ? (terminated ? [line, NEWLINE] : [line]) : [new SplicedLine(line, offset, edits, terminated)]);
  }

  /** Answers a call whose arguments cannot go on (see `repairCall`) with the pipeline's message. */
  private refuse(argsText: string, schema: unknown, name: string, id: MessageId): void {
    const call = prepareToolCall(argsText, schema, { ...this.coerceOptions, toolName: name });
    // The pipeline refuses whatever text `coerceArgsJson` refused, and a refusal has a message.
    this.answer(id, name, call.message!);
  }

  /**
   * Reports the call's changes and refusals, and answers it with an isError result when it is
   * rejected; only when a log, validation or undeclared-key rejection is asked for.
   *
   * @returns Whether the call goes on to the server.
   */
  private settle(argsText: string, schema: unknown, name: string, id: MessageId): boolean {
    const { validator, rejectUndeclared = false, log, verbose = false } = this.options;
    if (validator === undefined && !rejectUndeclared && log === undefined && !verbose) return true;
    const call = prepareToolCall(argsText, schema, {
      ...this.coerceOptions,
      toolName: name,
      rejectUndeclared,
      ...(validator === undefined ? {} : { validate: validator }),
    });
    for (const change of call.changes) this.wiring.report({ kind: 'change', tool: name, ...change });
    for (const { path, reason, expected, message } of call.refusals) this.wiring.report({ kind: 'refusal', tool: name, path, reason, expected, message });
    // Without a validator or rejectUndeclared, a call the repair has read is never refused.
    if (call.ok) return true;
    this.answer(id, name, call.message!);
    return false;
  }

  /** Answers the call `id` with an isError result carrying `message`, and reports the rejection. */
  private answer(id: MessageId, name: string, message: string): void {
    this.wiring.report({ kind: 'rejection', tool: name, message });
    const result = { content: [{ type: 'text', text: message }], isError: true };
    this.wiring.toClient(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n'));
  }
}

/** Line breaks, which in JSON text can only be white space between tokens. */
const LINE_BREAKS = /[\n\r]/g;

/** Whether `line` (its bytes, or its latin1 image) holds `name` or a `\\u` escape (which may hide it). */
function mayName(line: Buffer | string, name: string, bytes: Buffer): boolean {
  return typeof line === 'string' ? line.includes(name) || line.includes(ESCAPE) : line.includes(bytes) || line.includes(ESCAPE_BYTES);
}

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

/** The `result` of a response line, parsed; `undefined` when the line is not one. */
function resultOf(line: Line): unknown {
  try {
    return (JSON.parse(line.toString('utf8')) as { result?: unknown } | null)?.result;
  } catch {
    return undefined;
  }
}
