/**
 * The number type of lossless values, and the numbers handed to JavaScript code. This module is
 * the only import of lossless-json.
 *
 * - `LosslessNumber`: lossless-json's class, which keeps a number's literal text, with a `toJSON`
 *   so that `JSON.stringify` writes it exactly (through `JSON.rawJSON`) or refuses, never as the
 *   wrapper object `{"value":"5","isLosslessNumber":true}`.
 * - `plainNumberOf`: the JavaScript number a literal may be handed out as, when one holds it.
 * - `ExactNumber`: what stands for a number no JavaScript number holds (an integer beyond
 *   ±(2^53−1), a number beyond float64) among plain values.
 */
import { LosslessNumber as LosslessJsonNumber, isLosslessNumber } from 'lossless-json';
import { NumberPrecisionError } from './errors.js';

export { isLosslessNumber };

/** `JSON.rawJSON` where the runtime has it (Node 21+, Deno, Bun, current browsers), else `undefined`. */
const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * A JSON number kept as its literal text (`value`): lossless-json's `LosslessNumber`, with a
 * `toJSON`. `JSON.stringify` writes it as its literal, exactly as spelled, through `JSON.rawJSON`
 * (Node 22 and later); on a runtime without `JSON.rawJSON` as the plain number where one holds
 * it exactly (`1.0` as `1`), and otherwise it throws a `NumberPrecisionError`: never rounded,
 * never the wrapper object lossless-json's own class is written as. `toJSON` is an own property,
 * so `structuredClone` refuses the number (a `DataCloneError`, as for `JSON.rawJSON`'s objects)
 * instead of copying it as a wrapper. Its type is lossless-json's, so values of either class mix
 * freely (`isLosslessNumber` tells both).
 *
 * @example
 * JSON.stringify(parseArgs('{"id":12345678901234567890}')) // '{"id":12345678901234567890}' on Node 22+
 */
export const LosslessNumber: typeof LosslessJsonNumber = class LosslessNumber extends LosslessJsonNumber {
  /** The value `JSON.stringify` writes for this number (see the class). */
  readonly toJSON = losslessNumberToJSON;
};

/** A lossless number: lossless-json's type. */
export type LosslessNumber = LosslessJsonNumber;

/**
 * A number no JavaScript number holds exactly (an integer beyond ±(2^53−1), however written; a
 * number beyond float64, such as `1e400`; a non-zero number that float64 rounds to zero), as
 * `toPlainNumbers` and `prepareToolCall`'s `args` hand it out: a frozen `LosslessNumber` that
 * knows where it was. `JSON.stringify` writes its literal exactly through `JSON.rawJSON` (Node 22
 * and later) and throws a `NumberPrecisionError` naming `path` where the runtime has none;
 * `structuredClone` refuses it. `String(n)` and `n.value` give the literal, `n.valueOf()` a `bigint`.
 *
 * @example
 * const id = prepareToolCall('{"id":12345678901234567890}', schema).args.id; // ExactNumber
 * id.value // '12345678901234567890'
 */
export class ExactNumber extends LosslessNumber {
  /** JSON Pointer (RFC 6901) to the number in the value it was handed out in (`""`: the value itself). */
  readonly path: string;

  constructor(literal: string, path: string) {
    super(literal);
    this.path = path;
    Object.freeze(this);
  }
}

/** The `toJSON` of every `LosslessNumber` made here (one function, shared). */
function losslessNumberToJSON(this: { readonly value: string; readonly path?: string }): unknown {
  return jsonValueOf(this.value, this.path);
}

/** The way out a `NumberPrecisionError` from `JSON.stringify` names. */
const HOW_TO_SEND = "run on Node 22 or later, or send the exact JSON text yourself (a prepared call's json, or stringifyArgs(value)); toPlainNumbers(value, { lossy: true }) rounds it, where that is what you want";

/** What `JSON.stringify` writes for the literal: raw JSON, the exact plain number, or a refusal. */
function jsonValueOf(literal: string, path: string | undefined): unknown {
  if (rawJSON !== undefined) return rawJSON(literal);
  const plain = plainNumberOf(literal);
  if (plain === undefined) throw new NumberPrecisionError(literal, path, HOW_TO_SEND);
  return plain;
}

/**
 * The JavaScript number the literal may be handed out as, or `undefined` when none holds it:
 * an integer within ±(2^53−1), and any other value float64 holds, to the precision every JSON
 * reader reads it with (`0.1`, `3.14159265358979323846` as `3.141592653589793`). Not: a whole
 * number beyond ±(2^53−1), however written (`9007199254740993`, `1e300`: digits that
 * `JSON.stringify` would write differently), a number beyond float64 (`1e400`), or a non-zero
 * number float64 rounds to zero (`1e-400`). `-0` is `-0` (which `JSON.stringify` writes `0`).
 *
 * @param literal - A JSON number literal.
 */
export function plainNumberOf(literal: string): number | undefined {
  const value = Number(literal);
  if (!Number.isInteger(value)) return Number.isFinite(value) ? value : undefined;
  // Zero from a zero literal (`0`, `-0`, `0.00`, `0e5`) is no underflow.
  return Number.isSafeInteger(value) && (value !== 0 || /^-?0(?:\.0+)?(?:[eE][+-]?\d+)?$/.test(literal)) ? value : undefined;
}
