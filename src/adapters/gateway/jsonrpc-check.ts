/**
 * The check of a POSTed message before the gateway acts on it or forwards it: JSON-RPC 2.0 as MCP
 * writes it, so that a message a server would drop unanswered (and its client wait for without
 * end) is answered by the gateway instead, `400` with `-32600` naming what is wrong.
 *
 * `readMessage` does it in two steps. The bytes, before they are parsed (`scanMessage`): valid
 * UTF-8, arrays and objects nested no deeper than the bound (parsing 100,000 levels costs a
 * second), no string escaping half of a surrogate pair, and the text of the top-level `id`. Then the parsed message
 * (`checkMessage`): `jsonrpc` is `"2.0"`; a request or notification has a string `method`, an
 * object `params` if any, and a request an `id` that is a string or an integer written as one
 * (`1.0` reads as 1 in JavaScript and as a float in Python: two readings, refused), within what
 * a double holds exactly; a response has an `id` and exactly one of `result` and `error`.
 */
import buffer from 'node:buffer';
import { INVALID_REQUEST, type MessageId } from '../proxy/message.js';

/** JSON-RPC's code for text that is not JSON. */
const PARSE_ERROR = -32700;

/** What the gateway makes of a POSTed body: a message to act on, or the error that answers it (with a 400). */
export type ReadMessage =
  | { readonly ok: true; readonly method: string | undefined; readonly requestId: MessageId | undefined }
  | { readonly ok: false; readonly code: number; readonly message: string; readonly id: MessageId | null };

/**
 * Reads a POSTed body (one line of JSON, its line breaks made spaces) as one JSON-RPC message:
 * its method and, for a request, its id; or why it is refused (`-32700` for text that is not
 * JSON, `-32600` for anything else), with the message's id when it has a usable one.
 */
export function readMessage(body: Buffer, maxDepth: number): ReadMessage {
  const scanned = scanMessage(body, maxDepth);
  if (scanned.problem !== undefined) return { ok: false, code: INVALID_REQUEST, message: `Invalid Request: ${scanned.problem}`, id: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, code: PARSE_ERROR, message: 'Parse error: the body is not JSON', id: null };
  }
  const verdict = checkMessage(parsed, scanned.idText);
  return verdict.ok ? verdict : { ok: false, code: INVALID_REQUEST, message: `Invalid Request: ${verdict.problem}`, id: verdict.id };
}

/** What the scan of a message's bytes found. */
interface ScannedMessage {
  /** Why the bytes are refused, if they are. */
  readonly problem?: string;
  /** The text of the top-level `id` value when it is a number (the last one, as `JSON.parse` keeps it). */
  readonly idText?: string;
}

/** The verdict on a parsed message. */
type MessageVerdict =
  | { readonly ok: true; readonly method: string | undefined; readonly requestId: MessageId | undefined }
  | { readonly ok: false; readonly problem: string; readonly id: MessageId | null };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_U = 0x75;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

const fatal = new TextDecoder('utf-8', { fatal: true });
/** `isUtf8` of `node:buffer` where Node has it (18.14 and later), else a decoder that throws. */
const isUtf8 =
  (buffer as { isUtf8?: (bytes: Buffer) => boolean }).isUtf8 ??
  ((bytes: Buffer): boolean => {
    try {
      fatal.decode(bytes);
      return true;
    } catch {
      return false;
    }
  });

/**
 * Scans a message's bytes in one pass, stopping at the first problem: UTF-8, the nesting bound,
 * lone surrogate escapes, and the text of a numeric top-level `id`. Text that is not JSON is
 * scanned as far as it goes; the parse that follows names it.
 */
function scanMessage(body: Buffer, maxDepth: number): ScannedMessage {
  if (!isUtf8(body)) return { problem: 'the body is not valid UTF-8' };
  let depth = 0;
  /** At depth 1, the next string is a key (after `{` or `,`). */
  let keyNext = false;
  /** At depth 1, the value after the next `:` is the top-level id. */
  let idKey = false;
  let idText: string | undefined;
  const strings = new StringScanner(body);
  for (let at = 0; at < body.length; at++) {
    const byte = body[at]!;
    if (byte === QUOTE) {
      const end = strings.end(at);
      if (end < 0) return end === LONE ? { problem: 'a string escapes half of a surrogate pair (\\ud800-\\udfff alone)' } : {};
      if (depth === 1 && keyNext) {
        idKey = isIdKey(body, at + 1, end - 1);
        keyNext = false;
      }
      at = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > maxDepth) return { problem: `the message nests deeper than ${maxDepth} levels` };
      keyNext = depth === 1 && byte === OPEN_BRACE;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
    else if (depth === 1 && byte === COMMA) keyNext = true;
    else if (depth === 1 && byte === COLON && idKey) {
      idKey = false;
      const start = skipSpace(body, at + 1);
      const end = scalarEnd(body, start);
      if (end > start) idText = body.toString('latin1', start, end);
    }
  }
  return idText === undefined ? {} : { idText };
}

/** The end of a scalar value that starts at `start`: a number, `true`, `null`… (it ends at white space, `,`, a quote or a bracket). */
function scalarEnd(body: Buffer, start: number): number {
  let at = start;
  while (at < body.length) {
    const byte = body[at]!;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === QUOTE || byte === OPEN_BRACE || byte === OPEN_BRACKET || isSpace(byte)) break;
    at++;
  }
  return at;
}

function skipSpace(body: Buffer, start: number): number {
  let at = start;
  while (at < body.length && isSpace(body[at]!)) at++;
  return at;
}

function isSpace(byte: number): boolean {
  return byte === SPACE || byte === TAB || byte === LF || byte === CR;
}

/** `StringScanner.end` found a lone surrogate escape. */
const LONE = -2;
/** `StringScanner.end` found no closing quote. */
const OPEN = -1;

/**
 * Finds where the strings of one body end, in time linear in the body: the next quote and the
 * next backslash are each looked for once and kept until they are passed (looked for afresh at
 * each string or escape, a body of many strings and no backslash, or a string of many escapes,
 * would be read to its end again and again).
 */
class StringScanner {
  private readonly body: Buffer;
  /** The next quote at or after the last place looked from; -1 when there is none left. */
  private quote = -2;
  /** The next backslash, likewise. */
  private slash = -2;

  constructor(body: Buffer) {
    this.body = body;
  }

  /**
   * The offset just past the string that opens at `start`; `LONE` when an escape in it is half of
   * a surrogate pair alone, `OPEN` when it never closes.
   */
  end(start: number): number {
    const body = this.body;
    let at = start + 1;
    for (;;) {
      if (this.quote !== -1 && this.quote < at) this.quote = body.indexOf(QUOTE, at);
      const quote = this.quote;
      if (quote === -1) return OPEN;
      if (this.slash !== -1 && this.slash < at) this.slash = body.indexOf(BACKSLASH, at);
      const slash = this.slash;
      if (slash === -1 || slash > quote) return quote + 1;
      // An escape: `\uXXXX` is read for surrogates, any other is two bytes.
      if (body[slash + 1] !== LOWER_U) {
        at = slash + 2;
        continue;
      }
      const unit = hexAt(body, slash + 2);
      if (unit >= 0xdc00 && unit <= 0xdfff) return LONE;
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const low = body[slash + 6] === BACKSLASH && body[slash + 7] === LOWER_U ? hexAt(body, slash + 8) : -1;
        if (low < 0xdc00 || low > 0xdfff) return LONE;
        at = slash + 12;
      } else at = slash + 6;
    }
  }
}

/** The four hex digits at `at` as a number; -1 when they are not four hex digits. */
function hexAt(body: Buffer, at: number): number {
  let unit = 0;
  for (let digit = at; digit < at + 4; digit++) {
    const value = hexValue(body[digit]);
    if (value < 0) return -1;
    unit = unit * 16 + value;
  }
  return unit;
}

/** The value of one hex digit's byte; -1 for any other byte (or none). */
function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Whether the key between `start` and `end` (its quotes excluded) reads `id`, escapes decoded. */
function isIdKey(body: Buffer, start: number, end: number): boolean {
  const length = end - start;
  if (length === 2) return body[start] === 0x69 && body[start + 1] === 0x64;
  // Escaped, `id` is at most twelve bytes (`\u0069\u0064`); the search stays within the key.
  if (length > 12 || !body.subarray(start, end).includes(BACKSLASH)) return false;
  try {
    return JSON.parse(`"${body.toString('utf8', start, end)}"`) === 'id';
  } catch {
    return false;
  }
}

/** An integer written as one: digits, a minus sign at most, no fraction, no exponent, no leading zero. */
const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

/**
 * Checks a parsed message against JSON-RPC 2.0 as MCP uses it.
 *
 * @param message - What `JSON.parse` made of the body.
 * @param idText - The text of its numeric top-level `id` (`scanMessage`).
 */
function checkMessage(message: unknown, idText: string | undefined): MessageVerdict {
  if (Array.isArray(message)) return refused('batches are not supported (one message per POST)', null);
  if (typeof message !== 'object' || message === null) return refused('the body is not a JSON-RPC message', null);
  const fields = message as Record<string, unknown>;
  const hasId = Object.hasOwn(fields, 'id');
  const idProblem = hasId ? whyNotAnId(fields['id'], idText) : undefined;
  const id = hasId && idProblem === undefined ? (fields['id'] as MessageId) : null;
  if (fields['jsonrpc'] !== '2.0') return refused('"jsonrpc" must be "2.0"', id);
  const method = fields['method'];
  if (Object.hasOwn(fields, 'method')) {
    if (typeof method !== 'string') return refused('"method" must be a string', id);
    if (idProblem !== undefined) return refused(idProblem, null);
    const params = fields['params'];
    if (Object.hasOwn(fields, 'params') && (typeof params !== 'object' || params === null || Array.isArray(params))) return refused('"params" must be an object', id);
    return { ok: true, method, requestId: hasId ? id! : undefined };
  }
  return checkResponse(fields, hasId, idProblem, id);
}

/** A client's response to a server's request: an id (null only with an error) and exactly one of `result` and `error`. */
function checkResponse(fields: Record<string, unknown>, hasId: boolean, idProblem: string | undefined, id: MessageId | null): MessageVerdict {
  const hasResult = Object.hasOwn(fields, 'result');
  const hasError = Object.hasOwn(fields, 'error');
  if (hasResult === hasError) return refused('a message needs a "method", or exactly one of "result" and "error"', id);
  if (!hasId) return refused('a response needs an "id"', null);
  if (idProblem !== undefined && !(hasError && fields['id'] === null)) return refused(idProblem, null);
  if (hasError) {
    const error = fields['error'] as { code?: unknown; message?: unknown } | null;
    if (typeof error !== 'object' || error === null || !Number.isSafeInteger(error.code) || typeof error.message !== 'string') {
      return refused('"error" must be an object with an integer "code" and a string "message"', id);
    }
  }
  return { ok: true, method: undefined, requestId: undefined };
}

/** Why `value` is no id MCP allows (a string, or an integer written as one within ±(2^53 − 1)); `undefined` when it is one. */
function whyNotAnId(value: unknown, text: string | undefined): string | undefined {
  if (typeof value === 'string') return undefined;
  if (typeof value === 'number' && text !== undefined && INTEGER_TEXT.test(text) && Number.isSafeInteger(value)) return undefined;
  if (typeof value === 'number') return `"id" must be a string or an integer within ±(2^53 - 1) written without fraction or exponent, not ${text ?? value}`;
  return `"id" must be a string or an integer, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value}`;
}

function refused(problem: string, id: MessageId | null): MessageVerdict {
  return { ok: false, problem, id };
}
