/**
 * The only module that reasons about number literal text. Every test here works on the
 * digits themselves, exactly: no float rounding, no BigInt, no digit string longer than a cap.
 */

/** Which whole values integer restoration may write out as integer literals. */
export type IntegerRange = 'int64' | 'safe' | 'unbounded';

/** Why a literal cannot be written as an integer. */
export type NotInteger = 'not-whole' | 'out-of-range';

/**
 * Digits an exponent may be expanded into under `"unbounded"` (a literal already written out
 * longer than this keeps its own length as the cap).
 */
export const UNBOUNDED_DIGIT_CAP = 4096;

const INT64_MAX = '9223372036854775807';
const INT64_MIN_ABS = '9223372036854775808';
const SAFE_MAX = '9007199254740991';

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;

/** True when `text` is a JSON number literal (RFC 8259 grammar, nothing else). */
export function isJsonNumberLiteral(text: string): boolean {
  return JSON_NUMBER.test(text);
}

/** True when `text` is already an integer literal in canonical form (`5`, `-42`, not `-0`). */
export function isCanonicalInteger(text: string): boolean {
  return CANONICAL_INTEGER.test(text) && text !== '-0';
}

/** True when the literal's mathematical value is a whole number (exact, on the text). */
export function isWholeLiteral(text: string): boolean {
  if (CANONICAL_INTEGER.test(text)) return true;
  const parts = NUMBER_PARTS.exec(text);
  if (parts === null) return false;
  const [, , intPart = '', fracPart = '', expSign = '', expDigits = '0'] = parts;
  const digits = (intPart + fracPart).replace(/0+$/, '');
  const significant = digits.replace(/^0+/, '');
  if (significant === '') return true;
  const trailingZeros = intPart.length + fracPart.length - digits.length;
  const shift = exponentOf(expSign, expDigits) - fracPart.length + trailingZeros;
  return shift >= 0;
}

/**
 * The canonical integer literal for a JSON number literal whose value is whole and inside
 * `range`, or the reason it has none. `5.0`, `5e0`, `0.5e1` give `5`; `-0.0` gives `0`;
 * `5.5` gives `'not-whole'`; `1e20` and `12345678901234567890` under `int64` give `'out-of-range'`.
 * A literal that is not a JSON number gives `'not-whole'`.
 */
export function toIntegerLiteral(text: string, range: IntegerRange): string | NotInteger {
  const short = wholeDecimal(text);
  if (short !== undefined) return short;
  const parts = NUMBER_PARTS.exec(text);
  if (parts === null || !JSON_NUMBER.test(text)) return 'not-whole';
  const [, sign = '', intPart = '', fracPart = '', expSign = '', expDigits = '0'] = parts;
  let digits = (intPart + fracPart).replace(/^0+/, '');
  if (digits.replace(/0+$/, '') === '') return '0';
  const withoutTrailing = digits.replace(/0+$/, '');
  let shift = exponentOf(expSign, expDigits) - fracPart.length + (digits.length - withoutTrailing.length);
  digits = withoutTrailing;
  if (shift < 0) return 'not-whole';
  if (!Number.isFinite(shift)) return 'out-of-range';
  const length = digits.length + shift;
  if (!fitsRange(sign === '-', digits, length, range, text.length)) return 'out-of-range';
  return sign + digits + (shift > 0 ? '0'.repeat(shift) : '');
}

/**
 * The fast path for the shape float64 pipelines write, `N.0` (`-42.00`): the integer part when
 * the fraction is all zeros and it has at most 15 digits (inside every range), else `undefined`.
 */
function wholeDecimal(text: string): string | undefined {
  const dot = text.indexOf('.');
  if (dot === -1 || dot > 15) return undefined;
  for (let i = dot + 1; i < text.length; i++) if (text.charCodeAt(i) !== 0x30) return undefined;
  const integer = text.slice(0, dot);
  if (!CANONICAL_INTEGER.test(integer) || dot === text.length - 1) return undefined;
  return integer === '-0' ? '0' : integer;
}

/** The exponent as a number; a huge exponent becomes ±Infinity, never a wrong finite value. */
function exponentOf(sign: string, digits: string): number {
  const value = digits.length > 15 ? Infinity : Number(digits);
  return sign === '-' ? -value : value;
}

function fitsRange(
  negative: boolean,
  digits: string,
  length: number,
  range: IntegerRange,
  literalLength: number,
): boolean {
  if (range === 'unbounded') return length <= Math.max(UNBOUNDED_DIGIT_CAP, literalLength);
  const limit = range === 'safe' ? SAFE_MAX : negative ? INT64_MIN_ABS : INT64_MAX;
  if (length !== limit.length) return length < limit.length;
  const padded = digits + '0'.repeat(length - digits.length);
  return padded <= limit;
}

/** True when the literal is finite as a float64 (`1e400` is not). */
export function fitsFloat64(text: string): boolean {
  return Number.isFinite(Number(text));
}
