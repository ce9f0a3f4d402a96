/**
 * The lenient `enumCase` rule: a string that is no `enum` or `const` member but equals exactly
 * one string member after trimming and case folding becomes that member; two or more such
 * members are refused as `ambiguous`, none as `unconvertible`, with the allowed values.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import type { PlanNode } from '../schema/plan.js';
import type { LenientContext } from './lenient.js';

/** Per node: its string enum and const members, or `null` where the rule does not apply. */
const membersByNode = new WeakMap<PlanNode, readonly string[] | null>();

/**
 * Folds `value` onto the one member it matches, or refuses it. A value that is already a member
 * is never touched; nor is any string where an applicable schema accepts strings unrestricted.
 *
 * @returns The member, or `value` itself.
 */
export function foldEnumCase(value: string, node: PlanNode, context: LenientContext): string {
  const members = membersOf(node);
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
  return membersOf(node) !== null;
}

function membersOf(node: PlanNode): readonly string[] | null {
  let members = membersByNode.get(node);
  if (members === undefined) {
    members = stringMembers(node);
    membersByNode.set(node, members);
  }
  return members;
}

/** The string members of every `enum` and `const` here; `null` when none, or when strings are open. */
function stringMembers(node: PlanNode): readonly string[] | null {
  const members: string[] = [];
  let constrained = false;
  for (const schema of node.members) {
    const values = ownValue(schema, 'enum');
    const listed = Array.isArray(values) ? [...(values as unknown[])] : [];
    if (hasOwn(schema, 'const')) listed.push(ownValue(schema, 'const'));
    if (Array.isArray(values) || hasOwn(schema, 'const')) {
      constrained = true;
      for (const member of listed) if (typeof member === 'string' && !members.includes(member)) members.push(member);
    } else if (acceptsAnyString(ownValue(schema, 'type'))) {
      return null;
    }
  }
  return constrained && members.length > 0 ? members : null;
}

function acceptsAnyString(type: unknown): boolean {
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}
