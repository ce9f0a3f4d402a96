import { expect, test } from 'vitest';
import { restoreInteger } from '../src/json/numbers.js';
import { coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';

// [literal, int64 result]: the one integer rule, which both the text and the object path apply.
const RULE: [string, string][] = [
  ['5.0', '5'],
  ['-42.00', '-42'],
  ['5.05', 'not-whole'],
  ['5.001', 'not-whole'],
  ['5.0000000001', 'not-whole'],
  ['-0.0', '0'],
  ['0.0', '0'],
  ['5e0', '5'],
  ['0.5e1', '5'],
  ['1E3', '1000'],
  ['5', '5'],
  ['12345678901234567890', '12345678901234567890'],
  ['1234567890123456.0', '1234567890123456'],
  ['12345678901234567890.0', 'out-of-range'],
  ['1e20', 'out-of-range'],
  ['1e-1', 'not-whole'],
];

test.each(RULE)('restoreInteger(%s) is %s', (literal, expected) => {
  expect(restoreInteger(literal, 'int64')).toBe(expected);
});

test('a literal that needs no change comes back as the very same string', () => {
  const literal = '12345678901234567890';
  expect(restoreInteger(literal, 'int64')).toBe(literal);
});

test.each(RULE)('the text path and the object path agree on %s', (literal) => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } } };
  const text = `{"n":${literal}}`;
  const expected = restoreInteger(literal, 'int64');
  const written = expected === 'not-whole' || expected === 'out-of-range' ? text : `{"n":${expected}}`;
  expect(coerceArgsJson(text, schema)).toBe(written);
  expect(stringifyArgs(coerceArgs(parseArgs(text), schema).value)).toBe(written);
});
