/**
 * Quoted strings of a syntax repair: JSON's double-quoted strings, and single-quoted and
 * typographic-quoted ones decoded exactly (JSON's escapes plus `\'`). A text that ends inside a
 * string or an escape is cut off; any other problem is refused.
 */
import { decodeString } from '../scanner.js';
import type { Source } from './source.js';

/** A string token read: where it ends (past the closing quote) and its value. */
export interface QuotedString {
  readonly end: number;
  readonly value: string;
  /** True when it was not written with JSON's double quotes and must be rewritten. */
  readonly requoted: boolean;
  /** True when the value holds nothing JSON must escape, so `"value"` is its JSON text. */
  readonly simple?: boolean;
}

const STRING = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
/** A single-quoted string with no escape, double quote or control character. */
const SIMPLE_SINGLE = /'[^'"\\\u0000-\u001f]*'/y;
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
  return CLOSING[body[at]!] !== undefined;
}

/** Reads the string token whose opening quote is at `at`. */
export function readQuoted(source: Source, at: number): QuotedString {
  const body = source.body;
  if (body.charCodeAt(at) === 0x22) {
    STRING.lastIndex = at;
    if (STRING.test(body)) return { end: STRING.lastIndex, value: decodeString(body, at, STRING.lastIndex), requoted: false };
  }
  SIMPLE_SINGLE.lastIndex = at;
  if (SIMPLE_SINGLE.test(body)) {
    const end = SIMPLE_SINGLE.lastIndex;
    return { end, value: body.slice(at + 1, end - 1), requoted: true, simple: true };
  }
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
    if (char === close) return { end: i + 1, value: value + body.slice(run, i), requoted: close !== '"' };
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
