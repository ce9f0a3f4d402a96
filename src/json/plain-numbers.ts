/** Lossless values as plain ones: every `LosslessNumber` replaced, by a plain `number` or as a caller converts it. */
import { isLosslessNumber } from './lossless-number.js';
import { walkValues, type Container, type ValueVisitor } from './walk-values.js';

/**
 * A copy of `value` with every `LosslessNumber` turned into a plain `number`, for consumers
 * that only understand plain JSON values (validators, `JSON.stringify`). Digits beyond float64
 * precision are lost in the copy, never in `value`; whole numbers stay whole numbers.
 *
 * @param value - A value from `parseArgs` or a coercion.
 * @returns The same reference when it holds no lossless number; otherwise a copy. A cyclic
 *   reference is kept as it is.
 */
export function toPlainNumbers(value: unknown): unknown {
  return mapLosslessNumbers(value, Number);
}

/**
 * A copy of `value` with every `LosslessNumber` replaced by `convert(literal)`; the same
 * reference when it holds none. Iterative, so any depth is copied; cycles are kept as they are.
 */
export function mapLosslessNumbers(value: unknown, convert: (literal: string) => unknown): unknown {
  return walkValues(value, true, new NumberMapper(convert), [], 0);
}

/** The visitor of `mapLosslessNumbers`: every child is visited, every lossless number converted. */
class NumberMapper implements ValueVisitor<true> {
  private readonly convert: (literal: string) => unknown;

  constructor(convert: (literal: string) => unknown) {
    this.convert = convert;
  }

  child(): true {
    return true;
  }

  leaf(value: unknown): unknown {
    return isLosslessNumber(value) ? this.convert(value.value) : value;
  }

  enter(): boolean {
    return true;
  }

  leave(_original: Container, done: Container): unknown {
    return done;
  }

  cycle(): void {}
}
