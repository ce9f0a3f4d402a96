/**
 * The lenient `flattenedKey` rule: some models (Gemini 3 among them) send nested arguments as
 * flat keys that spell their paths, `{"todoList[0].id": 1, "todoList[0].title": "a"}` for
 * `{"todoList": [{"id": 1, "title": "a"}]}`. A key that starts with a declared name and a dot or
 * a bracket is read every way it can be (`key-readings.ts`: as sent, each nesting, a rename) and
 * the gate decides: the one reading the schema takes is taken (a nesting is rebuilt, a key valid
 * as sent is coerced where it is); two or more are refused `ambiguous`, the key left as sent.
 * Rebuilt keys of one first name must not claim one place twice, and each array's indexes must
 * run from 0 with none missing; otherwise the group is left as it is (and is undeclared).
 */
import { hasOwn, setOwn } from '../json/objects.js';
import { escapeToken, type PointerPath } from '../json/pointer.js';
import type { PlanNode } from '../schema/plan.js';
import { judge, keyRefusal } from './gate.js';
import { declaredHeads, keyReadings, type KeyReading } from './key-readings.js';
import type { Change, CoerceResult, Refusal } from './types.js';

export { declaredHeads, proposesKey } from './key-readings.js';

/** What the rebuild needs from the walk that calls it. */
export interface ReshapeContext {
  /** The path from the root to the object being rebuilt; pushed and popped, left as it was. */
  readonly path: PointerPath;
  readonly changes: Change[];
  readonly refusals: Refusal[];
  /** Coerces `value` against `node` on its own, at the current path. */
  nest(value: unknown, node: PlanNode): CoerceResult;
}

/** A place in the value being rebuilt: a container of named or indexed places, or a value. */
interface Branch {
  names: Map<string, Place> | null;
  indexes: Map<number, Place> | null;
}
type Place = Branch | { readonly value: unknown };

/** The keys read as nestings under one first name, and the value they rebuild (undefined once they conflict). */
interface Group {
  readonly keys: { readonly key: string; readonly steps: readonly (string | number)[] }[];
  root: Branch | undefined;
}

/**
 * `object` with each key that may spell a path settled by the gate: rebuilt into nesting, coerced
 * where it is, or refused; `object` itself when nothing changed. The walk left these keys' values
 * alone, so each is coerced here at the place its reading gives it.
 */
export function rebuildFlattened(object: Record<string, unknown>, node: PlanNode, context: ReshapeContext): Record<string, unknown> {
  const groups = new Map<string, Group>();
  /** Keys valid as sent, whose value is coerced where it is. */
  const settled: string[] = [];
  /** First names under which a key could not be read one way: nothing under them is rebuilt. */
  const blocked = new Set<string>();
  const at = context.path.pointer;
  for (const key of Object.keys(object)) {
    const heads = declaredHeads(node, key);
    if (heads.length === 0) continue;
    const verdict = judge(keyReadings(key, object[key], node, object, at, (value, child) => context.nest(value, child)));
    if (verdict.kind === 'ambiguous') context.refusals.push(keyRefusal(`${at}/${escapeToken(key)}`, object[key], verdict.readings));
    if (verdict.kind !== 'take') for (const head of heads) blocked.add(head);
    if (verdict.kind !== 'take') continue;
    const reading = verdict.proposal as KeyReading;
    // A rename is `renameUnambiguous`'s to write (in `prepareToolCall`); here it only competes.
    if (reading.rule === 'as-sent') settled.push(key);
    if (reading.rule !== 'flattened-key') continue;
    const [head, ...steps] = reading.steps as [string, ...(string | number)[]];
    let group = groups.get(head);
    if (group === undefined) groups.set(head, (group = { keys: [], root: { names: null, indexes: null } }));
    if (group.root === undefined) continue;
    if (!place(group.root, steps, object[key])) group.root = undefined;
    else group.keys.push({ key, steps });
  }
  /** The first name of each key that is rebuilt, and the value of each first name. */
  const heads = new Map<string, string>();
  const values = new Map<string, unknown>();
  for (const [head, group] of groups) {
    const value = group.root === undefined || blocked.has(head) ? undefined : valueOf(group.root);
    if (value === undefined) continue;
    values.set(head, value);
    for (const { key } of group.keys) heads.set(key, head);
  }
  // A key valid as sent is coerced where it is, now that the gate has seen its other readings.
  const coerced = new Map<string, unknown>();
  for (const key of settled) {
    const child = node.child(key);
    if (child === null) continue;
    context.path.push(key);
    const value = adopt(context.nest(object[key], child), context);
    context.path.pop();
    if (value !== object[key]) coerced.set(key, value);
  }
  if (values.size === 0 && coerced.size === 0) return object;

  // The rebuilt value takes the place of the first of its keys.
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const head = heads.get(key);
    if (head === undefined) setOwn(result, key, coerced.has(key) ? coerced.get(key) : object[key]);
    else if (!hasOwn(result, head)) setOwn(result, head, settle(head, groups.get(head)!, values.get(head), node, context));
  }
  return result;
}

/** Reports the changes and refusals of a coercion taken, and gives its value. */
function adopt(inner: CoerceResult, context: ReshapeContext): unknown {
  context.changes.push(...inner.changes);
  context.refusals.push(...inner.refusals);
  return inner.value;
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
  // A first name with no schema of its own (declared `true`, or a key of an open object) takes the value as it is.
  const child = node.child(head);
  const settled = child === null ? value : adopt(context.nest(value, child), context);
  path.pop();
  return settled;
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
