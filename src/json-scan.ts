/**
 * One validating pass over JSON text (RFC 8259, nothing more), reporting its structure to a
 * visitor. Iterative, so depth costs memory, not stack; string contents are matched by a native
 * regular expression, not character by character. Both the text path and `parseArgs` read JSON
 * through this scanner, so they accept and refuse exactly the same texts.
 */
import { ArgsParseError, locate } from './errors.js';

/** What the scanner reports, in text order. */
export interface JsonVisitor {
  /** A container opens at `at` (`{` when `isArray` is false). */
  open(isArray: boolean, at: number): void;
  /** An object key, decoded, whose quoted token spans `start`..`end`. */
  key(key: string, start: number, end: number): void;
  /** A string token spans `start`..`end` (quotes included). */
  string(start: number, end: number): void;
  /** A number token spans `start`..`end`. */
  number(start: number, end: number): void;
  /** `true`, `false` or `null`. */
  literal(value: boolean | null): void;
  /** The innermost open container closes. */
  close(): void;
}

// The "unrolled loop" form: runs of plain characters, each escape between them. Every run must
// be followed by a backslash or the closing quote, so a failing match backtracks linearly.
const STRING = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Scans `text` as exactly one JSON value, reporting it to `visitor`.
 *
 * @throws {ArgsParseError} When `text` is not JSON; the error names the position.
 */
export function scanJson(text: string, visitor: JsonVisitor): void {
  const length = text.length;
  const arrays: boolean[] = [];
  let i = skipSpace(text, 0);

  for (;;) {
    // A value starts at i.
    if (i >= length) fail(text, i, 'Unexpected end of input');
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const isArray = code === OPEN_BRACKET;
      visitor.open(isArray, i);
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) === (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
        visitor.close();
        i++;
      } else {
        arrays.push(isArray);
        if (!isArray) i = readKey(text, i, visitor);
        continue;
      }
    } else if (code === QUOTE) {
      STRING.lastIndex = i;
      if (!STRING.test(text)) failString(text, i);
      visitor.string(i, STRING.lastIndex);
      i = STRING.lastIndex;
    } else if (code === MINUS || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail(text, i, 'Invalid number');
      visitor.number(i, NUMBER.lastIndex);
      i = NUMBER.lastIndex;
    } else if (text.startsWith('true', i)) {
      visitor.literal(true);
      i += 4;
    } else if (text.startsWith('false', i)) {
      visitor.literal(false);
      i += 5;
    } else if (text.startsWith('null', i)) {
      visitor.literal(null);
      i += 4;
    } else {
      fail(text, i, `Unexpected character ${describe(text, i)}`);
    }

    // After a value: close containers, or move on to the next member.
    for (;;) {
      i = skipSpace(text, i);
      const depth = arrays.length;
      if (depth === 0) {
        if (i < length) fail(text, i, `Unexpected character ${describe(text, i)} after the JSON value`);
        return;
      }
      const isArray = arrays[depth - 1]!;
      const next = text.charCodeAt(i);
      if (next === COMMA) {
        i = skipSpace(text, i + 1);
        if (!isArray) i = readKey(text, i, visitor);
        break;
      }
      if (next !== (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
        fail(text, i, i >= length ? 'Unexpected end of input' : `Expected ',' or '${isArray ? ']' : '}'}' but got ${describe(text, i)}`);
      }
      arrays.pop();
      visitor.close();
      i++;
    }
  }
}

/** Reads `"key" :` at `at` and returns where its value starts. */
function readKey(text: string, at: number, visitor: JsonVisitor): number {
  if (text.charCodeAt(at) !== QUOTE) {
    fail(text, at, at >= text.length ? 'Unexpected end of input' : `Expected a quoted object key but got ${describe(text, at)}`);
  }
  STRING.lastIndex = at;
  if (!STRING.test(text)) failString(text, at);
  const end = STRING.lastIndex;
  visitor.key(decodeString(text, at, end), at, end);
  const colon = skipSpace(text, end);
  if (text.charCodeAt(colon) !== COLON) {
    fail(text, colon, colon >= text.length ? 'Unexpected end of input' : `Expected ':' but got ${describe(text, colon)}`);
  }
  return skipSpace(text, colon + 1);
}

/** The value of a string token already matched at `start`..`end`. */
export function decodeString(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(start, end)) as string);
}

function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== LF && code !== CR && code !== TAB) return i;
    i++;
  }
}

/** Throws for the string token at `at`, pointing at the character that breaks it. */
function failString(text: string, at: number): never {
  const special = /[\\"\u0000-\u001f]/g;
  special.lastIndex = at + 1;
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    const char = match[0];
    if (char === '"') fail(text, at, 'Invalid string');
    if (char !== '\\') fail(text, match.index, `Invalid character U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} in a string`);
    if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(match.index, match.index + 6))) fail(text, match.index, 'Invalid escape in a string');
    special.lastIndex = match.index + 2;
  }
  fail(text, text.length, 'Unterminated string');
}

function describe(text: string, at: number): string {
  return at >= text.length ? 'end of input' : JSON.stringify(text[at]);
}

/** Throws an `ArgsParseError` located at `at`. */
export function fail(text: string, at: number, reason: string): never {
  throw new ArgsParseError(reason, locate(text, at));
}
