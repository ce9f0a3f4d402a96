/** Arguments as the MCP SDK will write them: lossless numbers as exact literals where the runtime allows. */
import { mapLosslessNumbers } from '../../json/lossless.js';
import { toIntegerLiteral, fitsFloat64 } from '../../json/numbers.js';
import { SchemaCoerceError } from '../../json/errors.js';

/** Thrown when a number cannot reach the wire exactly and `lossyNumbers` is not set. */
export class NumberPrecisionError extends SchemaCoerceError {
  /** The literal that would have been rounded. */
  readonly literal: string;

  constructor(literal: string) {
    super(`${literal} cannot be sent exactly on a runtime without JSON.rawJSON (Node 22+); pass lossyNumbers: true to send it rounded`);
    this.name = 'NumberPrecisionError';
    this.literal = literal;
  }
}

const rawJSON = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * Arguments as the SDK's `JSON.stringify` will write them: every lossless number as its exact
 * literal through `JSON.rawJSON` (Node 22+); elsewhere as a plain number when that is exact
 * enough, and an error for an integer beyond 2^53 or a number beyond float64, unless `lossy`.
 */
export function toWire(args: unknown, lossy: boolean): unknown {
  return mapLosslessNumbers(args, (literal) => {
    if (rawJSON !== undefined) return rawJSON(literal);
    const exact = fitsFloat64(literal) && toIntegerLiteral(literal, 'safe') !== 'out-of-range';
    if (!exact && !lossy) throw new NumberPrecisionError(literal);
    return Number(literal);
  });
}
