/**
 * The readings of an object key that may spell a path (`args.path`, `todoList[0].title`,
 * `labels.app.kubernetes.io/name`): the key as sent, every way of reading its dots and indexes
 * as nesting (a dot may be a step or part of a name: `a.b.c` is `a/b/c`, `a/b.c`, `a.b/c` or
 * the key itself), and a rename to the one declared name it spells once normalised
 * (`file.path` → `filePath`). Each reading is walked through the plan and its value coerced where
 * it would land, so the gate sees how far the schema takes it. The flattened-key rebuild and
 * `renameUnambiguous` both ask here, so the two can never give different answers.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import { escapeToken } from '../json/pointer.js';
import { normalizeName } from '../json/strings.js';
import { TYPE_BITS } from '../schema/keywords.js';
import type { PlanNode } from '../schema/plan.js';
import type { Proposal } from './gate.js';
import type { CoerceResult } from './types.js';

/** A reading of a key: a proposal, with the steps from the object to where the value lands. */
export interface KeyReading extends Proposal {
  /** Names and indexes from the object to the value: one step, the key or its new name, unless nested. */
  readonly steps: readonly (string | number)[];
}

/** A place no schema constrains: a key of an open map, the item of an array without `items`. */
const FREE = Symbol('free');
type At = PlanNode | typeof FREE;

/** A dot, or an index `[n]` (no leading zero), where a key may be read as a step. */
interface Boundary {
  readonly at: number;
  /** Where what follows the boundary starts. */
  readonly next: number;
  /** The index, or -1 for a dot. */
  readonly index: number;
}

/** A key with more boundaries than this is read only as sent (or renamed): its nestings are not enumerated. */
const MAX_BOUNDARIES = 32;
/** Readings kept per fit and per place of the enumeration: enough to decide, and to name. */
const MAX_READINGS = 4;
const INDEX = /\[(0|[1-9]\d{0,8})\]/y;

const declaredSets = new WeakMap<PlanNode, { readonly names: ReadonlySet<string>; readonly longest: number }>();

/** The declared names of `node` as a set, with the length of the longest. */
function declaredOf(node: PlanNode): { readonly names: ReadonlySet<string>; readonly longest: number } {
  let found = declaredSets.get(node);
  if (found === undefined) {
    const { declared } = node.shape();
    found = { names: new Set(declared), longest: declared.reduce((max, name) => Math.max(max, name.length), 0) };
    declaredSets.set(node, found);
  }
  return found;
}

/**
 * The declared names `key` of an object at `node` starts with, each followed by a dot or a
 * bracket: the first names it may be a flattened path under (none for a declared name, or for a
 * key with no dot or bracket, found at once). A key with any is one the gate must look at.
 */
export function declaredHeads(node: PlanNode, key: string): string[] {
  if (!key.includes('.') && !key.includes('[')) return [];
  const { names, longest } = declaredOf(node);
  const heads: string[] = [];
  if (names.has(key)) return heads;
  for (let i = 1; i <= longest && i < key.length; i++) {
    const mark = key.charCodeAt(i);
    if ((mark === 0x2e || mark === 0x5b) && names.has(key.slice(0, i))) heads.push(key.slice(0, i));
  }
  return heads;
}

/** True when `key` of an object at `node` may be a flattened path (see `declaredHeads`). */
export function proposesKey(node: PlanNode, key: string): boolean {
  return declaredHeads(node, key).length > 0;
}

/**
 * Every reading of `key` (holding `value`) in `object` at `node`, in order: as sent, the nestings
 * from the fewest steps to the most, then the renames. Readings the schema cannot take at all
 * (an undeclared name on the way, a step into a value of the wrong kind, a first name that is also
 * sent as a key) are left out; at most `MAX_READINGS` of each fit are kept at each place.
 *
 * @param at - JSON Pointer to the object.
 * @param nest - Coerces a value against a node on its own, as the walk would.
 */
export function keyReadings(key: string, value: unknown, node: PlanNode, object: Record<string, unknown>, at: string, nest: (value: unknown, node: PlanNode) => CoerceResult): KeyReading[] {
  const fits = new Map<PlanNode, { fit: 'whole' | 'shape'; inner: CoerceResult }>();
  const settle = (leaf: At): { fit: 'whole' | 'shape'; inner?: CoerceResult } => {
    if (leaf === FREE) return { fit: 'whole' };
    let known = fits.get(leaf);
    if (known === undefined) {
      const inner = nest(value, leaf);
      fits.set(leaf, (known = { fit: inner.refusals.length === 0 ? 'whole' : 'shape', inner }));
    }
    return known;
  };
  const reading = (rule: KeyReading['rule'], steps: readonly (string | number)[], leaf: At): KeyReading => {
    const { fit, inner } = settle(leaf);
    const path = `${at}/${steps.map((step) => escapeToken(String(step))).join('/')}`;
    return { rule, path, value: inner === undefined ? value : inner.value, fit, steps, ...(inner === undefined ? {} : { inner }) };
  };

  const readings: KeyReading[] = [];
  const boundaries = boundariesOf(key);
  const tails = boundaries === undefined ? [] : new Paths(key, boundaries, (leaf) => settle(leaf).fit).from(0, node, (name) => hasOwn(object, name));
  for (const { steps, leaf } of tails) readings.push(reading(steps.length === 1 ? 'as-sent' : 'flattened-key', steps, leaf));
  if (boundaries === undefined) {
    const literal = stepName(node, key, true);
    if (literal !== undefined) readings.push(reading('as-sent', [key], literal));
  }
  const normal = normalizeName(key);
  for (const name of node.shape().declared) {
    if (name === key || normalizeName(name) !== normal || (hasOwn(object, name) && object[name] !== null)) continue;
    readings.push(reading('rename-key', [name], node.child(name) ?? FREE));
  }
  return readings;
}

/** The boundaries of `key`, or `undefined` when it has more than `MAX_BOUNDARIES`. */
function boundariesOf(key: string): Boundary[] | undefined {
  const found: Boundary[] = [];
  for (let i = 0; i < key.length; i++) {
    const char = key.charCodeAt(i);
    if (char === 0x2e) found.push({ at: i, next: i + 1, index: -1 });
    else if (char === 0x5b) {
      INDEX.lastIndex = i;
      const match = INDEX.exec(key);
      if (match !== null) found.push({ at: i, next: i + match[0].length, index: Number(match[1]) });
    }
    if (found.length > MAX_BOUNDARIES) return undefined;
  }
  return found;
}

/** One way of reading the rest of a key: its steps, and where its value lands. */
interface Tail {
  readonly steps: readonly (string | number)[];
  readonly leaf: At;
}

/** The enumeration of a key's nestings, memoised by where it stands in the key and in the plan. */
class Paths {
  private readonly memo = new Map<string, Tail[]>();
  private readonly ids = new Map<At, number>();

  constructor(
    private readonly key: string,
    private readonly boundaries: readonly Boundary[],
    private readonly fitOf: (leaf: At) => 'whole' | 'shape',
  ) {}

  /**
   * The readings of the key from `pos` (the start of a name) at `at`. At the object itself
   * (`taken` given) a first name that is sent as a key of its own cannot be a step.
   */
  from(pos: number, at: At, taken?: (name: string) => boolean): Tail[] {
    const memoKey = taken === undefined ? `${pos}:${this.idOf(at)}` : undefined;
    const known = memoKey === undefined ? undefined : this.memo.get(memoKey);
    if (known !== undefined) return known;
    const tails: Tail[] = [];
    const counts = { whole: 0, shape: 0 };
    const keep = (tail: Tail): void => {
      const fit = this.fitOf(tail.leaf);
      if (counts[fit]++ < MAX_READINGS) tails.push(tail);
    };
    // The name runs to the end of the key (fewest steps) or to a boundary, the last one first.
    const { key, boundaries } = this;
    for (let b = boundaries.length; b >= 0; b--) {
      const boundary = boundaries[b];
      const end = boundary === undefined ? key.length : boundary.at;
      if (end <= pos) continue;
      const name = key.slice(pos, end);
      if (taken !== undefined && end !== key.length && taken(name)) continue;
      const child = stepName(at, name, taken !== undefined);
      if (child === undefined) continue;
      if (boundary === undefined) keep({ steps: [name], leaf: child });
      else for (const tail of this.after(boundary, child)) keep({ steps: [name, ...tail.steps], leaf: tail.leaf });
    }
    if (memoKey !== undefined) this.memo.set(memoKey, tails);
    return tails;
  }

  /** The readings that follow a boundary read as a step from `at`: a name after a dot, or an index and what follows it. */
  private after(boundary: Boundary, at: At): Tail[] {
    if (boundary.index === -1) return stepsInto(at, TYPE_BITS.object) ? this.from(boundary.next, at) : [];
    const item = stepIndex(at, boundary.index);
    // An index is followed by another boundary at once: a key ends in a name.
    const next = this.boundaries.find((other) => other.at === boundary.next);
    if (item === undefined || next === undefined) return [];
    return this.after(next, item).map((tail) => ({ steps: [boundary.index, ...tail.steps], leaf: tail.leaf }));
  }

  private idOf(at: At): number {
    let id = this.ids.get(at);
    if (id === undefined) this.ids.set(at, (id = this.ids.size));
    return id;
  }
}

/** True when a value at `at` may be a container of `kind`. */
function stepsInto(at: At, kind: number): boolean {
  return at === FREE || (at.accept & kind) !== 0;
}

/**
 * Where a name step from `at` lands: its own schemas, or a free place (a name declared with the
 * schema `true`, a key of an object open to any key); `undefined` where the name is not taken
 * (undeclared, or shut out by `additionalProperties: false` with no property or pattern for it).
 * The object itself (`first`) is an object already.
 */
function stepName(at: At, name: string, first: boolean): At | undefined {
  if (at === FREE) return FREE;
  if (!first && (at.accept & TYPE_BITS.object) === 0) return undefined;
  const child = at.child(name);
  if (child !== null) return child;
  if (at.declares(name)) return FREE;
  const shut = at.members.some((member) => ownValue(member, 'additionalProperties') === false || ownValue(member, 'unevaluatedProperties') === false);
  return at.shape().open && !shut ? FREE : undefined;
}

/** Where an index step from `at` lands; `undefined` where `at` takes no array. */
function stepIndex(at: At, index: number): At | undefined {
  if (!stepsInto(at, TYPE_BITS.array)) return undefined;
  return at === FREE ? FREE : (at.item(index) ?? FREE);
}
