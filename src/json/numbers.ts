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
const UNBOUNDED_DIGIT_CAP = 4096;

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
function isCanonicalInteger(text: string): boolean {
  return CANONICAL_INTEGER.test(text) && text !== '-0';
}

/** True when the literal's mathematical value is a whole number (exact, on the text). */
export function isWholeLiteral(text: string): boolean {
  // Stryker disable next-line ConditionalExpression: without the canonical shortcut (`→ false`) the general path below answers true for every canonical integer too (test/mutation-equivalents.md); `→ true` is killed, and hidden with it
  if (CANONICAL_INTEGER.test(text)) return true;
  const parts = NUMBER_PARTS.exec(text);
  if (parts === null) return false;
  const [, , intPart = '', fracPart = '', expSign = '', expDigits = '0'] = parts;
  const digits = (intPart + fracPart).replace(/0+$/, '');
  // Without trailing zeros, the digits are all zeros exactly when none is left.
  if (digits === '') return true;
  const trailingZeros = intPart.length + fracPart.length - digits.length;
  const shift = exponentOf(expSign, expDigits) - fracPart.length + trailingZeros;
  return shift >= 0;
}

/**
 * The integer rule, the one both the text path and the object path apply at an integer position:
 * what to write for the number literal `literal`. `5.0`, `5e0`, `0.5e1` give `5`; `-0.0` gives
 * `0`; a literal already in canonical integer form comes back as it is, whatever its size;
 * `5.5` gives `'not-whole'`; `1e20` under `int64` gives `'out-of-range'`. Text that is not a JSON
 * number gives `'not-whole'`.
 *
 * @param literal - A JSON number literal.
 * @param range - Which whole values may be written as integer literals.
 * @returns `literal` itself when it needs no change, the canonical integer literal, or why there is none.
 */
export function restoreInteger(literal: string, range: IntegerRange): string | NotInteger {
  // The shape float64 pipelines write, `N.0…` with at most 15 integer digits (inside every range).
  const dot = wholeDecimalDot(literal);
  // Stryker disable next-line ConditionalExpression: without the fast path (`dot !== -1` → false) the exact path below gives the same literal for every `N.0…` it takes (test/mutation-equivalents.md); `→ true` is killed by every test, and hidden with it
  if (dot !== -1) return literal.slice(0, dot);
  return isCanonicalInteger(literal) ? literal : toIntegerLiteral(literal, range);
}

/**
 * The canonical integer literal for a JSON number literal whose value is whole and inside
 * `range`, or the reason it has none. `5.0`, `5e0`, `0.5e1` give `5`; `-0.0` gives `0`;
 * `5.5` gives `'not-whole'`; `1e20` and `12345678901234567890` under `int64` give `'out-of-range'`.
 * A literal that is not a JSON number gives `'not-whole'`.
 */
export function toIntegerLiteral(text: string, range: IntegerRange): string | NotInteger {
  const parts = NUMBER_PARTS.exec(text);
  if (parts === null || !JSON_NUMBER.test(text)) return 'not-whole';
  const [, sign = '', intPart = '', fracPart = '', expSign = '', expDigits = '0'] = parts;
  const significant = (intPart + fracPart).replace(/^0+/, '');
  // Without leading zeros, the digits are all zeros exactly when none is left.
  if (significant === '') return '0';
  const digits = significant.replace(/0+$/, '');
  const shift = exponentOf(expSign, expDigits) - fracPart.length + (significant.length - digits.length);
  if (shift < 0) return 'not-whole';
  // An infinite shift (a huge exponent) makes an infinite length, which no range admits.
  const length = digits.length + shift;
  if (!fitsRange(sign === '-', digits, length, range, text.length)) return 'out-of-range';
  return sign + digits + '0'.repeat(shift);
}

/**
 * The index of the `.` of `text` (or of its token `start..end`) when it is `N.0…`, every fraction
 * digit a zero, with a canonical integer part of at most 15 digits other than `-0`, so that
 * `text.slice(start, dot)` is its integer literal; else -1. Allocates nothing. Exported for its
 * tests and for the text path, which reads tokens in place: which shapes the fast path takes is
 * invisible in `restoreInteger`'s answers, since the exact path gives the same ones.
 */
export function wholeDecimalDot(text: string, start = 0, end: number = text.length): number {
  const first = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  let dot = first;
  // `code ^ 0x30` is below 10 exactly for the digits `0`-`9`. Past the end of the text `charCodeAt`
  // is NaN and `NaN ^ 0x30` is 48, no digit: the loop stops there with no bound of its own, and a
  // loop that runs past `end` (digits after the token) gives a dot past `end - 1`, refused next.
  while ((text.charCodeAt(dot) ^ 0x30) < 10) dot++;
  if (dot === first || dot - first > 15 || dot >= end - 1 || text.charCodeAt(dot) !== 0x2e) return -1;
  // A leading `0` only as the whole unsigned integer part: `0.0`, never `00.0`, `05.0` or `-0.0`.
  if (text.charCodeAt(first) === 0x30 && dot !== start + 1) return -1;
  for (let j = dot + 1; j < end; j++) if (text.charCodeAt(j) !== 0x30) return -1;
  return dot;
}

/**
 * The exponent as a number; a huge exponent becomes ±Infinity, never a wrong finite value. Its
 * leading zeros do not count (`1e0000000000000002` is `100`).
 */
function exponentOf(sign: string, digits: string): number {
  // Past the end `charCodeAt` is NaN: an exponent of zeros only stops there, with no digit left.
  let first = 0;
  while (digits.charCodeAt(first) === 0x30) first++;
  // `Number` reads leading zeros as nothing.
  const value = digits.length - first > 15 ? Infinity : Number(digits);
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
