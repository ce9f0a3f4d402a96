/**
 * `pattern` and `patternProperties` regular expressions, run by a linear-time matcher
 * (`pattern-machine.ts`) instead of the native backtracking engine: a model-chosen key or string
 * can never make a pattern backtrack exponentially (`^(a+)+$`, `^(a|a?)+$`, `^(.*a){12}$`).
 * The meaning is ECMA-262's, `u` flag included, as JSON Schema asks; lookahead and lookbehind
 * are supported. A pattern the matcher cannot run (a backreference, an inline modifier, a
 * program past its size bound) and a test past its step bound answer "cannot check"
 * (`undefined`), never a guess: the caller fails closed.
 */
import { PatternMachine } from './pattern-machine.js';
import { parsePattern, UnsupportedPattern } from './pattern-syntax.js';

/** A compiled pattern: `test` is true, false, or `undefined` when the match cannot be checked. */
export interface Pattern {
  /** The pattern as written. */
  readonly source: string;
  /** `'u'`, or `''` for a pattern only the legacy syntax accepts. */
  readonly flags: string;
  /** Why the pattern cannot be checked at all, when it cannot. */
  readonly unsupported?: string;
  /** True when the pattern matches somewhere in `text`; `undefined` when that cannot be checked. */
  test(text: string): boolean | undefined;
}

/**
 * Compiles a pattern for linear-time matching with `flags` (`'u'` or `''`).
 *
 * @throws SyntaxError - when the pattern is not valid with those flags (the native engine's error).
 */
export function compileLinear(source: string, flags: string): Pattern {
  // The native engine is the judge of syntax: it throws here for an invalid pattern.
  new RegExp(source, flags);
  try {
    const machine = new PatternMachine(parsePattern(source, flags === 'u'), flags);
    return { source, flags, test: (text) => machine.test(text) };
  } catch (error) {
    // Fail closed: a pattern the matcher could not read is one it cannot check.
    const unsupported = error instanceof UnsupportedPattern ? error.message : 'the matcher could not read it';
    return { source, flags, unsupported, test: () => undefined };
  }
}

/**
 * Compiles an ECMA-262 pattern, with the `u` flag when it allows (as JSON Schema asks) and the
 * legacy syntax otherwise, or returns `undefined` when it is valid in neither.
 */
export function compilePattern(source: string): Pattern | undefined {
  for (const flags of ['u', '']) {
    try {
      return compileLinear(source, flags);
    } catch {
      // Not valid with these flags.
    }
  }
  return undefined;
}
