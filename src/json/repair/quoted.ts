/**
 * Quoted strings of a syntax repair: JSON's double-quoted strings, and single-quoted and
 * typographic-quoted ones converted exactly (JSON's escapes plus `\'`). Each is returned as its
 * JSON spelling, the text it becomes, so a string that needs no rewriting is never decoded. A
 * text that ends inside a string or an escape is cut off; any other problem is refused.
 */
import type { Source } from './source.js';

/** A string token read: where it ends (past the closing quote) and its JSON spelling. */
export interface QuotedString {
  readonly end: number;
  /** The token as strict JSON: the input's own text when it was double-quoted already. */
  readonly json: string;
  /** True when it was not written with JSON's double quotes and must be rewritten. */
  readonly requoted: boolean;
}

const STRING = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
/** A well-formed single-quoted string: JSON's escapes and `\'`, no control character. */
const SINGLE = /'[^'\\\u0000-\u001f]*(?:\\(?:['"\\/bfnrt]|u[0-9a-fA-F]{4})[^'\\\u0000-\u001f]*)*'/y;
/** A single-quoted string with no escape and no double quote: its content is its JSON content. */
const PLAIN_SINGLE = /'[^'"\\\u0000-\u001f]*'/y;
/** In a well-formed single-quoted string's content: an escape pair, or a bare double quote. */
const ESCAPE_OR_QUOTE = /\\[\s\S]|"/g;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX_PREFIX = /^[0-9a-fA-F]{0,3}$/;

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

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', "'": "'", '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
};

/** True when a string token opens with the character at `at`. */
export function opensString(body: string, at: number): boolean {
  const code = body.charCodeAt(at);
  return code === 0x22 || code === 0x27 || code === 0x201c || code === 0x2018;
}

/** Reads the string token whose opening quote is at `at`. */
export function readQuoted(source: Source, at: number): QuotedString {
  const body = source.body;
  const open = body.charCodeAt(at);
  if (open === 0x22) {
    STRING.lastIndex = at;
    if (STRING.test(body)) return { end: STRING.lastIndex, json: body.slice(at, STRING.lastIndex), requoted: false };
  } else if (open === 0x27) {
    PLAIN_SINGLE.lastIndex = at;
    if (PLAIN_SINGLE.test(body)) {
      const end = PLAIN_SINGLE.lastIndex;
      return { end, json: `"${body.slice(at + 1, end - 1)}"`, requoted: true };
    }
    SINGLE.lastIndex = at;
    if (SINGLE.test(body)) {
      const end = SINGLE.lastIndex;
      return { end, json: `"${doubleQuoted(body.slice(at + 1, end - 1))}"`, requoted: true };
    }
  }
  return readSlowly(source, at);
}

/**
 * The content of a well-formed single-quoted string as double-quoted JSON content: `\'` becomes
 * `'`, a bare `"` becomes `\"`, every other escape is kept as written. Each backslash in such
 * content opens an escape pair, so matching pairs from the left never splits one.
 */
function doubleQuoted(content: string): string {
  // Without `\'` and `\"` in it, every double quote is a bare one.
  if (content.indexOf("\\'") === -1 && content.indexOf('\\"') === -1) {
    return content.indexOf('"') === -1 ? content : content.replaceAll('"', '\\"');
  }
  return content.replace(ESCAPE_OR_QUOTE, (match) => (match === '"' ? '\\"' : match === "\\'" ? "'" : match));
}

/**
 * Reads a string token character run by character run, decoding it: typographic quotes, and any
 * string the patterns above refused, so a problem is named exactly where it is.
 */
function readSlowly(source: Source, at: number): QuotedString {
  const body = source.body;
  const close = CLOSING[body[at]!]!;
  const plain = PLAIN_RUN[close]!;
  let value = '';
  let run = at + 1;
  for (let i = at + 1; ; ) {
    plain.lastIndex = i;
    plain.test(body);
    i = plain.lastIndex;
    if (i >= body.length) source.cut(i, 'the text ends inside a string');
    const char = body[i]!;
    if (char === close) return { end: i + 1, json: JSON.stringify(value + body.slice(run, i)), requoted: true };
    const code = char.charCodeAt(0);
    if (code < 0x20) source.fail(i, `Invalid character U+${code.toString(16).padStart(4, '0').toUpperCase()} in a string`);
    value += body.slice(run, i);
    const next = body[i + 1];
    if (next === undefined) source.cut(i, 'the text ends inside an escape');
    if (next === 'u') {
      const hex = body.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) {
        if (i + 2 + hex.length >= body.length && HEX_PREFIX.test(hex)) source.cut(i, 'the text ends inside an escape');
        source.fail(i, 'Invalid escape in a string');
      }
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      const decoded = ESCAPES[next];
      // `\'` belongs to single-quoted strings; JSON's double-quoted ones never had it.
      if (decoded === undefined || (next === "'" && close === '"')) source.fail(i, 'Invalid escape in a string');
      value += decoded;
      i += 2;
    }
    run = i;
  }
}
