/**
 * The lossless layer's edges, each checked by its observable answer: what a non-string is called
 * in the error, when syntax repair is asked and what it may do, repeated keys whose values are
 * containers, and `toPlainNumbers` / `mapLosslessNumbers` (copies only on the path to a number,
 * cycles kept, the input untouched).
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, LosslessNumber, parseArgs, stringifyArgs, toPlainNumbers } from '../src/index.js';
import { mapLosslessNumbers, parseRepaired, type AllowedRepairs } from '../src/json/lossless.js';
import { deepFreeze } from './_helpers/fixtures.js';

const ALLOW_ALL: AllowedRepairs = { blankAsObject: true, unwrapObjectText: true };
const NO_BLANK: AllowedRepairs = { blankAsObject: false, unwrapObjectText: true };
const NO_UNWRAP: AllowedRepairs = { blankAsObject: true, unwrapObjectText: false };

describe('parseArgs: what it refuses, and how it names it', () => {
  test.each([
    [null, 'expected a string, got null'],
    [[], 'expected a string, got an array'],
    [{}, 'expected a string, got object'],
    [undefined, 'expected a string, got undefined'],
    [true, 'expected a string, got boolean'],
  ])('%j', (value, message) => {
    expect(() => parseArgs(value as unknown as string)).toThrow(ArgsParseError);
    expect(() => parseArgs(value as unknown as string)).toThrow(message);
  });

  test('repair is off unless asked for with repair: true', () => {
    for (const options of [undefined, {}, { repair: false }]) expect(() => parseArgs("{'a': 1}", options)).toThrow(ArgsParseError);
    expect(stringifyArgs(parseArgs("{'a': 1.0}", { repair: true }))).toBe('{"a":1.0}');
    expect(parseArgs('', { repair: true })).toEqual({});
  });

  test.each([
    ['{"a":[1,2],"a":[1,3]}', 'arrays that differ'],
    ['{"a":{"b":[1]},"a":{"b":[1,1]}}', 'objects that differ inside'],
    ['{"a":[1],"a":{"0":1}}', 'an array and an object with the same entries'],
    ['{"a":{"x":{"y":1},"x":{"y":1}},"a":{"x":{"y":2}}}', 'a repeat inside a repeat'],
    ['{"a":[],"a":null}', 'a container and a scalar'],
    ['{"a":"1","a":1}', 'a string and a number'],
  ])('a repeated key with %s is refused (%s)', (text) => {
    expect(() => parseArgs(text)).toThrow(/Duplicate key 'a'/);
  });

  test.each([
    ['{"a":[1,{"b":2}],"a":[1,{"b":2}]}', '{"a":[1,{"b":2}]}'],
    ['[{"a":{},"a":{}},{"a":[],"a":[]}]', '[{"a":{}},{"a":[]}]'],
    ['{"a":{"x":{"y":1},"x":{"y":1}},"a":{"x":{"y":1}}}', '{"a":{"x":{"y":1}}}'],
  ])('equal repeats collapse: %s', (text, expected) => {
    expect(stringifyArgs(parseArgs(text))).toBe(expected);
  });

  test('repeats compare objects inside arrays whatever their key order', () => {
    expect(stringifyArgs(parseArgs('{"a":[{"x":1,"y":2}],"a":[{"y":2,"x":1}]}'))).toBe('{"a":[{"x":1,"y":2}]}');
    expect(() => parseArgs('{"a":[{"x":1,"y":2}],"a":[{"y":2,"x":3}]}')).toThrow(/Duplicate key 'a'/);
  });

  test.each([
    ['{"x":1}', '{"x":1,"y":2}'],
    ['{"x":1,"y":2}', '{"x":1}'],
    ['{"x":1}', '{"y":1}'],
    ['{"x":1,"y":2}', '{"x":1,"z":2}'],
    ['[1]', '[1,1]'],
    ['[1,1]', '[1]'],
    ['{}', '[]'],
    ['[]', '{}'],
    ['{}', 'null'],
    ['null', '{}'],
    ['1', '[1]'],
    ['1', '"1"'],
    ['"1"', '1'],
    ['1', '1.0'],
    ['"x"', '"y"'],
    ['null', 'false'],
    ['true', 'false'],
    ['{"__proto__":1}', '{"__proto__":2}'],
    ['{"__proto__":1}', '{"x":1}'],
    ['{"__proto__":{}}', '{"x":{}}'],
  ])('repeated values %s and %s differ', (first, second) => {
    expect(() => parseArgs(`{"a":${first},"a":${second}}`)).toThrow(/Duplicate key 'a'/);
  });

  test.each([['{"x":1,"y":[2,{"z":null}]}', '{"y":[2,{"z":null}],"x":1}'], ['{"__proto__":{"p":"q"}}', '{"__proto__":{"p":"q"}}'], ['""', '""'], ['-0.0', '-0.0'], ['[]', '[]'], ['{}', '{}']])(
    'repeated values %s and %s are equal',
    (first, second) => {
      expect(stringifyArgs(parseArgs(`{"a":${first},"a":${second}}`))).toBe(`{"a":${stringifyArgs(parseArgs(first))}}`);
    },
  );

  test('repeats nested deeper than the stack are compared too: equal ones collapse, different ones are refused', () => {
    const deep = (leaf: string) => `${'['.repeat(20_000)}${leaf}${']'.repeat(20_000)}`;
    expect(stringifyArgs(parseArgs(`{"a":${deep('1')},"a":${deep('1')}}`))).toBe(`{"a":${deep('1')}}`);
    expect(() => parseArgs(`{"a":${deep('1')},"a":${deep('2')}}`)).toThrow(/Duplicate key 'a'/);
    expect(() => parseArgs(`{"a":${deep('1')},"a":${deep('1.0')}}`)).toThrow(/Duplicate key 'a'/);
  });
});

describe('parseRepaired', () => {
  test('valid JSON is parsed once, with no changes, and allowed() is not asked', () => {
    let asked = 0;
    const result = parseRepaired('{"a":5.0}', () => (asked++, ALLOW_ALL));
    expect(stringifyArgs(result.value)).toBe('{"a":5.0}');
    expect(result).toMatchObject({ text: '{"a":5.0}', changes: [] });
    expect(asked).toBe(0);
  });

  test('broken text is repaired, and the repair is reported', () => {
    const result = parseRepaired("{'a': 5.0,}", () => ALLOW_ALL);
    expect(result.text).toBe('{"a": 5.0}');
    expect(stringifyArgs(result.value)).toBe('{"a":5.0}');
    expect(result.changes.length).toBeGreaterThan(0);
  });

  test('blank text is {} only when allowed; else the strict error is thrown', () => {
    expect(parseRepaired('  ', () => ALLOW_ALL)).toMatchObject({ value: {}, text: '{}' });
    expect(() => parseRepaired('  ', () => NO_BLANK)).toThrow(ArgsParseError);
    expect(parseRepaired("{'a':1}", () => NO_BLANK).text).toBe('{"a":1}');
  });

  test('blank text inside a code fence or after a BOM is blank too: {} only when allowed', () => {
    for (const text of ['```json\n```', '```\n  \n```', '\uFEFF ']) {
      expect(parseRepaired(text, () => ALLOW_ALL)).toMatchObject({ value: {}, text: '{}' });
      expect(() => parseRepaired(text, () => NO_BLANK)).toThrow(ArgsParseError);
    }
  });

  test('a string holding an object is unwrapped only when allowed', () => {
    const text = JSON.stringify('{"a":1}');
    expect(parseRepaired(text, () => ALLOW_ALL)).toMatchObject({ text: '{"a":1}' });
    expect(stringifyArgs(parseRepaired(text, () => ALLOW_ALL).value)).toBe('{"a":1}');
    expect(parseRepaired(text, () => NO_UNWRAP)).toEqual({ value: '{"a":1}', text, changes: [] });
    expect(parseRepaired('"plain"', () => ALLOW_ALL)).toEqual({ value: 'plain', text: '"plain"', changes: [] });
  });

  test('text nothing repairs throws its strict error', () => {
    expect(() => parseRepaired('{"a":', () => ALLOW_ALL)).toThrow(ArgsParseError);
  });

  test('a strict error handed in is the one thrown when nothing repairs, and the text is not read strictly again', () => {
    const handed = new ArgsParseError('handed in');
    expect(() => parseRepaired('{"a":1}', () => ALLOW_ALL, handed)).toThrow(handed);
    expect(parseRepaired("{'a':1}", () => ALLOW_ALL, handed).text).toBe('{"a":1}');
  });
});

describe('toPlainNumbers and mapLosslessNumbers', () => {
  test('lossless numbers become plain numbers; the rest is kept, the input untouched', () => {
    const input = deepFreeze(parseArgs('{"a":[1.0,"x",null,{"b":2.5}],"c":true,"d":{"e":"f"}}')) as Record<string, unknown>;
    const plain = toPlainNumbers(input) as Record<string, unknown>;
    expect(plain).toEqual({ a: [1, 'x', null, { b: 2.5 }], c: true, d: { e: 'f' } });
    expect(plain).not.toBe(input);
    expect(plain['d']).toBe(input['d']);
    expect(input['a']).toEqual([new LosslessNumber('1.0'), 'x', null, { b: new LosslessNumber('2.5') }]);
  });

  test('a value with no lossless number is the same reference', () => {
    const value = deepFreeze({ a: [1, 'x', { b: null }], c: 2 });
    expect(toPlainNumbers(value)).toBe(value);
    expect(toPlainNumbers(7)).toBe(7);
    expect(toPlainNumbers(new LosslessNumber('12'))).toBe(12);
  });

  test('a cyclic value is kept as it is, its numbers converted on the way', () => {
    const cyclic: Record<string, unknown> = { n: new LosslessNumber('3') };
    cyclic['self'] = cyclic;
    const plain = toPlainNumbers(cyclic) as Record<string, unknown>;
    expect(plain['n']).toBe(3);
    expect(plain['self']).toBe(cyclic);
    const list: unknown[] = [];
    list.push(list, { n: new LosslessNumber('4') });
    const mapped = toPlainNumbers(list) as unknown[];
    expect(mapped[0]).toBe(list);
    expect(mapped[1]).toEqual({ n: 4 });
  });

  test('mapLosslessNumbers hands each literal to the conversion', () => {
    const seen: string[] = [];
    const value = parseArgs('[1.50,{"a":-0.0},[7e2]]');
    const mapped = mapLosslessNumbers(value, (literal) => (seen.push(literal), `#${literal}`));
    expect(mapped).toEqual(['#1.50', { a: '#-0.0' }, ['#7e2']]);
    expect(seen).toEqual(['1.50', '-0.0', '7e2']);
  });
});

describe('stringifyArgs: toJSON', () => {
  test('is handed the key it is written under, as JSON.stringify hands it: "" at the top level', () => {
    const keyed = { toJSON: (key: string) => `key:${key}` };
    for (const sample of [keyed, [keyed, keyed], { k: keyed }, { toJSON: (key: string) => [key] }]) {
      expect(stringifyArgs(sample)).toBe(JSON.stringify(sample));
    }
    expect(stringifyArgs(keyed)).toBe('"key:"');
  });
});
