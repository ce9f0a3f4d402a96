/**
 * Quoted strings of a syntax repair: JSON's double-quoted strings, single-quoted and
 * typographic-quoted ones, and Gemma's `<|"|>` strings, each returned as its JSON spelling (the
 * text it becomes), so a string that needs no rewriting is never decoded. Raw control characters
 * are escaped. Escapes are read one way per string: JSON's; Python's, in a text written as a
 * Python literal; or every backslash as written (`escapes.ts` sorts them and decides). A string
 * whose escapes only a Python text reads (`\x1b`), or that are refused in any text, waits until
 * the reader knows whether the text is one. A text that ends inside a string or an escape is cut
 * off.
 */
import type { Escapes, SyntaxRule } from './edits.js';
import { CONTROL, decodeEscapes, escapeKinds, HEX_DIGITS, PYTHON_ONLY, READING_DEPENDENT, readingOf, type EscapeKinds } from './escapes.js';
import type { Source } from './source.js';

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
    const escapes = readingOf(source, at, end, kinds, python);
    if (escapes === 'python' && (kinds & PYTHON_ONLY) !== 0) rules.push('python-escape');
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
