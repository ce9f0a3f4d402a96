/**
 * Reading argument text for a tool: strict JSON as it is, and under the lenient `syntax` rule
 * the repairs the schema allows (blank text as `{}` only where the root accepts an object; a
 * string holding an object's text only where the root accepts an object and not a string).
 */
import { parseArgs, parseRepaired, type RepairedParse } from '../json/lossless.js';
import { markTruncation } from '../json/repair/repair.js';
import { ALL_TYPES, TYPE_BITS } from '../schema/keywords.js';
import { planOrNull } from '../schema/plan.js';

/**
 * Parses a tool's argument text losslessly, repairing its syntax when `syntax` is set.
 *
 * @param strictError - Under `syntax`, the error a strict scan of `text` already gave, so it is
 *   not scanned strictly again.
 * @throws {ArgsParseError} When the text is not JSON (or not repairable); `truncated: true` when
 *   it was cut off, whether or not repair was asked for.
 */
export function readArgsText(text: string, schema: unknown, syntax: boolean, strictError?: unknown): RepairedParse {
  if (!syntax) {
    try {
      return { value: parseArgs(text), text, changes: [] };
    } catch (error) {
      throw markTruncation(text, error);
    }
  }
  return parseRepaired(text, () => {
    const root = planOrNull(schema);
    const mask = root === null ? ALL_TYPES : root.accept;
    const object = (mask & TYPE_BITS.object) !== 0;
    return { blankAsObject: object, unwrapObjectText: object && (mask & TYPE_BITS.string) === 0 };
  }, strictError);
}
