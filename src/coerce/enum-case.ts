/**
 * The lenient `enumCase` rule: a string that is no `enum` or `const` member but equals exactly
 * one string member after trimming and case folding becomes that member; two or more such
 * members are refused as `ambiguous`, none as `unconvertible`, with the allowed values.
 */
import type { PlanNode } from '../schema/plan.js';
import type { LenientContext } from './lenient.js';

/**
 * Folds `value` onto the one member it matches, or refuses it. A value that is already a member
 * is never touched; nor is any string where an applicable schema accepts strings unrestricted.
 *
 * @returns The member, or `value` itself.
 */
export function foldEnumCase(value: string, node: PlanNode, context: LenientContext): string {
  const members = node.stringEnum();
  if (members === null || members.includes(value)) return value;
  const folded = value.trim().toLowerCase();
  const matches = members.filter((member) => member.trim().toLowerCase() === folded);
  const expected = members.map((member) => JSON.stringify(member));
  if (matches.length === 1) {
    context.change(value, matches[0], 'enum-case');
    return matches[0]!;
  }
  context.refuse(value, node, matches.length === 0 ? 'unconvertible' : 'ambiguous', expected);
  return value;
}

/**
 * True when the rule can apply at `node`: it restricts strings to `enum` or `const` members, so
 * a string there must be looked at even though its type is accepted.
 */
export function foldsEnumCase(node: PlanNode): boolean {
  return node.stringEnum() !== null;
}
