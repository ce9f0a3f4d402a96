/**
 * The lenient `flattenedKey` rule: some models (Gemini 3 among them) send nested arguments as
 * flat keys that spell their paths, `{"todoList[0].id": 1, "todoList[0].title": "a"}` for
 * `{"todoList": [{"id": 1, "title": "a"}]}`. Such keys are rebuilt into nesting only where that
 * has one reading: the path's first name is declared, as an object (or an array, for an index),
 * and is not sent itself; no two keys claim one place; each array's indexes run from 0 with none
 * missing. Anything else is left as it is (and is an undeclared key).
 */
import { hasOwn, setOwn } from '../json/objects.js';
import type { PointerPath } from '../json/pointer.js';
import { TYPE_BITS } from '../schema/keywords.js';
import type { PlanNode } from '../schema/plan.js';
import type { Change, CoerceResult, Refusal } from './types.js';

/** What the rebuild needs from the walk that calls it. */
export interface ReshapeContext {
  /** The path from the root to the object being rebuilt; pushed and popped, left as it was. */
  readonly path: PointerPath;
  readonly changes: Change[];
  readonly refusals: Refusal[];
  /** Coerces `value` against `node` on its own, at the current path. */
  nest(value: unknown, node: PlanNode): CoerceResult;
}

/** A name, then one or more of: indexes (`[0]`, no leading zero), a dot and a name. It ends in a name. */
const FLAT_PATH = /^[^.[\]]+(?:(?:\[(?:0|[1-9]\d{0,8})\])*\.[^.[\]]+)+$/;
/** One step after the first name: `.name` or `[index]`. */
const STEP = /\.([^.[\]]+)|\[(\d+)\]/g;

/** Cheap first test of a key: it can only spell a path if it holds a dot or a bracket. */
export function mayBeFlattened(key: string): boolean {
  return key.includes('.') || key.includes('[');
}

/** A place in the value being rebuilt: a container of named or indexed places, or a value. */
interface Branch {
  names: Map<string, Place> | null;
  indexes: Map<number, Place> | null;
}
type Place = Branch | { readonly value: unknown };

/** The keys with one first name, and the value they rebuild (undefined once they conflict). */
interface Group {
  readonly keys: { readonly key: string; readonly steps: (string | number)[] }[];
  root: Branch | undefined;
}

/**
 * `object` with its flattened keys rebuilt into nesting where that has one reading, each rebuilt
 * value coerced against its schema; `object` itself when none is.
 */
export function rebuildFlattened(object: Record<string, unknown>, node: PlanNode, context: ReshapeContext): Record<string, unknown> {
  if (node.shape().open) return object;
  const groups = new Map<string, Group>();
  for (const key of Object.keys(object)) {
    if (!mayBeFlattened(key) || node.declares(key)) continue;
    const head = flattenedHead(key);
    let group = groups.get(head);
    if (group === undefined) groups.set(head, (group = { keys: [], root: fits(node, head, object, key) ? { names: null, indexes: null } : undefined }));
    if (group.root === undefined) continue;
    const steps = FLAT_PATH.test(key) ? stepsOf(key, head.length) : undefined;
    if (steps === undefined || !place(group.root, steps, object[key])) group.root = undefined;
    else group.keys.push({ key, steps });
  }
  /** The first name of each key that is rebuilt, and the value of each first name. */
  const heads = new Map<string, string>();
  const values = new Map<string, unknown>();
  for (const [head, group] of groups) {
    const value = group.root === undefined ? undefined : valueOf(group.root);
    if (value === undefined || !itemsFit(node.child(head)!, value)) continue;
    values.set(head, value);
    for (const { key } of group.keys) heads.set(key, head);
  }
  if (values.size === 0) return object;

  // The rebuilt value takes the place of the first of its keys.
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const head = heads.get(key);
    if (head === undefined) setOwn(result, key, object[key]);
    else if (!hasOwn(result, head)) setOwn(result, head, settle(head, groups.get(head)!, values.get(head), node, context));
  }
  return result;
}

/** Reports a group's keys, and coerces the value they rebuilt at its own path. */
function settle(head: string, group: Group, value: unknown, node: PlanNode, context: ReshapeContext): unknown {
  const { path } = context;
  for (const { key, steps } of group.keys) {
    path.push(head);
    for (const step of steps) path.push(step);
    context.changes.push({ path: path.pointer, from: JSON.stringify(key), to: JSON.stringify(steps[steps.length - 1]), rule: 'flattened-key' });
    for (let i = 0; i <= steps.length; i++) path.pop();
  }
  path.push(head);
  const inner = context.nest(value, node.child(head)!);
  path.pop();
  context.changes.push(...inner.changes);
  context.refusals.push(...inner.refusals);
  return inner.value;
}

/** The first name of a flattened key (`args` of `args.path`, `todo` of `todo[0].title`). */
export function flattenedHead(key: string): string {
  return key.slice(0, firstMark(key));
}

/** Where a key's first name ends: at its first dot or bracket. */
function firstMark(key: string): number {
  const dot = key.indexOf('.');
  const bracket = key.indexOf('[');
  return dot === -1 ? bracket : bracket === -1 ? dot : Math.min(dot, bracket);
}

/** The steps of a flattened key after its first name: names, and indexes as numbers. */
function stepsOf(key: string, from: number): (string | number)[] {
  const steps: (string | number)[] = [];
  STEP.lastIndex = from;
  for (let match = STEP.exec(key); match !== null; match = STEP.exec(key)) steps.push(match[1] ?? Number(match[2]));
  return steps;
}

/**
 * The first name is declared here, with a schema that takes an object (for a name next) or an
 * array (for an index next), and is not also sent as a key of its own.
 */
function fits(node: PlanNode, head: string, object: Record<string, unknown>, key: string): boolean {
  if (hasOwn(object, head) || !node.shape().declared.includes(head)) return false;
  const child = node.child(head);
  const kind = key[head.length] === '.' ? TYPE_BITS.object : TYPE_BITS.array;
  return child !== null && (child.accept & kind) !== 0;
}

/** An array rebuilt where its schema's items take objects (or arrays), index by index. */
function itemsFit(node: PlanNode, value: unknown): boolean {
  if (!Array.isArray(value)) return true;
  return value.every((item, index) => {
    const at = node.item(index);
    return at === null || (at.accept & (Array.isArray(item) ? TYPE_BITS.array : TYPE_BITS.object)) !== 0;
  });
}

/** Puts `value` at `steps` under `root`; false when a place is claimed twice or as two kinds. */
function place(root: Branch, steps: readonly (string | number)[], value: unknown): boolean {
  let branch = root;
  for (let i = 0; ; i++) {
    const step = steps[i]!;
    const named = typeof step === 'string';
    // A value in the way (it has neither map) or a container of the other kind is a conflict.
    if (named ? branch.indexes !== null : branch.names !== null) return false;
    const places = (named ? (branch.names ??= new Map<string, Place>()) : (branch.indexes ??= new Map<number, Place>())) as Map<string | number, Place>;
    const found = places.get(step);
    if (i === steps.length - 1) {
      if (found !== undefined) return false;
      places.set(step, { value });
      return true;
    }
    if (found === undefined) places.set(step, (branch = { names: null, indexes: null }));
    else branch = found as Branch;
  }
}

/** The value a branch rebuilds; `undefined` when an array's indexes do not run from 0 with none missing. */
function valueOf(root: Branch): unknown {
  // Iterative: a key may spell a deep path; each branch is built once, children before parents.
  const order: Branch[] = [];
  const pending: Branch[] = [root];
  while (pending.length > 0) {
    const branch = pending.pop()!;
    order.push(branch);
    for (const child of (branch.names ?? branch.indexes)!.values()) if ('names' in child) pending.push(child);
  }
  const built = new Map<Branch, unknown>();
  const read = (place: Place): unknown => ('names' in place ? built.get(place) : place.value);
  for (let i = order.length - 1; i >= 0; i--) {
    const branch = order[i]!;
    if (branch.names !== null) {
      const object: Record<string, unknown> = {};
      for (const [name, child] of branch.names) setOwn(object, name, read(child));
      built.set(branch, object);
      continue;
    }
    const indexes = branch.indexes!;
    const array: unknown[] = [];
    for (let index = 0; index < indexes.size; index++) {
      const child = indexes.get(index);
      if (child === undefined) return undefined;
      array.push(read(child));
    }
    built.set(branch, array);
  }
  return built.get(root);
}
