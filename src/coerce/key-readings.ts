/**
 * The readings of an object key that may spell a path (`args.path`, `todoList[0].title`,
 * `labels.app.kubernetes.io/name`): the key as sent, every way of reading its dots and indexes
 * as nesting (a dot may be a step or part of a name: `a.b.c` is `a/b/c`, `a/b.c`, `a.b/c` or
 * the key itself), and a rename to the one declared name it spells once normalised
 * (`file.path` → `filePath`) or whose parameter tag it holds (`parameter name="ops"` → `ops`). Each reading is walked through the plan and its value coerced where
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

/** A key with more boundaries than this is read only as sent (or renamed): its nestings are not enumerated. */
const MAX_BOUNDARIES = 32;
/** Readings kept per fit and per place of the enumeration: enough to decide, and to name. */
const MAX_READINGS = 4;
/** Where a key may be read as a step: a dot, or an index `[n]` (no leading zero). */
const BOUNDARY = /\.|\[(0|[1-9]\d{0,8})\]/g;

/** What a key's readings need of an object node's declared names, made once per node. */
interface Declared {
  readonly names: ReadonlySet<string>;
  /** The length of the longest name: no first name of a key is longer. */
  readonly longest: number;
  /** The names by their normalised spelling (`filepath`: `filePath`, `file_path`), for renames. */
  readonly byNormal: ReadonlyMap<string, readonly string[]>;
}

const declaredSets = new WeakMap<PlanNode, Declared>();

/** The declared names of `node`, indexed. */
function declaredOf(node: PlanNode): Declared {
  let found = declaredSets.get(node);
  if (found === undefined) {
    const { declared } = node.shape();
    const byNormal = new Map<string, string[]>();
    for (const name of declared) {
      const normal = normalizeName(name);
      byNormal.set(normal, [...(byNormal.get(normal) ?? []), name]);
    }
    found = { names: new Set(declared), longest: declared.reduce((max, name) => Math.max(max, name.length), 0), byNormal };
    declaredSets.set(node, found);
  }
  return found;
}

/**
 * The declared names `key` of an object at `node` starts with, each followed by a dot or a
 * bracket: the first names it may be a flattened path under (none for a declared name).
 */
export function declaredHeads(node: PlanNode, key: string): string[] {
  const heads: string[] = [];
  headsOf(node, key, (head) => void heads.push(head));
  return heads;
}

/**
 * True when `key` of an object at `node` may be a flattened path the gate must look at (see
 * `declaredHeads`): for a key with no dot or bracket, found at once and with nothing allocated,
 * as the walk asks it of every key.
 */
export function proposesKey(node: PlanNode, key: string): boolean {
  return (key.includes('.') || key.includes('[')) && !headsOf(node, key, () => false);
}

/** Calls `found` with each first name of `key` until it returns false; false when it did. */
function headsOf(node: PlanNode, key: string, found: (head: string) => boolean | void): boolean {
  const { names, longest } = declaredOf(node);
  if (names.has(key)) return true;
  const last = Math.min(longest, key.length - 1);
  for (let i = 1; i <= last; i++) {
    const mark = key.charCodeAt(i);
    if ((mark === 0x2e || mark === 0x5b) && names.has(key.slice(0, i)) && found(key.slice(0, i)) === false) return false;
  }
  return true;
}

/**
 * A key holding a parameter tag's whole text, as MiniMax-M3 writes its keys (`parameter
 * name="ops"`, oh-my-pi#2759), with the name it tags.
 */
const TAG_KEY = /^<?parameter\s+name\s*=\s*"([^"<>]+)"\s*>?$/;

/** The name `key` spells: the name a parameter tag's text tags (`parameter name="ops"`: `ops`), else the key itself. */
export function spelledName(key: string): string {
  return TAG_KEY.exec(key)?.[1] ?? key;
}

/**
 * The declared names other than `key` that it spells once normalised (`file.path`: `filePath`),
 * or that the parameter tag it holds names (`parameter name="ops"`: `ops`).
 */
export function renameTargets(node: PlanNode, key: string): readonly string[] {
  return (declaredOf(node).byNormal.get(normalizeName(spelledName(key))) ?? []).filter((name) => name !== key);
}

/**
 * Every reading of `key` (holding `value`) in `object` at `node`, in order: as sent, the nestings
 * from the fewest steps to the most, then the renames. Readings the schema cannot take at all
 * (an undeclared name on the way, a step into a value of the wrong kind, a first name that is also
 * sent as a key) are left out; at most `MAX_READINGS` of each fit are kept at each place of the
 * enumeration, which is memoised by its place in the key and in the plan, so a key costs at most
 * boundaries² steps per plan node it reaches.
 *
 * @param at - JSON Pointer to the object.
 * @param nest - Coerces a value against a node on its own, as the walk would.
 */
export function keyReadings(key: string, value: unknown, node: PlanNode, object: Record<string, unknown>, at: string, nest: (value: unknown, node: PlanNode) => CoerceResult): KeyReading[] {
  const fits = new Map<At, { fit: 'whole' | 'shape'; inner?: CoerceResult }>([[FREE, { fit: 'whole' }]]);
  const settle = (leaf: At): { fit: 'whole' | 'shape'; inner?: CoerceResult } => {
    let known = fits.get(leaf);
    if (known === undefined) {
      const inner = nest(value, leaf as PlanNode);
      fits.set(leaf, (known = { fit: inner.refusals.length === 0 ? 'whole' : 'shape', inner }));
    }
    return known;
  };
  const reading = (rule: KeyReading['rule'], steps: readonly (string | number)[], leaf: At): KeyReading => {
    const { fit, inner } = settle(leaf);
    const path = `${at}/${steps.map((step) => escapeToken(String(step))).join('/')}`;
    return { rule, path, value: inner === undefined ? value : inner.value, fit, steps, ...(inner === undefined ? {} : { inner }) };
  };

  // The boundaries: a dot, or an index `[n]` (no leading zero); with more than `MAX_BOUNDARIES`,
  // only the key as sent is read (`end` is where the boundary's text ends, `index` -1 for a dot).
  const boundaries = [...key.matchAll(BOUNDARY)].map((match) => ({ at: match.index, end: match.index + match[0].length, index: match[1] === undefined ? -1 : Number(match[1]) }));
  if (boundaries.length > MAX_BOUNDARIES) boundaries.length = 0;
  const memo = new Map<string, Tail[]>();
  const ids = new Map<At, number>();
  /** The readings of the key from `pos`, the start of a name, at `at` (`first`: the object itself). */
  const from = (pos: number, at: At, first: boolean): Tail[] => {
    const place = `${pos}:${ids.get(at) ?? (ids.set(at, ids.size), ids.size - 1)}`;
    const known = first ? undefined : memo.get(place);
    if (known !== undefined) return known;
    const tails: Tail[] = [];
    const counts = { whole: 0, shape: 0 };
    const keep = (steps: readonly (string | number)[], leaf: At): void => {
      if (counts[settle(leaf).fit]++ < MAX_READINGS) tails.push({ steps, leaf });
    };
    // The name runs to the end of the key (fewest steps) or to a boundary, the last one first.
    for (let b = boundaries.length; b >= 0; b--) {
      const end = boundaries[b]?.at ?? key.length;
      if (end <= pos) continue;
      const name = key.slice(pos, end);
      // A first name that is also sent as a key of its own is no step.
      if (first && end !== key.length && hasOwn(object, name)) continue;
      const child = stepName(at, name, first);
      if (child === undefined) continue;
      if (end === key.length) keep([name], child);
      else for (const tail of after(b, child)) keep([name, ...tail.steps], tail.leaf);
    }
    if (!first) memo.set(place, tails);
    return tails;
  };
  /** The readings that follow boundary `b` read as a step from `at`: a name after a dot; an index, then a boundary at once. */
  const after = (b: number, at: At): Tail[] => {
    const { end, index } = boundaries[b]!;
    if (index === -1) return at === FREE || (at.accept & TYPE_BITS.object) !== 0 ? from(end, at, false) : [];
    const item = at === FREE ? FREE : (at.accept & TYPE_BITS.array) === 0 ? undefined : (at.item(index) ?? FREE);
    if (item === undefined || boundaries[b + 1]?.at !== end) return [];
    return after(b + 1, item).map((tail) => ({ steps: [index, ...tail.steps], leaf: tail.leaf }));
  };

  const readings = from(0, node, true).map(({ steps, leaf }) => reading(steps.length === 1 ? 'as-sent' : 'flattened-key', steps, leaf));
  for (const name of renameTargets(node, key)) {
    if (!hasOwn(object, name) || object[name] === null) readings.push(reading('rename-key', [name], node.child(name) ?? FREE));
  }
  return readings;
}

/** One way of reading the rest of a key: its steps, and where its value lands. */
interface Tail {
  readonly steps: readonly (string | number)[];
  readonly leaf: At;
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
