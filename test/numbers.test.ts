/**
 * Integer restoration against an exact oracle: every literal is read by BigInt decimal arithmetic
 * here, independently of `src/json/numbers.ts`, and the library must agree digit for digit, in the
 * object path, the text path and lenient strings, under every `integerRange`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, stringifyArgs, type IntegerRange } from '../src/index.js';
import { anyLiteralArbitrary } from './_helpers/arbitraries.js';

const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_RUNS'] ?? 500);

type Expected = { literal: string } | { reason: 'not-whole' | 'out-of-range' };

const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MAX = 2n ** 53n - 1n;

/** What restoring `literal` at an integer position must give, by exact decimal arithmetic. */
function oracle(literal: string, range: IntegerRange): Expected {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) throw new Error(`not a JSON number: ${literal}`);
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  let mantissa = BigInt(whole + fraction);
  if (mantissa === 0n) return { literal: '0' };
  let exponent = BigInt(exponentText) - BigInt(fraction.length);
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  if (exponent < 0n) return { reason: 'not-whole' };
  const length = BigInt(mantissa.toString().length) + exponent;
  if (range === 'unbounded') {
    if (length > BigInt(Math.max(4096, literal.length))) return { reason: 'out-of-range' };
    return { literal: sign + mantissa.toString() + '0'.repeat(Number(exponent)) };
  }
  if (length > 40n) return { reason: 'out-of-range' };
  const value = mantissa * 10n ** exponent;
  const fits = range === 'safe' ? value <= SAFE_MAX : sign === '-' ? value <= INT64_MAX + 1n : value <= INT64_MAX;
  return fits ? { literal: sign + value.toString() } : { reason: 'out-of-range' };
}

const CANONICAL = /^(?:0|-?[1-9]\d*)$/;
const INTEGER = { type: 'object', properties: { n: { type: 'integer' } } };
const NUMBER = { type: 'object', properties: { n: { type: 'number' } } };
const range = fc.constantFrom<IntegerRange>('int64', 'safe', 'unbounded');

describe(`integer restoration against a BigInt oracle (seed ${seed}, ${numRuns} runs each)`, () => {
  test('the oracle itself, on hand-checked literals', () => {
    expect(oracle('5.0', 'int64')).toEqual({ literal: '5' });
    expect(oracle('5.05', 'int64')).toEqual({ reason: 'not-whole' });
    expect(oracle('5.10e1', 'int64')).toEqual({ literal: '51' });
    expect(oracle('-0.0', 'int64')).toEqual({ literal: '0' });
    expect(oracle('-9223372036854775808', 'int64')).toEqual({ literal: '-9223372036854775808' });
    expect(oracle('9223372036854775808', 'int64')).toEqual({ reason: 'out-of-range' });
    expect(oracle('1e400', 'unbounded')).toEqual({ literal: '1' + '0'.repeat(400) });
  });

  test('a number literal at an integer position: rewritten exactly when whole and in range, else refused and kept', () => {
    fc.assert(fc.property(anyLiteralArbitrary, range, (literal, integerRange) => {
      // A literal already written as an integer is one, whatever its size: the range bounds rewriting only.
      const expected = CANONICAL.test(literal) ? { literal } : oracle(literal, integerRange);
      const text = `{"n":${literal}}`;
      const args = parseArgs(text);
      const result = coerceArgs(args, INTEGER, { integerRange });
      const viaText = coerceArgsJson(text, INTEGER, { integerRange });
      if ('literal' in expected) {
        expect(viaText).toBe(`{"n":${expected.literal}}`);
        expect(stringifyArgs(result.value)).toBe(`{"n":${expected.literal}}`);
        expect(result.changes).toEqual(expected.literal === literal ? [] : [{ path: '/n', from: literal, to: expected.literal, rule: 'integer-literal' }]);
        expect(result.refusals).toEqual([]);
      } else {
        expect(viaText).toBe(text);
        expect(result.value).toBe(args);
        expect(result.changes).toEqual([]);
        expect(result.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '/n', reason: expected.reason }]);
      }
    }), { seed, numRuns });
  });

  test('a number literal at a number position is never rewritten nor refused', () => {
    fc.assert(fc.property(anyLiteralArbitrary, range, (literal, integerRange) => {
      const text = `{"n":${literal}}`;
      expect(coerceArgsJson(text, NUMBER, { integerRange })).toBe(text);
      expect(coerceArgs(parseArgs(text), NUMBER, { integerRange })).toMatchObject({ changes: [], refusals: [] });
    }), { seed, numRuns });
  });

  test('lenient: a numeric string at an integer position becomes the exact integer, or is refused and kept', () => {
    fc.assert(fc.property(anyLiteralArbitrary, range, fc.constantFrom('', ' ', '\t'), (literal, integerRange, pad) => {
      const expected = oracle(literal, integerRange);
      const text = `{"n":${JSON.stringify(`${pad}${literal}${pad}`)}}`;
      const args = parseArgs(text);
      const result = coerceArgs(args, INTEGER, { integerRange, lenient: true });
      const viaText = coerceArgsJson(text, INTEGER, { integerRange, lenient: true });
      if ('literal' in expected) {
        expect(viaText).toBe(`{"n":${expected.literal}}`);
        expect(result.changes).toEqual([{ path: '/n', from: JSON.stringify(`${pad}${literal}${pad}`), to: expected.literal, rule: 'string-to-integer' }]);
        expect(result.refusals).toEqual([]);
      } else {
        expect(viaText).toBe(text);
        expect(result.value).toBe(args);
        expect(result.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '/n', reason: expected.reason }]);
      }
    }), { seed, numRuns });
  });

  test.each([
    ['5.05', '{"n":5.05}'], ['5.001', '{"n":5.001}'], ['5.10e1', '{"n":51}'], ['5.000000000000000001', '{"n":5.000000000000000001}'],
    ['100.50e-1', '{"n":100.50e-1}'], ['-42.00', '{"n":-42}'], ['0.0e5', '{"n":0}'], ['123456789012345.0', '{"n":123456789012345}'],
    ['1234567890123456.0', '{"n":1234567890123456}'], ['1234567890123456.01', '{"n":1234567890123456.01}'],
  ])('%s at an integer position gives %s', (literal, expected) => {
    expect(coerceArgsJson(`{"n":${literal}}`, INTEGER)).toBe(expected);
    expect(stringifyArgs(coerceArgs(parseArgs(`{"n":${literal}}`), INTEGER).value)).toBe(expected);
  });

  test.each([['"2.01"', '{"n":"2.01"}'], ['"2.00"', '{"n":2}'], ['"2.0e1"', '{"n":20}'], ['"2.5e-1"', '{"n":"2.5e-1"}']])(
    'lenient %s at an integer position gives %s',
    (value, expected) => {
      expect(coerceArgsJson(`{"n":${value}}`, INTEGER, { lenient: true })).toBe(expected);
    },
  );

  test.each([
    [NaN, 1], [Infinity, 1], [-Infinity, 1], [5.5, 1], [5, 0], [1e21, 0], [-0, 0], [0, 0],
  ])('the plain number %d at an integer position is kept, with %i refusal(s), in both modes', (n, refused) => {
    for (const lenient of [false, true]) {
      for (const type of ['integer', ['integer', 'boolean']]) {
        const args = { n };
        const result = coerceArgs(args, { properties: { n: { type } } }, { lenient });
        if (Number.isNaN(n)) expect(result.value).toEqual(args);
        else expect(result.value).toBe(args);
        expect(result.changes).toEqual([]);
        expect(result.refusals.map(({ path, reason }) => [path, ['not-whole', 'out-of-range'].includes(reason)])).toEqual(refused ? [['/n', true]] : []);
      }
    }
  });
});

// Same reference back when nothing changed is a promise of the core, and NaN !== NaN: the walk
// must compare with Object.is, or a NaN that stays would count as a change.
test('a plain NaN at an integer position comes back as the same reference', () => {
  const args = { n: NaN };
  expect(coerceArgs(args, { properties: { n: { type: 'integer' } } }).value).toBe(args);
});
