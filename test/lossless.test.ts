import { describe, expect, test } from 'vitest';
import { ArgsCycleError, ArgsParseError, LosslessNumber, SchemaCoerceError, isLosslessNumber, parseArgs, stringifyArgs } from '../src/index.js';

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
    expect(error).toBeInstanceOf(SchemaCoerceError);
    const parseError = error as ArgsParseError;
    expect(parseError.message).toMatch(/^\[schema-coerce\] invalid JSON/);
    if (position !== undefined) expect(parseError).toMatchObject({ line, column, position });
  });

  test('text that is not a string is refused with a typed error', () => {
    expect(() => parseArgs(42 as unknown as string)).toThrow(ArgsParseError);
    expect(() => parseArgs(42 as unknown as string)).toThrow('expected a string, got number');
  });

  test('duplicate keys with different values are refused (servers disagree on which wins)', () => {
    expect(() => parseArgs('{"a":1,"a":2}')).toThrow(/position 7\): Duplicate key 'a'/);
    expect(stringifyArgs(parseArgs('{"a":1,"a":1}'))).toBe('{"a":1}');
  });
});

describe('reading and writing without a call stack', () => {
  test('100,000 levels of nesting are read and written back', () => {
    const depth = 100_000;
    const text = '{"a":['.repeat(depth) + '1.0' + ']}'.repeat(depth);
    expect(stringifyArgs(parseArgs(text))).toBe(text);
  });

  test('a repeated key whose containers are equal collapses; one that differs is refused', () => {
    expect(stringifyArgs(parseArgs('{"a":{"x":[1,{"y":2}]},"a":{"x":[1,{"y":2}]}}'))).toBe('{"a":{"x":[1,{"y":2}]}}');
    expect(stringifyArgs(parseArgs('{"a":{"x":1,"y":2},"a":{"y":2,"x":1}}'))).toBe('{"a":{"x":1,"y":2}}');
    expect(() => parseArgs('{"a":{"x":[1,{"y":2}]},"a":{"x":[1,{"y":3}]}}')).toThrow(/position 23\): Duplicate key 'a'/);
    expect(() => parseArgs('{"a":1.0,"a":1}')).toThrow(/Duplicate key 'a'/);
  });

  test('plain values are written exactly as JSON.stringify writes them', () => {
    const samples: unknown[] = [
      { a: [1, 'x', null, true, { b: undefined, c: () => 1, d: Symbol.for('s') }], e: [undefined, () => 1] },
      { date: new Date(0), nan: NaN, inf: -Infinity, neg: -0, boxed: [new Number(2), new String('s'), new Boolean(false)] },
      { toJSON: () => ({ replaced: true }) },
      { nested: { toJSON: (key: string) => `key:${key}` } },
      'a\u2028b\ud800"\\', [], {}, [[[]]], new Map([['a', 1]]), 1e21, 0.1,
    ];
    for (const sample of samples) expect(stringifyArgs(sample)).toBe(JSON.stringify(sample));
  });

  test('a cyclic value is refused with an ArgsCycleError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = [cyclic];
    expect(() => stringifyArgs(cyclic)).toThrow(ArgsCycleError);
    const shared = { n: 1 };
    expect(stringifyArgs([shared, shared])).toBe('[{"n":1},{"n":1}]');
  });
});

describe('keys read again at the same place', () => {
  test('a key is decoded from its own text, whatever was read at that place before', () => {
    const sequences: [string, string[]][] = [
      ['{"a\\\\\\\\b":1}', ['a\\\\b']],
      ['{"a\\\\b":1}', ['a\\b']],
      ['{"a\\\\b":1}', ['a\\b']],
      ['{"ab":1,"x":2}', ['ab', 'x']],
      ['{"a\\u0062":1,"x":2}', ['ab', 'x']],
      ['{"ab":1,"y":2}', ['ab', 'y']],
      ['{"abc":1}', ['abc']],
      ['{"a":{"ab":1}}', ['a']],
      ['[{"k":1},{"k":2},{"l":3}]', []],
    ];
    for (const [text, keys] of sequences) {
      const value = parseArgs(text);
      if (!Array.isArray(value)) expect(Object.keys(value as object)).toEqual(keys);
      expect(stringifyArgs(value)).toBe(stringifyArgs(JSON.parse(text)));
    }
  });
});
