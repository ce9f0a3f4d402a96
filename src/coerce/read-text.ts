/**
 * Reading argument text for a tool: strict JSON as it is, and under the lenient `syntax` rule
 * the repairs the schema allows (blank text as `{}` only where the root accepts an object; a
 * string holding an object's text only where the root accepts an object and not a string; a
 * root `null` as `{}` only where the root accepts an object, not `null`, and requires nothing).
 */
import { parseArgs, parseRepaired, type RepairedParse } from '../json/lossless.js';
import { markTruncation, type TextRules } from '../json/tolerant/repair.js';
import { ALL_TYPES, TYPE_BITS } from '../schema/keywords.js';
import { planOrNull, type PlanNode } from '../schema/plan.js';

/**
 * Parses a tool's argument text losslessly, repairing its syntax when `syntax` is given: the
 * switched syntax rules (the lenient rules resolved, whose `markup` and `overEscaped` it reads), or `false`.
 *
 * @param strictError - Under `syntax`, the error a strict scan of `text` already gave, so it is
 *   not scanned strictly again.
 * @throws {ArgsParseError} When the text is not JSON (or not repairable); `truncated: true` when
 *   it was cut off, whether or not repair was asked for.
 */
export function readArgsText(text: string, schema: unknown, syntax: TextRules | false, strictError?: unknown): RepairedParse {
  if (syntax === false) {
    try {
      return { value: parseArgs(text), text, changes: [] };
    } catch (error) {
      throw markTruncation(text, error);
    }
  }
  let root: PlanNode | null | undefined;
  const rootPlan = (): PlanNode | null => (root === undefined ? (root = planOrNull(schema)) : root);
  const read = parseRepaired(text, () => {
    const node = rootPlan();
    const mask = node === null ? ALL_TYPES : node.accept;
    const object = (mask & TYPE_BITS.object) !== 0;
    return { blankAsObject: object, unwrapObjectText: object && (mask & TYPE_BITS.string) === 0 };
  }, strictError, syntax);
  return read.value === null && nullAsObject(rootPlan()) ? nullArguments(read) : read;
}

/**
 * True when a root `null` means "no arguments": the root accepts an object, not `null`, and
 * requires nothing. False when the schema cannot say (its `required` throws): the `null` stays.
 */
function nullAsObject(root: PlanNode | null): boolean {
  if (root === null || (root.accept & TYPE_BITS.object) === 0 || (root.accept & TYPE_BITS.null) !== 0) return false;
  try {
    return root.required().length === 0;
  } catch {
    return false;
  }
}

/** `{}` read in place of a root `null`, and the change that says so (after any repair made to read it). */
function nullArguments(read: RepairedParse): RepairedParse {
  return { value: {}, text: '{}', changes: [...read.changes, { path: '', from: 'null', to: '{}', rule: 'null-arguments' }] };
}
