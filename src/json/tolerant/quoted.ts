/**
 * Quoted strings of a syntax repair: JSON's double-quoted strings, single-quoted and
 * typographic-quoted ones, and Gemma's `<|"|>` strings, each returned as its JSON spelling (the
 * text it becomes), so a string that needs no rewriting is never decoded. Raw control characters
 * are escaped. Escapes are read one way per string: JSON's; Python's, in a text written as a
 * Python literal (`\xHH`, `\UXXXXXXXX`, `\a`, `\v`, octal, `\'`); or, when no backslash of the
 * string opens an escape either reading knows (`"C:\Dev\Tools"`), every backslash as itself. A
 * string whose escapes mix those readings is refused, and one whose escapes only a Python text
 * reads (`\x1b`) waits until the reader knows whether the text is one. A text that ends inside a
 * string or an escape is cut off.
 */
import type { Escapes, SyntaxRule } from './edits.js';
import type { Source } from './source.js';

/** Per string: which kinds of escape it holds, and whether it holds a raw control character. */
export type EscapeKinds = number;

/** `\" \\ \b \f \n \r \t \uXXXX`: the same character in JSON and in Python. */
const SHARED = 1;
/** `\/`: `/` in JSON, a backslash and a slash in Python. */
const JSON_ONLY = 2;
/** `\' \xHH \UXXXXXXXX \a \v`, octal: invalid JSON, a character in Python. */
const PYTHON_ONLY = 4;
/** `\x`, `\u` or `\U` without their hex digits: an error in Python, an unknown escape in JSON. */
const PYTHON_ERROR = 8;
/** A backslash before any other character: an escape neither reading knows. */
const UNKNOWN = 16;
/** `\N{…}`: a character by its Unicode name (no name table is shipped). */
const NAMED = 32;
/** A raw character below U+0020. */
const CONTROL = 64;
/**
 * A backslash before a raw control character (a line continuation in Python, nothing in JSON) or
 * before a character past ASCII (a `\uXXXX` escape broken off: `\로` for `로`).
 */
const STRAY_BACKSLASH = 128;
/** Escapes that read differently in a Python text and in a JSON one. */
const READING_DEPENDENT = JSON_ONLY | PYTHON_ONLY | PYTHON_ERROR | NAMED | STRAY_BACKSLASH;

/** Gemma's string delimiter. */
const GEMMA_QUOTE = '<|"|>';

/** The string token read last: one per reader, filled in place (no object per token). */
export class QuotedString {
  /** Where it ends, past the closing quote. */
  end = 0;
  /** The token as strict JSON: the input's own text when it was double-quoted already. */
  json = '';
  /** True when it was not strict JSON already and must be rewritten. */
  requoted = false;
  /** True when it was single-quoted: the text is written as a Python literal. */
  python = false;
  /** How its escapes were read (when requoted). */
  escapes: Escapes = 'json';
  /** The rules its rewriting applies, the first one the edit's own. */
  rules: SyntaxRule[] = [];
  /** When its reading waits for the whole text (see `resolveString`): the kinds of escape it holds, else 0. */
  pending: EscapeKinds = 0;

  /** Reads the string token whose opening quote is at `at`. */
  read(source: Source, at: number): void {
    const body = source.body;
    const open = body.charCodeAt(at);
    this.python = open === 0x27;
    this.pending = 0;
    if (open === 0x22) {
      STRING.lastIndex = at;
      if (STRING.test(body)) return this.set(STRING.lastIndex, body.slice(at, STRING.lastIndex), false, 'json', NONE);
    } else if (open === 0x27) {
      const end = plainSingleEnd(body, at);
      if (end !== -1) return this.set(end, `"${body.slice(at + 1, end - 1)}"`, true, 'python', QUOTES);
      SINGLE.lastIndex = at;
      if (SINGLE.test(body)) {
        const end = SINGLE.lastIndex;
        return this.set(end, `"${doubleQuoted(body.slice(at + 1, end - 1))}"`, true, 'python', QUOTES);
      }
    } else if (open === 0x3c) {
      return this.gemma(source, at);
    }
    const end = stringEnd(source, at);
    const kinds = escapeKinds(body, at + 1, end - 1);
    this.requoted = true;
    if ((kinds & READING_DEPENDENT) !== 0 && !this.python) {
      this.end = end;
      this.pending = kinds;
      return;
    }
    this.resolve(source, at, end, kinds, this.python);
  }

  /**
   * Decides the string token at `at`..`end`, whose escapes are of `kinds`, knowing whether the
   * text is a Python literal: fills `end`, `json`, `escapes` and `rules`.
   *
   * @throws {ArgsParseError} When its escapes have no single reading.
   */
  resolve(source: Source, at: number, end: number, kinds: EscapeKinds, python: boolean): void {
    const body = source.body;
    this.end = end;
    const content = body.slice(at + 1, end - 1);
    const rules: SyntaxRule[] = body.charCodeAt(at) === 0x22 ? [] : ['quotes'];
    if ((kinds & CONTROL) !== 0) rules.push('control-character');
    const escape = (kind: number): number => findEscape(body, at + 1, end - 1, kind);
    if ((kinds & NAMED) !== 0) source.fail(escape(NAMED), 'a \\N{…} escape names a character by its Unicode name, and no name table is shipped: refused');
    if ((kinds & STRAY_BACKSLASH) !== 0) source.fail(escape(STRAY_BACKSLASH), 'a backslash before a raw control character or a character past ASCII (a line continuation, a \\u escape broken off, or a backslash as written?): refused');
    let escapes: Escapes;
    if (python) {
      if ((kinds & JSON_ONLY) !== 0) source.fail(escape(JSON_ONLY), '\\/ is "/" in JSON but a backslash and a slash in Python: refused');
      if ((kinds & PYTHON_ERROR) !== 0) source.fail(escape(PYTHON_ERROR), 'Invalid escape in a string (Python reads no character from it)');
      escapes = (kinds & UNKNOWN) !== 0 ? literal(source, at, end, kinds & (SHARED | PYTHON_ONLY)) : 'python';
      if (escapes === 'python' && (kinds & PYTHON_ONLY) !== 0) rules.push('python-escape');
    } else {
      if ((kinds & PYTHON_ONLY) !== 0) source.fail(escape(PYTHON_ONLY), 'a Python escape in a text that is not a Python literal (a Python escape or a backslash as written?): refused');
      escapes = (kinds & (UNKNOWN | PYTHON_ERROR)) !== 0 ? literal(source, at, end, kinds & (SHARED | JSON_ONLY)) : 'json';
    }
    if (escapes === 'literal') rules.push('literal-backslash');
    this.escapes = escapes;
    this.rules = rules;
    // A double-quoted string JSON reads as it is (`\/` in a text that is not Python) stays as written.
    this.requoted = rules.length > 0;
    const value = escapes === 'literal' ? content : decodeEscapes(content, escapes === 'python');
    this.json = this.requoted ? JSON.stringify(value) : body.slice(at, end);
  }

  /** Reads a Gemma string: its content as written, up to the first delimiter, which must end it. */
  private gemma(source: Source, at: number): void {
    const body = source.body;
    const from = at + GEMMA_QUOTE.length;
    const close = body.indexOf(GEMMA_QUOTE, from);
    if (close === -1) source.cut(body.length, 'the text ends inside a string');
    const end = close + GEMMA_QUOTE.length;
    AFTER_GEMMA.lastIndex = end;
    if (!AFTER_GEMMA.test(body)) source.fail(close, `a ${GEMMA_QUOTE} inside a Gemma string is a quote or the end of the string, and which cannot be known: refused`);
    this.set(end, JSON.stringify(body.slice(from, close)), true, 'gemma', GEMMA);
  }

  private set(end: number, json: string, requoted: boolean, escapes: Escapes, rules: SyntaxRule[]): void {
    this.end = end;
    this.json = json;
    this.requoted = requoted;
    this.escapes = escapes;
    this.rules = rules;
  }
}

const NONE: SyntaxRule[] = [];
const QUOTES: SyntaxRule[] = ['quotes'];
const GEMMA: SyntaxRule[] = ['gemma-string'];

/** A double-quoted string that reads the same in JSON and in Python (`\\/` is read once the text is known). */
const STRING = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
/** A well-formed single-quoted string: the escapes JSON and Python read alike, and `\'`; no control character. */
const SINGLE = /'[^'\\\u0000-\u001f]*(?:\\(?:['"\\bfnrt]|u[0-9a-fA-F]{4})[^'\\\u0000-\u001f]*)*'/y;
/** In a well-formed single-quoted string's content: an escape pair, or a bare double quote. */
const ESCAPE_OR_QUOTE = /\\[\s\S]|"/g;
/** What may follow a Gemma string's closing delimiter: white space, then the end, `,`, `:`, `}` or `]`. */
const AFTER_GEMMA = /[ \t\r\n]*(?:[,:}\]]|$)/y;
const HEX_PREFIX = /^[0-9a-fA-F]*$/;
/** One escape, as the reader decodes it: the hex forms first, octal, then any single character. */
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|U([0-9a-fA-F]{8})|([0-7]{1,3})|([\s\S]))/g;

/** The closing quote of each opening quote this reader accepts. */
const CLOSING: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u2018': '\u2019',
};

/** Per closing quote: a run of characters that neither close the string, escape, nor are control characters. */
const PLAIN_RUN: Readonly<Record<string, RegExp>> = {
  '"': /[^"\\\u0000-\u001f]*/y,
  "'": /[^'\\\u0000-\u001f]*/y,
  '\u201d': /[^\u201d\\\u0000-\u001f]*/y,
  '\u2019': /[^\u2019\\\u0000-\u001f]*/y,
};

/** The one-character escapes, as Python reads them (JSON reads the same but for `'`, `a` and `v`). */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', "'": "'", '\\': '\\', '/': '/', a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b',
};

/** How many characters an escape's hex digits take, per letter. */
const HEX_DIGITS: Readonly<Record<string, number>> = { u: 4, x: 2, U: 8 };

/** True when a string token opens at `at`. */
export function opensString(body: string, at: number): boolean {
  const code = body.charCodeAt(at);
  return code === 0x22 || code === 0x27 || code === 0x201c || code === 0x2018 || (code === 0x3c && body.startsWith(GEMMA_QUOTE, at));
}

/**
 * Where the single-quoted string at `at` ends (past its closing quote) when it has no escape, no
 * double quote and no control character, so that its content is its JSON content; else -1. A
 * loop, not a pattern: most such strings are keys and short values, for which a sticky pattern's
 * call cost more than reading them (a 5 KB Python repr read 15% faster).
 */
function plainSingleEnd(body: string, at: number): number {
  for (let i = at + 1; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code === 0x27) return i + 1;
    if (code === 0x22 || code === 0x5c || code < 0x20) return -1;
  }
  return -1;
}

/**
 * The content of a well-formed single-quoted string as double-quoted JSON content: `\'` becomes
 * `'`, a bare `"` becomes `\"`, every other escape is kept as written. Each backslash in such
 * content opens an escape pair, so matching pairs from the left never splits one.
 */
function doubleQuoted(content: string): string {
  // Without `\'` and `\"` in it, every double quote is a bare one.
  if (content.indexOf("\\'") === -1 && content.indexOf('\\"') === -1) return escapeQuotes(content);
  return content.replace(ESCAPE_OR_QUOTE, (match) => (match === '"' ? '\\"' : match === "\\'" ? "'" : match));
}

/**
 * `content` with every double quote escaped, each one being a bare one. (Slices between the
 * quotes found by `indexOf` measured 20% faster than a global pattern, and three times as fast
 * as `replaceAll`.)
 */
function escapeQuotes(content: string): string {
  let escaped = '';
  let from = 0;
  for (let quote = content.indexOf('"'); quote !== -1; quote = content.indexOf('"', quote + 1)) {
    escaped += `${content.slice(from, quote)}\\"`;
    from = quote + 1;
  }
  return from === 0 ? content : escaped + content.slice(from);
}

/**
 * Finds where the string token at `at` ends (past its closing quote), run by run: an escape is
 * stepped over whole, so its quote does not close the string. Cut off when the text ends first.
 */
function stringEnd(source: Source, at: number): number {
  const body = source.body;
  const close = CLOSING[body[at]!]!;
  const plain = PLAIN_RUN[close]!;
  for (let i = at + 1; ; ) {
    plain.lastIndex = i;
    plain.test(body);
    i = plain.lastIndex;
    if (i >= body.length) source.cut(i, 'the text ends inside a string');
    const char = body[i]!;
    if (char === close) return i + 1;
    if (char !== '\\') {
      i++;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) source.cut(i, 'the text ends inside an escape');
    const digits = HEX_DIGITS[next];
    if (digits !== undefined) {
      const hex = body.slice(i + 2, i + 2 + digits);
      if (hex.length < digits && i + 2 + hex.length >= body.length && HEX_PREFIX.test(hex)) source.cut(i, 'the text ends inside an escape');
    }
    i += 2;
  }
}

/** The kinds of escape (and raw control characters) in `body` from `from` to `to`. */
function escapeKinds(body: string, from: number, to: number): EscapeKinds {
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
      return hexAt(body, at + 2, 4) ? SHARED : PYTHON_ERROR;
    case 'x':
      return hexAt(body, at + 2, 2) ? PYTHON_ONLY : PYTHON_ERROR;
    case 'U':
      return hexAt(body, at + 2, 8) && parseInt(body.slice(at + 2, at + 10), 16) <= 0x10ffff ? PYTHON_ONLY : PYTHON_ERROR;
    case 'N':
      return body[at + 2] === '{' ? NAMED : UNKNOWN;
    default:
      return next.charCodeAt(0) < 0x20 || next.charCodeAt(0) > 0x7e ? STRAY_BACKSLASH : UNKNOWN;
  }
}

/** Exactly so many hex digits, per count. */
const HEX_RUNS: Readonly<Record<number, RegExp>> = { 2: /[0-9a-fA-F]{2}/y, 4: /[0-9a-fA-F]{4}/y, 8: /[0-9a-fA-F]{8}/y };

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
 * `literal` when a string's backslashes can all be read as themselves: none opens an escape the
 * reading knows (`known`, the kinds it holds that do). Refused otherwise.
 */
function literal(source: Source, at: number, end: number, known: number): Escapes {
  if (known !== 0) {
    source.fail(findEscape(source.body, at + 1, end - 1, known & -known), 'a string mixes escapes with backslashes that open none (which backslash is a path separator and which an escape cannot be known): refused');
  }
  return 'literal';
}

/** `content` with its escapes decoded, as Python reads them (`python`) or as JSON does. */
function decodeEscapes(content: string, python: boolean): string {
  if (content.indexOf('\\') === -1) return content;
  return content.replace(ESCAPE, (match, u?: string, x?: string, big?: string, octal?: string, char?: string) => {
    const hex = u ?? x;
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    if (big !== undefined) return String.fromCodePoint(parseInt(big, 16));
    if (octal !== undefined) return python ? String.fromCharCode(parseInt(octal, 8)) : match;
    return ESCAPES[char!] ?? match;
  });
}
