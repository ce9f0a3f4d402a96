import { describe, expect, test } from 'vitest';
import { ArgsParseError, LosslessNumber, isLosslessNumber, parseArgs, stringifyArgs } from '../src/index.js';

describe('parseArgs / stringifyArgs', () => {
  test.each(['5', '5.0', '1e3', '-0.0', '1234567890123456789012345', '0.1000000000000000055511151231257827'])(
    'the literal %s survives a round trip as spelled',
    (literal) => {
      const value = parseArgs(`{"n":${literal}}`) as { n: LosslessNumber };
      expect(isLosslessNumber(value.n)).toBe(true);
      expect(value.n.value).toBe(literal);
      expect(stringifyArgs(value)).toBe(`{"n":${literal}}`);
    },
  );

  test('a key named __proto__ is kept as own data and changes no prototype', () => {
    const value = parseArgs('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(stringifyArgs(value)).toBe('{"__proto__":{"polluted":1}}');
  });

  test('bigints are written as digits and plain numbers as JSON.stringify does', () => {
    expect(stringifyArgs({ a: 12345678901234567890n, b: 1.5, c: 5 })).toBe('{"a":12345678901234567890,"b":1.5,"c":5}');
  });

  test('undefined at the top level is written as null', () => {
    expect(stringifyArgs(undefined)).toBe('null');
  });
});

describe('ArgsParseError', () => {
  test.each([
    ['{"line": 5.0,}', 1, 14, 13],
    ['{\n  "a": 1,\n  "b": }', 3, 8, 19],
    ['', undefined, undefined, undefined],
    ['[1, 2', 1, 6, 5],
    ['{"a":1} x', 1, 9, 8],
  ])('%j is refused with its position', (text, line, column, position) => {
    let error: unknown;
    try {
      parseArgs(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ArgsParseError);
    expect(error).toBeInstanceOf(SyntaxError);
    const parseError = error as ArgsParseError;
    expect(parseError.message).toMatch(/^\[schema-coerce\] invalid JSON/);
    if (position !== undefined) expect(parseError).toMatchObject({ line, column, position });
  });

  test('text that is not a string is refused with a typed error', () => {
    expect(() => parseArgs(42 as unknown as string)).toThrow(ArgsParseError);
    expect(() => parseArgs(42 as unknown as string)).toThrow('expected a string, got number');
  });

  test('duplicate keys with different values are refused (servers disagree on which wins)', () => {
    expect(() => parseArgs('{"a":1,"a":2}')).toThrow(/position 8\): Duplicate key 'a'/);
    expect(stringifyArgs(parseArgs('{"a":1,"a":1}'))).toBe('{"a":1}');
  });
});
