/**
 * The escapes of a string token, sorted by how each reading reads them: JSON's, Python's (in a
 * text written as a Python literal), or every backslash as written (when none opens an escape
 * either reading knows: `C:\Dev\Tools`). Which reading a string takes is decided here, and so is
 * every refusal of its escapes, each naming the readings it could not choose between and what to
 * write instead.
 */
import type { Escapes } from './edits.js';
import type { Source } from './source.js';

/** Per string: which kinds of escape it holds, and whether it holds a raw control character. */
export type EscapeKinds = number;

/** `\" \\ \b \f \n \r \t \uXXXX`: the same character in JSON and in Python. */
const SHARED = 1;
/** `\/`: `/` in JSON, a backslash and a slash in Python. */
const JSON_ONLY = 2;
/** `\' \xHH \UXXXXXXXX \a \v`, octal: invalid JSON, a character in Python. */
export const PYTHON_ONLY = 4;
/** `\x` or `\U` before a word that is not hex digits (`\xampp`, `\Users`): an error in Python, no escape in JSON. */
const PYTHON_ERROR = 8;
/** A backslash before any other character: an escape neither reading knows. */
const UNKNOWN = 16;
/** `\N{…}`: a character by its Unicode name (no name table is shipped). */
const NAMED = 32;
/** A raw character below U+0020. */
export const CONTROL = 64;
/**
 * A backslash before a raw control character (a line continuation in Python, nothing in JSON) or
 * before a character past ASCII (a `\uXXXX` escape broken off: `\로` for `로`).
 */
const STRAY_BACKSLASH = 128;
/**
 * A broken hex escape: `\u` without four hex digits (`\u00e`, `\u{e9}`, `\users`: `u` is JSON's
 * own escape letter), `\x` or `\U` with too few hex digits and no word after them (`\x4`), or
 * `\U` past U+10FFFF. A character lost, or a backslash as written: refused in every text.
 */
const BROKEN = 256;
/** Escapes that read differently in a Python text and in a JSON one, or are refused in both (decided once the text is known). */
export const READING_DEPENDENT: number = JSON_ONLY | PYTHON_ONLY | PYTHON_ERROR | NAMED | STRAY_BACKSLASH | BROKEN;

/** How many hex digits an escape takes, per letter. */
export const HEX_DIGITS: Readonly<Record<string, number>> = { u: 4, x: 2, U: 8 };
/** Exactly so many hex digits, per count. */
const HEX_RUNS: Readonly<Record<number, RegExp>> = { 2: /[0-9a-fA-F]{2}/y, 4: /[0-9a-fA-F]{4}/y, 8: /[0-9a-fA-F]{8}/y };
/** Hex digits and then a letter past `f` (or `_`): a word, not a hex escape cut short (`\xampp`, `\Users`). */
const WORD_AFTER = /[0-9a-fA-F]*[G-Zg-z_]/y;
/** The hex digits after an escape letter, up to eight. */
const HEX_RUN = /[0-9a-fA-F]{0,8}/y;
/** JavaScript's code-point escape, `\u{…}`, after its backslash. */
const CODE_POINT = /u\{([0-9a-fA-F]{1,6})\}/y;

/** The kinds of escape (and raw control characters) in `body` from `from` to `to`. */
export function escapeKinds(body: string, from: number, to: number): EscapeKinds {
  let kinds = 0;
  for (let i = from; i < to; i++) {
    const code = body.charCodeAt(i);
    if (code < 0x20) kinds |= CONTROL;
    else if (code === 0x5c) kinds |= escapeKind(body, i++);
  }
  return kinds;
}

/** The kind of the escape whose backslash is at `at`. */
function escapeKind(body: string, at: number): number {
  const next = body[at + 1]!;
  switch (next) {
    case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
      return SHARED;
    case '/':
      return JSON_ONLY;
    case "'": case 'a': case 'v': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
      return PYTHON_ONLY;
    case 'u':
      return hexAt(body, at + 2, 4) ? SHARED : BROKEN;
    case 'x':
      return hexAt(body, at + 2, 2) ? PYTHON_ONLY : wordOrBroken(body, at + 2);
    case 'U':
      if (!hexAt(body, at + 2, 8)) return wordOrBroken(body, at + 2);
      return parseInt(body.slice(at + 2, at + 10), 16) <= 0x10ffff ? PYTHON_ONLY : BROKEN;
    case 'N':
      return body[at + 2] === '{' ? NAMED : UNKNOWN;
    default:
      return next.charCodeAt(0) < 0x20 || next.charCodeAt(0) > 0x7e ? STRAY_BACKSLASH : UNKNOWN;
  }
}

/** After `\x` or `\U` without their hex digits: a word (no escape in JSON), or a hex escape cut short. */
function wordOrBroken(body: string, at: number): number {
  WORD_AFTER.lastIndex = at;
  return WORD_AFTER.test(body) ? PYTHON_ERROR : BROKEN;
}

/** True when `count` hex digits start at `at`. */
function hexAt(body: string, at: number, count: number): boolean {
  const run = HEX_RUNS[count]!;
  run.lastIndex = at;
  return run.test(body);
}

/** The position of the first escape of `kind` (a single bit) between `from` and `to`. */
function findEscape(body: string, from: number, to: number, kind: number): number {
  for (let i = from; i < to; i++) if (body.charCodeAt(i) === 0x5c && escapeKind(body, i++) === kind) return i - 1;
  return from;
}

/**
 * How the string token at `at`..`end`, whose escapes are of `kinds`, is read, knowing whether
 * the text is a Python literal: JSON's escapes, Python's, or every backslash as written.
 *
 * @throws {ArgsParseError} When its escapes have no single reading.
 */
export function readingOf(source: Source, at: number, end: number, kinds: EscapeKinds, python: boolean): Escapes {
  const body = source.body;
  const escape = (kind: number): number => findEscape(body, at + 1, end - 1, kind);
  if ((kinds & NAMED) !== 0) source.fail(escape(NAMED), 'a \\N{…} escape names a character by its Unicode name, and no name table is shipped: refused');
  if ((kinds & STRAY_BACKSLASH) !== 0) source.fail(escape(STRAY_BACKSLASH), 'a backslash before a raw control character or a character past ASCII (a line continuation, a \\u escape broken off, or a backslash as written?): refused');
  if ((kinds & BROKEN) !== 0) {
    const broken = escape(BROKEN);
    source.fail(broken, brokenEscape(body, broken));
  }
  if (python) {
    if ((kinds & JSON_ONLY) !== 0) source.fail(escape(JSON_ONLY), '\\/ is "/" in JSON but a backslash and a slash in Python: refused');
    if ((kinds & PYTHON_ERROR) !== 0) source.fail(escape(PYTHON_ERROR), 'Invalid escape in a string (Python reads no character from it)');
    return (kinds & UNKNOWN) !== 0 ? literal(source, at, end, kinds & (SHARED | PYTHON_ONLY)) : 'python';
  }
  if ((kinds & PYTHON_ONLY) !== 0) {
    const found = escape(PYTHON_ONLY);
    source.fail(found, pythonOnly(body, found));
  }
  return (kinds & (UNKNOWN | PYTHON_ERROR)) !== 0 ? literal(source, at, end, kinds & (SHARED | JSON_ONLY)) : 'json';
}

/**
 * `literal` when a string's backslashes can all be read as themselves: none opens an escape the
 * reading knows (`known`, the kinds it holds that do). Refused otherwise.
 */
function literal(source: Source, at: number, end: number, known: number): Escapes {
  if (known !== 0) {
    source.fail(findEscape(source.body, at + 1, end - 1, known & -known), 'a string mixes escapes with backslashes that open none (which backslash is a path separator and which an escape cannot be known): refused. Write \\\\ for each backslash meant as written');
  }
  return 'literal';
}

/**
 * Why the escape `written` is refused: `what` it is, and the `reading` that competes with a
 * backslash meant as written; `python` when it is read as Python's (a Python escape in a text
 * nothing shows is Python).
 */
function refusal(written: string, what: string, reading: string, python?: boolean): string {
  return `${python ? 'a Python escape in a text that is not a Python literal: ' : ''}\`${written}\` ${what} (${reading}, or a backslash meant as written?): refused. Write the character itself, or \\\\ for a backslash meant as written`;
}

/** Why the broken hex escape at `at` is refused. */
function brokenEscape(body: string, at: number): string {
  CODE_POINT.lastIndex = at + 1;
  const braced = CODE_POINT.exec(body);
  const code = braced === null ? -1 : parseInt(braced[1]!, 16);
  if (code !== -1 && code <= 0x10ffff) {
    return refusal(body.slice(at, CODE_POINT.lastIndex), `is JavaScript's escape for ${JSON.stringify(String.fromCodePoint(code))}, not JSON's`, 'that character');
  }
  const digits = HEX_DIGITS[body[at + 1]!]!;
  HEX_RUN.lastIndex = at + 2;
  HEX_RUN.test(body);
  const run = Math.min(HEX_RUN.lastIndex - at - 2, digits);
  // With no digit, the character after the letter shows what followed it (`\us` of `C:\users`).
  const written = body.slice(at, at + 2 + (run === 0 && WORD_CHAR.test(body[at + 2] ?? '') ? 1 : run));
  return refusal(written, `is a broken escape: ${run === digits ? 'past U+10FFFF' : `with ${run} of its ${digits} hex digits`}`, 'a character lost');
}

/** A character that may follow an escape letter in a message: a letter, a digit or `_`. */
const WORD_CHAR = /^\w$/;

/** Why the Python escape at `at`, in a text nothing shows is Python, is refused: its two readings. */
function pythonOnly(body: string, at: number): string {
  // The escape decoder's pattern, from the backslash: the escape whole.
  ESCAPE.lastIndex = at;
  const written = ESCAPE.exec(body)![0];
  return refusal(written, `is ${JSON.stringify(decodeEscapes(written, true))} in Python, no escape in JSON`, "Python's character", true);
}

/** One escape, as the reader decodes it: the hex forms first, octal, then any single character. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|U([0-9a-fA-F]{8})|([0-7]{1,3})|([\s\S]))/g;
/** The one-character escapes, as Python reads them (JSON reads the same but for `'`, `a` and `v`). */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', "'": "'", '\\': '\\', '/': '/', a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b',
};

/** `content` with its escapes decoded, as Python reads them (`python`) or as JSON does. */
export function decodeEscapes(content: string, python: boolean): string {
  if (content.indexOf('\\') === -1) return content;
  return content.replace(ESCAPE, (match, u?: string, x?: string, big?: string, octal?: string, char?: string) => {
    const hex = u ?? x;
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    if (big !== undefined) return String.fromCodePoint(parseInt(big, 16));
    if (octal !== undefined) return python ? String.fromCharCode(parseInt(octal, 8)) : match;
    return ESCAPES[char!] ?? match;
  });
}
