/**
 * Lossless values as plain ones, for code that takes JSON values as JavaScript has them
 * (`JSON.stringify`, `structuredClone`, an SDK's `callTool`, a tool's own code): every
 * `LosslessNumber` replaced by the plain number that holds it exactly, or by an `ExactNumber`.
 */
import { ExactNumber, isLosslessNumber, plainNumberOf } from './lossless-number.js';
import { escapeToken } from './pointer.js';
import { walkValues, type Container, type PathToken, type ValueVisitor } from './walk-values.js';

/** Options of `toPlainNumbers`. */
export interface PlainNumbersOptions {
  /**
   * Every number as the nearest JavaScript number, rounded where none holds it exactly (an
   * integer beyond ±(2^53−1) loses digits, `1e400` becomes `Infinity`): for a validator, which
   * judges by value, never for what is sent.
   */
  readonly lossy?: boolean;
}

/**
 * A copy of `value` whose numbers are plain JavaScript numbers wherever one holds the number
 * exactly: integers within ±(2^53−1), and fractions to the float64 precision every JSON reader
 * reads them with. A number no JavaScript number holds (`9007199254740993`, a 19-digit ID,
 * `1e400`) becomes an `ExactNumber`, which `JSON.stringify` writes exactly (Node 22 and later,
 * through `JSON.rawJSON`) or refuses with a `NumberPrecisionError` naming its path, and which
 * `structuredClone` refuses: the copy is never rounded and never holds a wrapper object. A
 * literal's spelling is not a JavaScript number's: `1.0` becomes `1`, `-0` stays `-0` (written `0`).
 *
 * @param value - A value from `parseArgs` or a coercion.
 * @param options - `lossy: true` rounds instead (see `PlainNumbersOptions`).
 * @returns The same reference when it holds no lossless number (an `ExactNumber` counts as plain,
 *   unless `lossy`); otherwise a copy. A cyclic reference is kept as it is.
 * @example
 * toPlainNumbers(parseArgs('{"a":1.0,"b":9007199254740993}')) // { a: 1, b: ExactNumber { value: '9007199254740993', path: '/b' } }
 */
export function toPlainNumbers(value: unknown, options?: PlainNumbersOptions): unknown {
  return mapLosslessNumbers(value, options?.lossy === true ? Number : exactOrPlain);
}

function exactOrPlain(literal: string, pointer: () => string, number: object): unknown {
  if (number instanceof ExactNumber) return number;
  return plainNumberOf(literal) ?? new ExactNumber(literal, pointer());
}

/**
 * A copy of `value` with every `LosslessNumber` replaced by `convert(literal, pointer, number)`
 * (`number` the lossless number itself, `pointer()` the JSON Pointer to it); the same reference when nothing is replaced.
 * Iterative, so any depth is copied; cycles are kept as they are.
 */
export function mapLosslessNumbers(value: unknown, convert: (literal: string, pointer: () => string, number: object) => unknown): unknown {
  const path: PathToken[] = [];
  return walkValues(value, true, new NumberMapper(convert, path), path, 0);
}

/** The visitor of `mapLosslessNumbers`: every child is visited, every lossless number converted. */
class NumberMapper implements ValueVisitor<true> {
  private readonly convert: (literal: string, pointer: () => string, number: object) => unknown;
  private readonly path: readonly PathToken[];
  /** The JSON Pointer of the value being visited, made only when a conversion asks for it. */
  private readonly pointer = (): string => this.path.map((token) => `/${escapeToken(String(token))}`).join('');

  constructor(convert: (literal: string, pointer: () => string, number: object) => unknown, path: readonly PathToken[]) {
    this.convert = convert;
    this.path = path;
  }

  child(): true {
    return true;
  }

  leaf(value: unknown): unknown {
    return isLosslessNumber(value) ? this.convert(value.value, this.pointer, value) : value;
  }

  enter(): boolean {
    return true;
  }

  leave(_original: Container, done: Container): unknown {
    return done;
  }

  cycle(): void {}
}
