/**
 * What the proxy needs to know of one JSON-RPC line, located by the scanner without building any
 * value: the method, the id, the tool name and where `params.arguments` lies (and, for a batch,
 * where each member lies). The line is read as
 * its latin1 image (one character per byte), so every position is a byte offset and the bytes
 * can be spliced exactly, whatever their encoding.
 *
 * In a client line, arguments that are an object or an array are located, not read: the first
 * `"arguments"` key is found with `indexOf`, its value's end by matching brackets (strings
 * skipped whole), and the scanner reads the line with that value standing in as `0`. When the
 * `0` is then where `params.arguments` is, the head holds; otherwise (the key was elsewhere)
 * the line is read whole. Reading the arguments is left to the repair, which reads them
 * strictly: a call is read once, and a line is valid JSON exactly when its head is found and its
 * arguments are read.
 *
 * A line is read to its end, so a key its envelope or its `params` repeats is always seen: such a
 * line has two readings (the proxy's and a server's that keeps the last key, as `JSON.parse`
 * does), and `ambiguityError` answers it instead of forwarding it.
 */
import { isAscii, isShortAscii } from './ascii.js';
import { decodeString, scalarEnd, scanJson, skipSpace, type JsonVisitor } from '../../json/scanner.js';
import { topLevelParts, type TopLevelPart } from '../../json/top-level.js';

/**
 * Copies what the proxy keeps of a line (an id until its answer, a tool name, a call shape), so no
 * slice keeps the line, or the image of the chunk it came in, alive. Re-exported for the proxy's
 * modules that reach the core through its public entries only.
 */
export { flatCopy } from '../../json/strings.js';

/** A JSON-RPC id as a map key: the number or the decoded string. */
export type MessageId = string | number;

/** Where a token lies in a line, as byte offsets. */
interface TokenSpan {
  readonly start: number;
  readonly end: number;
}

/** Where the value of `params.arguments` lies in a line. */
interface ArgsSpan extends TokenSpan {
  /** The value is an object or an array whose bytes were located, not read: not validated yet. */
  readonly unread: boolean;
}

/** The parts of a line the proxy acts on; each is `undefined` when the line does not have it. */
export interface MessageHead {
  readonly method: string | undefined;
  readonly id: MessageId | undefined;
  /** Where the token of the id lies. */
  readonly idSpan: TokenSpan | undefined;
  /** `params.name`, for a `tools/call`. */
  readonly name: string | undefined;
  /** `params.cursor` was present, for a `tools/list` request. */
  readonly cursor: boolean;
  /** `params.arguments`, for a `tools/call`. */
  readonly args: ArgsSpan | undefined;
  /** Where an object `params._meta` lies (a request of the 2026-07-28 revision carries its envelope there). */
  readonly meta?: TokenSpan;
  /**
   * The first key the envelope or `params` repeats, if any: the line is ambiguous, and `id` is
   * then set only when every reading gives the same one.
   */
  readonly repeated?: string;
}

/** The key `readHead` looks for first (with `indexOf`) to locate the arguments. */
export const ARGUMENTS_KEY = '"arguments"';

/**
 * Reads the head of one line (`text` is its latin1 image). A line that is not a JSON object, or
 * not valid JSON, yields `undefined`. With `locate`, object or array arguments are located, not
 * read (see above).
 */
export function readHead(text: string, locate: boolean): MessageHead | undefined {
  if (locate) {
    const start = argumentsAt(text);
    const end = start === -1 ? -1 : endOfContainer(text, start);
    if (end !== -1) {
      const head = readWhole(text.slice(0, start) + '0' + text.slice(end));
      if (head?.args?.start === start && head.args.end === start + 1) {
        // The spans of the id and of `_meta`, if they came after the arguments, move by what the `0` stood in for.
        const shift = end - start - 1;
        const moved = (span: TokenSpan | undefined): TokenSpan | undefined => (span !== undefined && span.start > start ? { start: span.start + shift, end: span.end + shift } : span);
        const meta = moved(head.meta);
        return { ...head, idSpan: moved(head.idSpan), args: { start, end, unread: true }, ...(meta === undefined ? {} : { meta }) };
      }
    }
  }
  return readWhole(text);
}

/** Reads the head of `text`, every value on the way included. */
function readWhole(text: string): MessageHead | undefined {
  const head = new HeadFinder(text);
  try {
    scanJson(text, head);
  } catch {
    return undefined;
  }
  return head.isObject ? head.result() : undefined;
}

/** JSON-RPC's "invalid request" code. */
export const INVALID_REQUEST = -32600;

/**
 * The JSON-RPC error (`-32600`) that answers a line whose envelope or `params` repeat a key, as
 * the text of one line without its newline; `undefined` when `head` repeats none. Its id is the
 * line's when every reading gives the same one, else `null`.
 */
export function ambiguityError(head: MessageHead): string | undefined {
  const key = head.repeated;
  if (key === undefined) return undefined;
  const message = `schema-coerce proxy: the request repeats the key ${JSON.stringify(key)}, so a server may read it otherwise than the proxy did; it was not forwarded`;
  return JSON.stringify({ jsonrpc: '2.0', id: head.id ?? null, error: { code: INVALID_REQUEST, message } });
}

/** Where the value of the first `"arguments"` key opens, if it is an object or an array; else -1. */
function argumentsAt(text: string): number {
  const key = text.indexOf(ARGUMENTS_KEY);
  if (key === -1) return -1;
  let at = skipSpace(text, key + ARGUMENTS_KEY.length);
  if (text.charCodeAt(at) !== COLON) return -1;
  at = skipSpace(text, at + 1);
  const code = text.charCodeAt(at);
  return code === OPEN_BRACE || code === OPEN_BRACKET ? at : -1;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The index just past the bracket that closes the object or array opening at `start`, found by
 * counting brackets outside strings (a string is skipped to its closing quote with `indexOf`);
 * -1 when the text ends first. Nothing is validated: the repair reads these bytes strictly.
 */
export function endOfContainer(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = endOfString(text, i);
      if (i === -1) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/** The index of the quote that closes the string opening at `at` (one not escaped), or -1. */
function endOfString(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/** The id whose string or number token starts at `at`, and where the token ends; `undefined` when none starts there. */
export function idTokenAt(text: string, at: number): { id: MessageId; end: number } | undefined {
  const end = scalarEnd(text, at);
  if (end === -1) return undefined;
  return { id: text.charCodeAt(at) === QUOTE ? stringAt(text, at, end) : Number(text.slice(at, end)), end };
}

/** Decodes the UTF-8 bytes of a token from its latin1 image. */
export function utf8Of(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

/** The value of the string token at `start`..`end` of a latin1 image. */
function stringAt(text: string, start: number, end: number): string {
  const token = text.slice(start, end);
  return isAscii(token) ? decodeString(text, start, end) : (JSON.parse(utf8Of(token)) as string);
}

/** A visitor that records the members of depth 1 and of `params` the proxy needs. */
class HeadFinder implements JsonVisitor {
  isObject = false;
  private method: string | undefined;
  private id: MessageId | undefined;
  private idStart = -1;
  private idEnd = -1;
  private name: string | undefined;
  private cursor = false;
  private argsStart = -1;
  private metaStart = -1;
  private metaEnd = -1;
  private argsEnd = -1;
  private depth = 0;
  /** The key of the member being read at depth 1 and at depth 2. */
  private key1 = '';
  private key2 = '';
  private paramsIsObject = false;
  /** The keys of the envelope, and of the `params` object being read. */
  private readonly keys1 = new Set<string>();
  private readonly keys2 = new Set<string>();
  private repeated: string | undefined;
  /** Some `id` of the envelope is not a string or a number, or not the one before it: no id is read. */
  private idMismatch = false;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  result(): MessageHead {
    const id = this.idMismatch ? undefined : this.id;
    return {
      method: this.method,
      id,
      idSpan: id === undefined ? undefined : { start: this.idStart, end: this.idEnd },
      name: this.name,
      cursor: this.cursor,
      args: this.argsStart === -1 || this.argsEnd === -1 ? undefined : { start: this.argsStart, end: this.argsEnd, unread: false },
      ...(this.metaEnd === -1 ? {} : { meta: { start: this.metaStart, end: this.metaEnd } }),
      ...(this.repeated === undefined ? {} : { repeated: this.repeated }),
    };
  }

  open(isArray: boolean, at: number): void {
    if (this.depth === 2 && this.inParams() && this.key2 === '_meta' && !isArray && this.metaStart === -1) this.metaStart = at;
    if (this.depth === 0) this.isObject = !isArray;
    else if (this.depth === 1 && this.key1 === 'params') {
      this.paramsIsObject = !isArray;
      this.keys2.clear();
    }
    this.atParams(at, -1);
    if (this.depth === 1 && this.key1 === 'id') this.idMismatch = true;
    this.depth++;
  }

  key(raw: string, start: number, end: number): void {
    if (this.depth > 2 || (this.depth === 2 && !this.inParams())) return;
    // Bytes past ASCII are read as UTF-8, so `"é"` and `"\u00e9"` are one key, as for a server.
    const key = isShortAscii(raw) ? raw : stringAt(this.text, start, end);
    const keys = this.depth === 1 ? this.keys1 : this.keys2;
    if (keys.has(key)) this.repeated ??= key;
    else keys.add(key);
    if (this.depth === 1) this.key1 = key;
    else this.key2 = key;
  }

  string(start: number, end: number): void {
    if (this.depth === 1 && (this.key1 === 'method' || this.key1 === 'id')) {
      const value = stringAt(this.text, start, end);
      if (this.key1 === 'method') this.method = value;
      else this.setId(value, start, end);
    } else if (this.depth === 2 && this.inParams() && this.key2 === 'name') {
      this.name = stringAt(this.text, start, end);
    }
    this.atParams(start, end);
  }

  number(start: number, end: number): void {
    if (this.depth === 1 && this.key1 === 'id') this.setId(Number(this.text.slice(start, end)), start, end);
    this.atParams(start, end);
  }

  literal(_value: boolean | null, start: number, end: number): void {
    if (this.depth === 1 && this.key1 === 'id') this.idMismatch = true;
    this.atParams(start, end);
  }

  close(at: number): void {
    this.depth--;
    if (this.depth === 2 && this.inParams() && this.key2 === 'arguments' && this.argsEnd === -1) this.argsEnd = at + 1;
    else if (this.depth === 2 && this.inParams() && this.key2 === '_meta' && this.metaStart !== -1 && this.metaEnd === -1) this.metaEnd = at + 1;
  }

  private inParams(): boolean {
    return this.key1 === 'params' && this.paramsIsObject;
  }

  private setId(id: MessageId, start: number, end: number): void {
    if (this.id !== undefined && this.id !== id) this.idMismatch = true;
    this.id = id;
    this.idStart = start;
    this.idEnd = end;
  }

  /** A value starts at `start` (and ends at `end`, for a scalar): note `cursor` and `arguments`. */
  private atParams(start: number, end: number): void {
    if (this.depth !== 2 || !this.inParams()) return;
    if (this.key2 === 'cursor') this.cursor = true;
    else if (this.key2 === 'arguments' && this.argsStart === -1) {
      this.argsStart = start;
      if (end !== -1) this.argsEnd = end;
    }
  }
}

/** The spans of the members of the JSON array `text`; `undefined` when it is not one (or not JSON). */
export function memberSpans(text: string): [start: number, end: number][] | undefined {
  let parts: TopLevelPart[];
  try {
    parts = topLevelParts(text);
  } catch {
    return undefined;
  }
  return text.charCodeAt(skipSpace(text, 0)) === OPEN_BRACKET ? parts.map((part) => [part.start, part.end]) : undefined;
}
