/**
 * The lenient `enumCase` rule: a string that is no `enum` or `const` member but equals exactly
 * one string member after trimming and case folding becomes that member; two or more such
 * members are refused as `ambiguous`, none as `unconvertible`, with the allowed values.
 */
import type { PlanNode } from '../schema/plan.js';
import type { LenientContext } from './lenient.js';

/** The members of one `stringEnum()` list, indexed: a value costs one lookup, however many members. */
interface EnumIndex {
  readonly members: ReadonlySet<string>;
  /** Members by their folded form, in schema order. */
  readonly folded: ReadonlyMap<string, readonly string[]>;
  /** The first `MAX_EXPECTED` members as JSON text, for refusals. */
  readonly expected: readonly string[];
}

/**
 * How many members a refusal lists in `expected` (its message then says how many there are): a
 * 100,000-member enum must not make every refusal, and every log line that carries it, a megabyte.
 */
const MAX_EXPECTED = 100;

const indexes = new WeakMap<readonly string[], EnumIndex>();

function indexOf(members: readonly string[]): EnumIndex {
  let index = indexes.get(members);
  if (index === undefined) {
    const folded = new Map<string, string[]>();
    for (const member of members) {
      const form = fold(member);
      const same = folded.get(form);
      if (same === undefined) folded.set(form, [member]);
      else same.push(member);
    }
    index = { members: new Set(members), folded, expected: Object.freeze(members.slice(0, MAX_EXPECTED).map((member) => JSON.stringify(member))) };
    indexes.set(members, index);
  }
  return index;
}

function fold(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * Folds `value` onto the one member it matches, or refuses it. A value that is already a member
 * is never touched; nor is any string where an applicable schema accepts strings unrestricted.
 * Each value costs one lookup in an index built once per list of members.
 *
 * @returns The member, or `value` itself.
 */
export function foldEnumCase(value: string, node: PlanNode, context: LenientContext): string {
  const members = node.stringEnum();
  if (members === null) return value;
  const index = indexOf(members);
  if (index.members.has(value)) return value;
  const matches = index.folded.get(fold(value)) ?? [];
  if (matches.length === 1) {
    context.change(value, matches[0], 'enum-case');
    return matches[0]!;
  }
  context.refuse(value, node, matches.length === 0 ? 'unconvertible' : 'ambiguous', index.expected);
  return value;
}

/**
 * True when the rule can apply at `node`: it restricts strings to `enum` or `const` members, so
 * a string there must be looked at even though its type is accepted.
 */
export function foldsEnumCase(node: PlanNode): boolean {
  return node.stringEnum() !== null;
}
