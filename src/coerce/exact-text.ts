/**
 * The text of a plain JavaScript number, when it is exactly that number. A plain number's literal
 * is unknown (`JSON.parse` read `12345678901234567890` as `12345678901234567000`, `0.1 + 0.2` is
 * `0.30000000000000004`), so its shortest decimal is only its text when that decimal is the
 * number's exact value and the number could not have been rounded on the way: a safe integer, or
 * a fraction whose binary value has that short decimal expansion (`0.5`, `2.25`, not `0.1`).
 */

/**
 * The exact decimal text of `value`, or `undefined` when its shortest decimal is not exactly it
 * (a fraction such as `0.1`), or it may have been rounded (an integer outside ±(2^53−1)), or it is
 * not finite.
 */
export function exactText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  // `String(-0)` is `0`, which reads back as +0: the sign is written.
  if (Number.isInteger(value)) return Number.isSafeInteger(value) ? (Object.is(value, -0) ? '-0' : String(value)) : undefined;
  // The number is m / 2^k exactly (doubling a double is exact until it is whole, 1,074 times at most).
  let scaled = Math.abs(value);
  let k = 0;
  for (; !Number.isInteger(scaled); k++) scaled *= 2;
  const text = String(value);
  const match = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text)!;
  // The text is d / 10^p exactly: equal when d × 2^k = m × 10^p (p > 0 for any fraction).
  const digits = BigInt(match[1]! + (match[2] ?? ''));
  const p = (match[2]?.length ?? 0) - Number(match[3] ?? 0);
  return digits * 2n ** BigInt(k) === BigInt(scaled) * 10n ** BigInt(p) ? text : undefined;
}
