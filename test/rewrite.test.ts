import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';

const INT = { type: 'integer' };
const ANY_DEPTH = { anyOf: [INT, { type: 'array', items: { $ref: '#' } }, { type: 'object', additionalProperties: { $ref: '#' } }] };

describe('coerceArgsJson text path', () => {
  test('copies every untouched byte, white space included, and rewrites only the literals', () => {
    const text = '{ "line" : 5.0 ,\n\t"ratio": 1.0, "ids": [ 1.0 , 2e0 ], "s": "5.0" }';
    const schema = { properties: { line: INT, ratio: { type: 'number' }, ids: { items: INT }, s: INT } };
    expect(coerceArgsJson(text, schema)).toBe('{ "line" : 5 ,\n\t"ratio": 1.0, "ids": [ 1 , 2 ], "s": "5.0" }');
  });

  test('returns the input string itself when nothing changes', () => {
    const text = ' { "line" : 5 } ';
    expect(coerceArgsJson(text, { properties: { line: INT } })).toBe(text);
    expect(coerceArgsJson(text, { properties: { other: { type: 'string' } } })).toBe(text);
    expect(coerceArgsJson(text, undefined)).toBe(text);
  });

  test('output of any length is exact: long untouched spans, dense rewrites, and text in two-byte characters', () => {
    // Long spans become leaves of their own, dense rewrites fill chunks of pieces: every way the
    // output is cut up must join back to the same characters.
    const long = 'ä'.repeat(40_000);
    const items = Array.from({ length: 12_000 }, (_, i) => i);
    const text = `{"a":1.0,"s":"${long}","b":2.0,"ids":[${items.map((i) => `${i}.0`).join(',')}],"t":"${long}x"}`;
    const schema = { properties: { a: INT, b: INT, ids: { items: INT } } };
    expect(coerceArgsJson(text, schema)).toBe(`{"a":1,"s":"${long}","b":2,"ids":[${items.join(',')}],"t":"${long}x"}`);
    expect(coerceArgsJson(`{"s":"${long}","a":3.0}`, schema)).toBe(`{"s":"${long}","a":3}`);
  });

  test('escaped keys are decoded before the schema is asked', () => {
    expect(coerceArgsJson('{"\\u006cine":5.0,"a\\"b":1.0}', { properties: { line: INT, 'a"b': INT } })).toBe('{"\\u006cine":5,"a\\"b":1}');
  });

  test('keys named like Object.prototype members are looked up as own properties', () => {
    const schema: unknown = JSON.parse('{"properties":{"__proto__":{"type":"integer"},"constructor":{"type":"integer"}}}');
    expect(coerceArgsJson('{"__proto__":1.0,"constructor":2.0,"toString":3.0}', schema)).toBe('{"__proto__":1,"constructor":2,"toString":3.0}');
  });

  test.each([
    '', ' ', '{', '}', '[1,]', '[,1]', '{"a":}', '{"a" 1}', '{a:1}', '{"a":1,}', '{,}', '01', '1.', '.5', '+1', '-', '1e', '1e+',
    '"\u0001"', '"\\x"', '"\\u12"', '"abc', 'tru', 'nul', 'falsey', '[1 2]', '{}x', '[]]', '{"a":1}}', 'NaN', 'Infinity',
    "'a'", '\u00a0{}', '\ufeff{}', '[\n', '{"a":[1,{"b":2}]', '"\\', '"a\nb"',
  ])('%j is refused as parseArgs refuses it', (text) => {
    expect(() => parseArgs(text)).toThrow(ArgsParseError);
    expect(() => coerceArgsJson(text, ANY_DEPTH)).toThrow(ArgsParseError);
    expect(() => coerceArgsJson(text, undefined)).toThrow(ArgsParseError);
  });

  test.each([
    '0', '-0', '1e5', '-1.5E-3', 'true', 'false', 'null', '""', '"\\u0000"', '"\\ud800"', '"\ud800"', '"\\/"', ' [ ] ', '{}',
    '[[[]]]', '{"":1.0}', '"😀"', '[1.0,{"a":[2.0,{"b":null}]}]',
  ])('%j is accepted as parseArgs accepts it, with the same value', (text) => {
    const viaText = coerceArgsJson(text, ANY_DEPTH);
    const viaObject = coerceArgs(parseArgs(text), ANY_DEPTH).value;
    expect(stringifyArgs(parseArgs(viaText))).toBe(stringifyArgs(viaObject));
  });

  test('errors name the position of the problem', () => {
    expect(() => coerceArgsJson('{"a": [1, 2,]}', ANY_DEPTH)).toThrow('at line 1 column 13 (position 12)');
    expect(() => coerceArgsJson('{\n  "a": "x\u0001"}', ANY_DEPTH)).toThrow('at line 2 column 10 (position 11): Invalid character U+0001 in a string');
    expect(() => coerceArgsJson('["\\q"]', ANY_DEPTH)).toThrow('(position 2): Invalid escape in a string');
    expect(() => coerceArgsJson('["abc', ANY_DEPTH)).toThrow('Unterminated string');
  });

  test('duplicate keys are decided as the object path decides them', () => {
    const schema = { properties: { a: INT } };
    expect(coerceArgsJson('{"a":5.0,"a":5.0}', schema)).toBe('{"a":5}');
    expect(() => coerceArgsJson('{"a":5.0,"a":6.0}', schema)).toThrow(/Duplicate key 'a'/);
    expect(() => coerceArgsJson('{"a":1,"\\u0061":2}', undefined)).toThrow(/Duplicate key 'a'/);
  });

  describe('values where nothing is to be rewritten sit beside a rewrite', () => {
    // Each row holds one literal to restore, next to a value of a kind the pass must walk past.
    const schema = { properties: { n: INT, either: { type: ['integer', 'string'] }, meta: {}, list: {}, flag: {} } };
    const ROWS: readonly [name: string, input: string, expected: string][] = [
      ['an object where nothing is declared', '{"meta": {"x": 1.0, "y": [2.0]}, "n": 5.0}', '{"meta": {"x": 1.0, "y": [2.0]}, "n": 5}'],
      ['an array where nothing is declared', '{"list": [1.0, {"z": 2.0}], "n": 5.0}', '{"list": [1.0, {"z": 2.0}], "n": 5}'],
      ['literals where nothing is declared', '{"flag": true, "meta": null, "list": false, "n": 5.0}', '{"flag": true, "meta": null, "list": false, "n": 5}'],
      ['a string where an integer or a string is accepted', '{"either": "x", "n": 5.0}', '{"either": "x", "n": 5}'],
      ['a string where only an integer is accepted', '{"n": "5.0", "either": 7.0}', '{"n": "5.0", "either": 7}'],
    ];
    test.each(ROWS)('%s', (_name, input, expected) => {
      expect(coerceArgsJson(input, schema)).toBe(expected);
    });
  });

  test('sibling objects with few keys each keep their own keys apart', () => {
    const schema = { type: 'array', items: { additionalProperties: INT } };
    const text = '[{ "a": 1.0, "b": 2.0 }, { "x": 1.0, "b": 2.0 }, { "b": 3.0 }]';
    expect(coerceArgsJson(text, schema)).toBe('[{ "a": 1, "b": 2 }, { "x": 1, "b": 2 }, { "b": 3 }]');
  });

  describe('repeated keys in objects past the linear check (more than 16 keys)', () => {
    const schema = { type: 'array', items: { additionalProperties: INT } };
    const object = (keys: readonly string[]): string => `{ ${keys.map((key) => `"${key}": 1.0`).join(', ')} }`;
    const names = (count: number): string[] => Array.from({ length: count }, (_, i) => `k${i}`);

    test('objects side by side each start their own key set', () => {
      const text = `[${object(names(20))}, ${object(names(20))}]`;
      expect(coerceArgsJson(text, schema)).toBe(text.replaceAll('1.0', '1'));
    });

    test('a key another object held at a later place is no repeat here', () => {
      const text = `[${object(names(20))}, ${object([...names(17), 'k18'])}]`;
      expect(coerceArgsJson(text, schema)).toBe(text.replaceAll('1.0', '1'));
    });

    test('a key repeated after the 16th is found, whichever key it repeats', () => {
      for (const repeated of ['k0', 'k15', 'k16']) {
        const keys = [...names(17), repeated];
        expect(coerceArgsJson(`[${object(keys)}]`, schema)).toBe(`[{${names(17).map((key) => `"${key}":1`).join(',')}}]`);
        const differing = `[${object(keys).replace(/1\.0 }$/, '2.0 }')}]`;
        expect(() => coerceArgsJson(differing, schema)).toThrow(`Duplicate key '${repeated}'`);
      }
    });
  });

  test('100,000 levels of nesting: no stack overflow, the innermost literal restored', () => {
    const depth = 100_000;
    const text = '['.repeat(depth) + '7.0' + ']'.repeat(depth);
    expect(coerceArgsJson(text, ANY_DEPTH)).toBe('['.repeat(depth) + '7' + ']'.repeat(depth));
    const objects = '{"a":'.repeat(depth) + '7.0' + '}'.repeat(depth);
    expect(coerceArgsJson(objects, ANY_DEPTH)).toBe('{"a":'.repeat(depth) + '7' + '}'.repeat(depth));
    expect(coerceArgsJson(text, undefined)).toBe(text);
    expect(() => coerceArgsJson('['.repeat(depth), ANY_DEPTH)).toThrow(ArgsParseError);
  });

  test('text that is not a string is refused with a typed error', () => {
    expect(() => coerceArgsJson(undefined as unknown as string, ANY_DEPTH)).toThrow(ArgsParseError);
  });
});
