/**
 * The quoted-string reader (`src/json/tolerant/quoted.ts`) through the public entry points: where a
 * refused escape is named (the backslash that opens it, not the first escape of the string), the
 * escapes at the edges of each reading, the quotes of a single-quoted string, and what the
 * characters around a string do not change.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

const schema = { type: 'object' };

function refusal(text: string): { position: number | undefined; truncated: boolean | undefined; reason: string | undefined } {
  const call = prepareToolCall(text, schema, { lenient: true });
  expect(call.ok).toBe(false);
  return { position: call.parseError?.position, truncated: call.parseError?.truncated, reason: call.parseError?.reason };
}

function repaired(text: string): { json: string; rules: string[] } {
  const call = prepareToolCall(text, schema, { lenient: true });
  expect(call.ok).toBe(true);
  expect(coerceArgsJson(text, schema, { lenient: true })).toBe(call.json);
  return { json: call.json, rules: call.changes.map((change) => change.rule) };
}

describe('a refused escape is named at its own backslash, after an escape that is fine', () => {
  // In each text, `\n` at position 8 is an escape both readings know; the refused one starts at 11.
  test.each([
    ['a \\N{…} escape in JSON text', String.raw`{"a": "x\ny\N{EM DASH}"}`, 'no name table is shipped'],
    ['a \\N{…} escape in a Python literal', String.raw`{'a': 'x\ny\N{EM DASH}'}`, 'no name table is shipped'],
    ['a backslash before a character past ASCII', '{"a": "x\\ny\\\u00e9"}', 'a backslash before a raw control character or a character past ASCII'],
    ['\\/ in a Python literal', String.raw`{'a': 'x\ny\/z'}`, '\\/ is "/" in JSON but a backslash and a slash in Python'],
    ['\\x with one hex digit in a Python literal', String.raw`{'a': 'x\ny\x4z'}`, 'Python reads no character from it'],
    ['a Python escape in JSON text', String.raw`{"a": "x\ny\x41"}`, 'a Python escape in a text that is not a Python literal'],
  ])('%s', (_name, text, reason) => {
    const error = refusal(text);
    expect(text.slice(8, 10)).toBe('\\n');
    expect(text[11]).toBe('\\');
    expect(error.position).toBe(11);
    expect(error.truncated).toBe(false);
    expect(error.reason).toContain(reason);
  });

  test('a string mixing escapes with backslashes that open none is named at its first escape of the lowest kind', () => {
    // `\q` opens nothing, `\/` is JSON's only, `\n` (position 14) is one both readings know.
    const text = String.raw`{"p": "ab\q\/c\n"}`;
    expect(refusal(text)).toEqual({ position: 14, truncated: false, reason: expect.stringContaining('a string mixes escapes with backslashes that open none') });
    expect(refusal(String.raw`{"p": "ab\n\q"}`).position).toBe(9);
  });
});

describe('backslashes read as written', () => {
  test.each([
    ['before a name starting with N (no \\N{…})', String.raw`{"p": "C:\Notes"}`, String.raw`{"p": "C:\\Notes"}`],
    ['before a space, as a shell escapes it', String.raw`{"path": "/home/me/My\ Documents"}`, String.raw`{"path": "/home/me/My\\ Documents"}`],
    ['before a tilde, the last ASCII character but one', String.raw`{"p": "C:\~cache"}`, String.raw`{"p": "C:\\~cache"}`],
  ])('%s', (_name, input, output) => {
    expect(repaired(input)).toEqual({ json: output, rules: ['literal-backslash'] });
  });

  test('a raw tab before or after the string is layout, not a control character of the string', () => {
    expect(repaired('{"p":\t"C:\\Dev"}')).toEqual({ json: '{"p":\t"C:\\\\Dev"}', rules: ['literal-backslash'] });
    expect(repaired('{"p": "C:\\Dev"\t}')).toEqual({ json: '{"p": "C:\\\\Dev"\t}', rules: ['literal-backslash'] });
  });
});

describe('strings JSON reads as they are stay as written', () => {
  test('\\/ in a double-quoted string of a text repaired for another reason', () => {
    expect(repaired('{"url": "a\\/b",}')).toEqual({ json: '{"url": "a\\/b"}', rules: ['trailing-comma'] });
  });
});

describe("a single-quoted string's escaped quotes", () => {
  test.each([
    ["\\' right after the first character", "{'q': 'I\\'m'}", '{"q": "I\'m"}'],
    ['\\" right after the first character', "{'q': 'a\\\"b'}", '{"q": "a\\"b"}'],
  ])('%s', (_name, input, output) => {
    expect(repaired(input)).toEqual({ json: output, rules: ['quotes'] });
  });
});

describe('a text cut off right after a whole escape is cut off inside the string', () => {
  test('\\u0041 and the end', () => {
    expect(refusal('{"a": "\\u0041')).toEqual({ position: 13, truncated: true, reason: 'the text ends inside a string' });
  });

  test('\\u00 and the end: inside the escape', () => {
    expect(refusal('{"a": "\\u00')).toEqual({ position: 7, truncated: true, reason: 'the text ends inside an escape' });
  });
});

describe('the words of a refused escape', () => {
  test('a refusal that is not of a Python escape starts with the escape as written, no preamble', () => {
    expect(refusal('{"name": "caf\\u00e"}').reason).toBe(
      '`\\u00e` is a broken escape: with 3 of its 4 hex digits (a character lost, or a backslash meant as written?): refused. Write the character itself, or \\\\ for a backslash meant as written',
    );
  });
});
