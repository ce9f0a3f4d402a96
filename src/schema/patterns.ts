/**
 * `patternProperties` regular expressions, compiled under a safety policy: a pattern that is
 * not a valid regular expression, or that nests unbounded quantifiers (`(a+)+`, `(\w*)*`, the
 * shape of catastrophic backtracking), is left out and never matches. Matching such a pattern
 * against a model-chosen key could hang the process; leaving it out can only mean a key is
 * coerced by `additionalProperties` instead, or not at all.
 */

const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;
const MAX_PATTERN_LENGTH = 1000;

/**
 * True when `source` may be run against a model-chosen string: at most 1,000 characters, and no
 * group with an unbounded quantifier is itself repeated without bound.
 */
export function isSafePattern(source: string): boolean {
  return source.length <= MAX_PATTERN_LENGTH && !NESTED_QUANTIFIER.test(source);
}

/**
 * Compiles an ECMA-262 pattern (with the `u` flag when it allows, as JSON Schema asks), or
 * returns `undefined` when it is invalid, too long or unsafe.
 */
export function compilePattern(source: string): RegExp | undefined {
  if (!isSafePattern(source)) return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined;
    }
  }
}
