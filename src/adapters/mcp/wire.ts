/** Arguments as the MCP SDK will write them: every number exactly, or a `NumberPrecisionError` before anything is sent. */
import { ExactNumber, mapLosslessNumbers, plainNumberOf } from '../../json/lossless.js';
import { NumberPrecisionError } from '../../json/errors.js';

export { NumberPrecisionError };

const hasRawJSON = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';

/**
 * Arguments as the SDK's `JSON.stringify` will write them: each number a plain number where one
 * holds it exactly, and otherwise an `ExactNumber`, written as its literal through `JSON.rawJSON`
 * (Node 22+). Where the runtime has no `JSON.rawJSON`, such a number (an integer beyond
 * ±(2^53−1), a number beyond float64) is a `NumberPrecisionError` naming its path, thrown before
 * anything is sent, unless `lossy`: then it is sent as the nearest plain number.
 *
 * @param args - Arguments, lossless (from `parseArgs`) or prepared (`prepareToolCall`'s `args`).
 * @param lossy - Round what cannot be sent exactly instead of throwing.
 */
export function toWire(args: unknown, lossy: boolean): unknown {
  return mapLosslessNumbers(args, (literal, pointer, number) => {
    const plain = plainNumberOf(literal);
    if (plain !== undefined) return plain;
    if (hasRawJSON) return number instanceof ExactNumber ? number : new ExactNumber(literal, pointer());
    if (!lossy) throw new NumberPrecisionError(literal, pointer(), 'pass lossyNumbers: true to send it rounded');
    return Number(literal);
  });
}
