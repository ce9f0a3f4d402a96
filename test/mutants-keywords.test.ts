/**
 * The keyword tables' type helpers asked directly: type names of a mask (number covering
 * integer), the mask of a `type` value (names, arrays, malformed entries), the type bit of a
 * value (lossless numbers by their literal, what is not JSON never judged), and `declaresInteger`.
 */
import { describe, expect, test } from 'vitest';
import { LosslessNumber, coerceArgs, parseArgs, stringifyArgs } from '../src/index.js';
import { ALL_TYPES, TYPE_BITS, accepts, declaresInteger, typeBitsOf, typeMaskOf, typeNames } from '../src/schema/keywords.js';

const { null: NULL, boolean: BOOLEAN, integer: INTEGER, number: NUMBER, string: STRING, array: ARRAY, object: OBJECT } = TYPE_BITS;

describe('typeNames', () => {
  test.each([
    [0, []], [INTEGER, ['integer']], [NUMBER, ['number']], [INTEGER | NUMBER, ['number']], [NULL | INTEGER, ['null', 'integer']],
    [ALL_TYPES, ['null', 'boolean', 'number', 'string', 'array', 'object']], [OBJECT | ARRAY | STRING | BOOLEAN, ['boolean', 'string', 'array', 'object']],
  ])('%d: %j', (mask, names) => {
    expect(typeNames(mask)).toEqual(names);
  });
});

describe('typeMaskOf', () => {
  test.each([
    ['integer', INTEGER], ['number', INTEGER | NUMBER], ['object', OBJECT], ['nothing', 0], ['constructor', 0], ['__proto__', 0],
    [['string', 'null'], STRING | NULL], [['number', 5, 'bogus'], INTEGER | NUMBER], [[], 0], [undefined, 0], [5, 0], [{ integer: true }, 0],
  ])('%j: %d', (type, mask) => {
    expect(typeMaskOf(type)).toBe(mask);
  });
});

describe('typeBitsOf and accepts', () => {
  test.each([
    ['a string', 'x', STRING], ['true', true, BOOLEAN], ['5', 5, INTEGER], ['5.5', 5.5, NUMBER], ['a bigint', 5n, INTEGER], ['null', null, NULL],
    ['an array', [], ARRAY], ['an object', {}, OBJECT], ['a null-prototype object', Object.create(null), OBJECT],
    ['a lossless 5.0', new LosslessNumber('5.0'), INTEGER], ['a lossless 5.5', new LosslessNumber('5.5'), NUMBER],
    ['a Date', new Date(0), ALL_TYPES], ['undefined', undefined, ALL_TYPES], ['a function', () => 1, ALL_TYPES], ['a symbol', Symbol('s'), ALL_TYPES],
  ])('%s', (_name, value, bits) => {
    expect(typeBitsOf(value)).toBe(bits);
  });

  test('accepts: every type when the mask is all of them, else the value\'s bit', () => {
    expect([accepts(ALL_TYPES, new Date(0)), accepts(STRING, new Date(0)), accepts(STRING, 'x'), accepts(INTEGER, 5.5), accepts(INTEGER | NUMBER, 5.5), accepts(0, 'x')]).toEqual([
      true, true, true, false, true, false,
    ]);
  });
});

test('declaresInteger: "integer" alone or among names; "number" does not count', () => {
  expect([declaresInteger('integer'), declaresInteger(['null', 'integer']), declaresInteger('number'), declaresInteger(['number']), declaresInteger(undefined), declaresInteger({ 0: 'integer' })]).toEqual([
    true, true, false, false, false, false,
  ]);
});

test('a type named like an inherited property is no type: the position is unconstrained, as for any unknown name', () => {
  for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const result = coerceArgs(parseArgs('{"a":"5","n":5.0}'), { properties: { a: { type }, n: { type: 'integer' } } }, { lenient: true });
    expect(stringifyArgs(result.value)).toBe('{"a":"5","n":5}');
    expect(result.refusals).toEqual([]);
  }
});
