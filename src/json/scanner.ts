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
  /** `true`, `false` or `null`, spanning `start`..`end`. */
  literal(value: boolean | null, start: number, end: number): void;
  /** The innermost open container closes; its closing bracket is at `at`. */
  close(at: number): void;
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
  // Whether this is the plain text (see `scanningPlain`) is decided once per scan: a scan inside
  // a visitor's call (JSON text in a string) decides for itself.
  const fast = text === plain;
  /** Per open container: -1 for an array, else the object's keys so far (the next key's index). */
  const open: number[] = [];
  let i = skipSpace(text, 0);

  for (;;) {
    // A value starts at i.
    if (i >= length) fail(text, i, 'Unexpected end of input');
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const isArray = code === OPEN_BRACKET;
      visitor.open(isArray, i);
      i++;
      if (text.charCodeAt(i) <= SPACE) i = skipSpace(text, i);
      if (text.charCodeAt(i) === (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
        visitor.close(i);
        i++;
      } else {
        open.push(isArray ? -1 : 1);
        if (!isArray) i = readKey(text, i, visitor, open.length, 0, fast);
        continue;
      }
    } else if (code === QUOTE) {
      const end = scanString(text, i, fast);
      visitor.string(i, end);
      i = end;
    } else if (code === MINUS || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail(text, i, 'Invalid number');
      visitor.number(i, NUMBER.lastIndex);
      i = NUMBER.lastIndex;
    } else if (code === 0x74 && text.startsWith('true', i)) {
      visitor.literal(true, i, i + 4);
      i += 4;
    } else if (code === 0x66 && text.startsWith('false', i)) {
      visitor.literal(false, i, i + 5);
      i += 5;
    } else if (code === 0x6e && text.startsWith('null', i)) {
      visitor.literal(null, i, i + 4);
      i += 4;
    } else {
      fail(text, i, `Unexpected character ${describe(text, i)}`);
    }

    // After a value: close containers, or move on to the next member.
    for (;;) {
      if (text.charCodeAt(i) <= SPACE) i = skipSpace(text, i);
      const depth = open.length;
      if (depth === 0) {
        if (i < length) fail(text, i, `Unexpected character ${describe(text, i)} after the JSON value`);
        return;
      }
      const keys = open[depth - 1]!;
      const isArray = keys === -1;
      const next = text.charCodeAt(i);
      if (next === COMMA) {
        i++;
        if (text.charCodeAt(i) <= SPACE) i = skipSpace(text, i);
        if (!isArray) {
          i = readKey(text, i, visitor, depth, keys, fast);
          open[depth - 1] = keys + 1;
        }
        break;
      }
      if (next !== (isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
        fail(text, i, i >= length ? 'Unexpected end of input' : `Expected ',' or '${isArray ? ']' : '}'}' but got ${describe(text, i)}`);
      }
      open.pop();
      visitor.close(i);
      i++;
    }
  }
}

/**
 * Per object depth (up to `MAX_TRAIL_DEPTH`), the keys of the last object read there, in order.
 * Arrays of objects, and the same tool called again, repeat their keys in the same order: when
 * the raw key text equals the key read at this depth and position last time, that very string is
 * reused. No slice, no allocation, and its hash, which V8 keeps on the string, is already known
 * to every Map that looks it up.
 */
const trails: string[][] = [];
const MAX_TRAIL_DEPTH = 64;

/** Reads `"key" :` at `at` (the `index`-th key of an object at `depth`); returns where its value starts. */
function readKey(text: string, at: number, visitor: JsonVisitor, depth: number, index: number, fast: boolean): number {
  if (text.charCodeAt(at) !== QUOTE) {
    fail(text, at, at >= text.length ? 'Unexpected end of input' : `Expected a quoted object key but got ${describe(text, at)}`);
  }
  let end: number;
  let key: string;
  if (depth <= MAX_TRAIL_DEPTH) {
    const trail = (trails[depth - 1] ??= []);
    const expected = trail[index];
    // A remembered key was a whole string token with no backslash and no control character, so
    // the same characters followed by a quote are that very token, and its value: no match needed.
    // (A slice compared with `===` measured faster than `startsWith`.)
    if (expected !== undefined && text.charCodeAt(at + expected.length + 1) === QUOTE && text.slice(at + 1, at + 1 + expected.length) === expected) {
      key = expected;
      end = at + expected.length + 2;
    } else {
      end = scanString(text, at, fast);
      key = decodeString(text, at, end);
      if (key.indexOf('\\') === -1) trail[index] = key;
    }
  } else {
    end = scanString(text, at, fast);
    key = decodeString(text, at, end);
  }
  visitor.key(key, at, end);
  let colon = end;
  if (text.charCodeAt(colon) !== COLON) {
    colon = skipSpace(text, colon);
    if (text.charCodeAt(colon) !== COLON) {
      fail(text, colon, colon >= text.length ? 'Unexpected end of input' : `Expected ':' but got ${describe(text, colon)}`);
    }
  }
  const value = colon + 1;
  return text.charCodeAt(value) <= SPACE ? skipSpace(text, value) : value;
}

/** The index just past the string or number token starting at `at`, or -1 when none starts there. */
export function scalarEnd(text: string, at: number): number {
  const pattern = text.charCodeAt(at) === QUOTE ? STRING : NUMBER;
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/** The value of a string token already matched at `start`..`end`. */
export function decodeString(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(start, end)) as string);
}

/** The index of the first character at or after `at` that is not JSON white space (`text.length` at the end). */
export function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== LF && code !== CR && code !== TAB) return i;
    i++;
  }
}

/**
 * A text its caller has checked holds no character below U+0020 (see `scanningPlain`). While it
 * is scanned: the index of its first backslash after `searchedFrom` (2^32 - 1 for none, 0 before
 * the first search), and the string token that search started at. A scan that starts over (the
 * object model reading a text the text path gave up on) searches again.
 */
let plain: string | undefined;
let backslashAt = 0;
let searchedFrom = 0;

/**
 * Declares `text` free of characters below U+0020 until the next call (`undefined` ends it): its
 * string tokens are then found by native searches for their closing quote and for the next
 * backslash, rather than by the pattern, which reads every character (about 1 ns each). A token
 * with a backslash before its closing quote is read by the pattern as before. Only that text (or
 * a string equal to it) is trusted: any other text scanned meanwhile, such as JSON text inside
 * one of its strings, whose escapes may decode to control characters, is read in full.
 */
export function scanningPlain(text: string | undefined): void {
  plain = text;
  backslashAt = 0;
}

/**
 * Reads the string token whose opening quote is at `at` and returns the index just past its
 * closing quote, in one native pass. (Measured against a hand-written loop for short strings and
 * an `indexOf` search for the closing quote: both lost on long or escape-dense strings, where
 * control characters must be looked for too.)
 */
function scanString(text: string, at: number, fast: boolean): number {
  if (fast) {
    if (at >= backslashAt || at < searchedFrom) {
      searchedFrom = at;
      // Not found is -1, which `>>> 0` makes 2^32 - 1: past any index.
      backslashAt = text.indexOf('\\', at + 1) >>> 0;
    }
    const close = text.indexOf('"', at + 1) >>> 0;
    if (close < backslashAt) return close + 1;
  }
  STRING.lastIndex = at;
  if (!STRING.test(text)) failString(text, at);
  return STRING.lastIndex;
}

/**
 * Throws for the string token at `at`, pointing at the character that breaks it. The pattern
 * failed, so a control character or a bad escape comes before any quote that is not escaped
 * (or the text ends first): the first such character is the one to name.
 */
function failString(text: string, at: number): never {
  const special = /[\\\u0000-\u001f]/g;
  special.lastIndex = at + 1;
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    const char = match[0];
    if (char !== '\\') fail(text, match.index, `Invalid character U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} in a string`);
    if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(match.index, match.index + 6))) fail(text, match.index, 'Invalid escape in a string');
    special.lastIndex = match.index + 2;
  }
  fail(text, text.length, 'Unterminated string');
}

/** The character at `at` (always inside the text), quoted for a message. */
function describe(text: string, at: number): string {
  return JSON.stringify(text[at]);
}

/** Throws an `ArgsParseError` located at `at`. */
export function fail(text: string, at: number, reason: string): never {
  throw new ArgsParseError(reason, locate(text, at));
}
