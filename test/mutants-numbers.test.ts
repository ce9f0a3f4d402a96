/**
 * The number-literal functions asked directly, one row per boundary: whole or not (trailing zeros,
 * exponents that cancel the fraction, huge exponents), integer literals under each range at and
 * around each limit (the sign of int64, the digits an exponent adds, the unbounded digit cap),
 * and float64 overflow. Every expected answer is decimal arithmetic on the text. The grammar's
 * patterns and the range limits are module constants, so the tables are read again on a fresh import.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { fitsFloat64, isJsonNumberLiteral, isWholeLiteral, restoreInteger, toIntegerLiteral, wholeDecimalDot, type IntegerRange } from '../src/json/numbers.js';

/** [text, whole]: whether the literal's value is a whole number. */
const WHOLE: readonly (readonly [string, boolean])[] = [
  ['5', true], ['-42', true], ['5.0', true], ['5.5', false], ['0.0', true], ['-0', true], ['-0.0', true], ['0e-5', true],
  ['1e2', true], ['1e-2', false], ['1E+2', true], ['1.50e1', true], ['1.55e1', false], ['12.5e-1', false], ['100e-2', true],
  ['100e-3', false], ['120e-1', true], ['1.20e1', true], ['0.001e3', true], ['0.0010e3', true], ['0.0011e3', false],
  ['1e400', true], ['1e-400', false], ['1.5e99999999999999999', true], ['1.5e-99999999999999999', false], ['5.000000000000000001', false],
  ['x', false], ['', false], ['5.0x', false], ['x5', false], ['+5', false],
];

describe('isWholeLiteral', () => {
  test.each(WHOLE)('%s: %s', (literal, whole) => {
    expect(isWholeLiteral(literal)).toBe(whole);
  });
});

/** [literal, range, expected]: `toIntegerLiteral`'s answer. */
const ROWS: readonly (readonly [string, IntegerRange, string])[] = [
  ['9007199254740991', 'safe', '9007199254740991'],
  ['9007199254740991.0', 'safe', '9007199254740991'],
  ['9007199254740992.0', 'safe', 'out-of-range'],
  ['9007199254740992', 'safe', 'out-of-range'],
  ['-9007199254740991.0', 'safe', '-9007199254740991'],
  ['-9007199254740992.0', 'safe', 'out-of-range'],
  ['9.007199254740991e15', 'safe', '9007199254740991'],
  ['9.007199254740992e15', 'safe', 'out-of-range'],
  ['9e15', 'safe', '9000000000000000'],
  ['1e16', 'safe', 'out-of-range'],
  ['9999999999999999.0', 'safe', 'out-of-range'],
  ['999999999999999.0', 'safe', '999999999999999'],
  ['-999999999999999.0', 'safe', '-999999999999999'],
  ['-9999999999999999.0', 'safe', 'out-of-range'],
  ['9223372036854775807.0', 'int64', '9223372036854775807'],
  ['9223372036854775808.0', 'int64', 'out-of-range'],
  ['-9223372036854775808.0', 'int64', '-9223372036854775808'],
  ['-9223372036854775809.0', 'int64', 'out-of-range'],
  ['9.223372036854775807e18', 'int64', '9223372036854775807'],
  ['9.223372036854775808e18', 'int64', 'out-of-range'],
  ['-9.223372036854775808e18', 'int64', '-9223372036854775808'],
  ['9.2e18', 'int64', '9200000000000000000'],
  ['9.3e18', 'int64', 'out-of-range'],
  ['1e18', 'int64', '1000000000000000000'],
  ['1e19', 'int64', 'out-of-range'],
  ['10e17', 'int64', '1000000000000000000'],
  ['0.1e19', 'int64', '1000000000000000000'],
  ['1e4095', 'unbounded', '1' + '0'.repeat(4095)],
  ['1e4096', 'unbounded', 'out-of-range'],
  ['1.5e4094', 'unbounded', '15' + '0'.repeat(4093)],
  ['1e99999999999999999', 'unbounded', 'out-of-range'],
  ['1e-99999999999999999', 'unbounded', 'not-whole'],
  ['-2.55e1', 'int64', 'not-whole'],
  ['-2.50e2', 'int64', '-250'],
  ['0.0e5', 'int64', '0'],
  ['-0e0', 'int64', '0'],
  ['00.0', 'int64', 'not-whole'],
];

/** Texts that are no JSON number. */
const NOT_JSON = ['abc', '', '1.', '.5', '+1', '1e', '--1', '0x10'];

describe('toIntegerLiteral and restoreInteger under each range', () => {
  test.each(ROWS)('%s under %s: %s', (literal, range, expected) => {
    expect(toIntegerLiteral(literal, range)).toBe(expected);
    // restoreInteger: the same, but a literal already canonical is kept whatever its size.
    const canonical = /^-?(?:0|[1-9]\d*)$/.test(literal) && literal !== '-0';
    if (isJsonNumberLiteral(literal)) expect(restoreInteger(literal, range)).toBe(canonical ? literal : expected);
  });

  test('a canonical integer past every range is kept by restoreInteger and refused by toIntegerLiteral', () => {
    const literal = '123456789012345678901234567890';
    expect(restoreInteger(literal, 'int64')).toBe(literal);
    expect(restoreInteger(literal, 'safe')).toBe(literal);
    expect(toIntegerLiteral(literal, 'int64')).toBe('out-of-range');
    expect(restoreInteger('-0', 'int64')).toBe('0');
  });

  test('a literal written longer than the unbounded cap keeps its own length as the cap', () => {
    const digits = '1' + '0'.repeat(5000);
    expect(toIntegerLiteral(`${digits}.0`, 'unbounded')).toBe(digits);
    expect(toIntegerLiteral(`${digits}.0e1`, 'unbounded')).toBe(`${digits}0`);
    expect(toIntegerLiteral(`${digits}.0e4`, 'unbounded')).toBe(`${digits}0000`);
    expect(toIntegerLiteral(`${digits}.0e5`, 'unbounded')).toBe('out-of-range');
  });

  test.each(NOT_JSON)('%j is no JSON number: not-whole', (text) => {
    expect(isJsonNumberLiteral(text)).toBe(false);
    expect(toIntegerLiteral(text, 'unbounded')).toBe('not-whole');
  });

  // Near misses of the `N.0` shape: the characters either side of the digits, a missing part, a
  // non-canonical integer part. None is a JSON number, so none is an integer literal.
  test.each(['5:.0', '5/.0', '/.0', '.0', '-.0', '5.', '-5.', '5x0', '5.0x', '1a.0', '00.0', '05.0', '-05.0', '-00.0', '-', 'x'])(
    'restoreInteger(%j) is not-whole',
    (text) => {
      expect(restoreInteger(text, 'int64')).toBe('not-whole');
    },
  );
});

describe('fitsFloat64', () => {
  test.each([
    ['1e308', true], ['1.7976931348623157e308', true], ['1.8e308', false], ['1e309', false], ['-1e309', false], ['1e-400', true], ['0', true],
  ])('%s: %s', (literal, fits) => {
    expect(fitsFloat64(literal)).toBe(fits);
  });
});

describe('wholeDecimalDot, the N.0 fast path of restoreInteger', () => {
  // The index of the dot for the shapes it takes, -1 for every other text: restoreInteger's answers
  // are the same either way (the exact path agrees), so only this says the fast path still runs.
  test.each([
    ['5.0', 1], ['0.0', 1], ['-5.0', 2], ['42.000', 2], ['-42.00', 3], ['123456789012345.0', 15], ['-123456789012345.0', 16],
    ['1234567890123456.0', -1], ['-1234567890123456.0', -1],
    ['5', -1], ['5.', -1], ['.0', -1], ['-.0', -1], ['-', -1], ['', -1], ['5.5', -1], ['5.01', -1], ['5.00001', -1], ['5.0x', -1], ['5.x', -1],
    ['00.0', -1], ['05.0', -1], ['-0.0', -1], ['-05.0', -1], ['5e0', -1], ['5.0e0', -1], ['5:.0', -1], ['5/.0', -1], ['x5.0', -1], ['5,0', -1],
  ])('%j: %d', (text, dot) => {
    expect(wholeDecimalDot(text)).toBe(dot);
  });

  test('a token read in place, inside a longer text: the dot\'s index in that text', () => {
    expect(wholeDecimalDot('[5.0,12]', 1, 4)).toBe(2);
    expect(wholeDecimalDot('{"a":-42.00}', 5, 11)).toBe(8);
    expect(wholeDecimalDot('[10.0]', 1, 5)).toBe(3);
    // The sign and the leading zero are the token's own: `-0.0` and `00.0` keep being refused.
    expect(wholeDecimalDot('[-0.0]', 1, 5)).toBe(-1);
    expect(wholeDecimalDot('[00.0]', 1, 5)).toBe(-1);
    expect(wholeDecimalDot('[0.0]', 1, 4)).toBe(2);
    // Only the token counts: digits after its end, or a fraction cut short by it, are not its.
    expect(wholeDecimalDot('01.0', 0, 1)).toBe(-1);
    expect(wholeDecimalDot('5.05', 0, 3)).toBe(1);
    expect(wholeDecimalDot('5.0', 0, 2)).toBe(-1);
  });
});

describe('an exponent written with leading zeros', () => {
  test('is read by its value, however many zeros lead it: 1e0000000000000002 is 100', () => {
    expect(restoreInteger('1e0000000000000002', 'int64')).toBe('100');
    expect(restoreInteger('-1.5e0000000000000000001', 'safe')).toBe('-15');
    expect(restoreInteger('7e00000000000000000000', 'int64')).toBe('7');
    expect(restoreInteger('1e-00000000000000001', 'unbounded')).toBe('not-whole');
    expect(isWholeLiteral('25e-0000000000000000001')).toBe(false);
    expect(isWholeLiteral('2.5e0000000000000000001')).toBe(true);
  });

  test('sixteen significant exponent digits are past every range, never a wrong finite value', () => {
    expect(restoreInteger('1e0000000000000000000001000000000000000', 'unbounded')).toBe('out-of-range');
    expect(restoreInteger('1e-1000000000000000', 'unbounded')).toBe('not-whole');
  });
});

// The number grammar's patterns and the range limits are module constants: the rows above are read
// again on a module imported afresh, so that a changed constant is seen.
describe('the same rows on a fresh import', () => {
  beforeEach(() => {
    vi.resetModules();
  });
  const load = (): Promise<typeof import('../src/json/numbers.js')> => import('../src/json/numbers.js');

  test('isWholeLiteral', async () => {
    const fresh = await load();
    for (const [literal, whole] of WHOLE) expect(fresh.isWholeLiteral(literal), literal).toBe(whole);
  });

  test('toIntegerLiteral and restoreInteger under each range, and a canonical integer past every range kept', async () => {
    const fresh = await load();
    for (const [literal, range, expected] of ROWS) expect(fresh.toIntegerLiteral(literal, range), `${literal} ${range}`).toBe(expected);
    const literal = '123456789012345678901234567890';
    expect(fresh.restoreInteger(literal, 'int64')).toBe(literal);
    expect(fresh.restoreInteger(`-${literal}`, 'safe')).toBe(`-${literal}`);
  });

  test('isJsonNumberLiteral: every part of the grammar', async () => {
    const fresh = await load();
    for (const text of ['0', '12', '-12', '1.25', '-0.5', '1e5', '1E+2', '1e-5', '12.50e-10']) expect(fresh.isJsonNumberLiteral(text), text).toBe(true);
    for (const text of [...NOT_JSON, '5x', 'x5', '01', '1.e5', '1e+']) expect(fresh.isJsonNumberLiteral(text), text).toBe(false);
  });
});
