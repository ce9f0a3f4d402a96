/**
 * The lenient `unwrap` rule: models send the arguments inside a wrapper, `{"arguments": {…}}`
 * (DeepSeek, Qwen, GLM through several serving engines), or repeat the whole call,
 * `{"name": "<this tool>", "arguments": {…}}`. The object inside is the arguments when the root
 * schema declares none of the wrapper's keys and the object inside has no key it does not declare.
 * Its one competing reading, the wrapper as sent, is one the schema never takes under those
 * conditions (its key is undeclared at a root closed to other keys); the gate sees both.
 */
import { isPlainObject } from '../json/objects.js';
import type { PlanNode } from '../schema/plan.js';
import type { Proposal } from './gate.js';

/** The keys a wrapper puts the arguments under. */
export const WRAPPER_KEYS: readonly string[] = ['arguments', 'parameters', 'input', 'args'];

/** The arguments found inside a wrapper, and the wrapper's keys. */
interface Unwrapped {
  readonly inner: Record<string, unknown>;
  readonly keys: readonly string[];
}

/**
 * The readings of the arguments `value` when it is a wrapper (see `unwrapArguments`): the object
 * inside, and the wrapper as sent, which the root does not take; none when it is no wrapper.
 */
export function unwrapReadings(value: unknown, root: PlanNode, toolName: string | undefined): (Proposal & { readonly keys: readonly string[] })[] {
  const unwrapped = unwrapArguments(value, root, toolName);
  if (unwrapped === undefined) return [];
  return [
    { rule: 'unwrap', path: '', value: unwrapped.inner, fit: 'whole', keys: unwrapped.keys },
    { rule: 'as-sent', path: '', value, fit: 'none', keys: [] },
  ];
}

/**
 * The arguments inside `value`, when it is a wrapper: a plain object whose only key is one of
 * `WRAPPER_KEYS` (or `name`, equal to `toolName`, and one of them) holding a plain object, where
 * the root declares none of `WRAPPER_KEYS` nor `name` and declares every key of the inner object.
 *
 * @returns The inner object (the very one `value` holds), or `undefined` when `value` is no wrapper.
 */
function unwrapArguments(value: unknown, root: PlanNode, toolName: string | undefined): Unwrapped | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  const named = keys.length === 2 && toolName !== undefined && value['name'] === toolName ? keys.indexOf('name') : -1;
  const wrapper = keys.length === 1 ? keys[0]! : named === -1 ? undefined : keys[1 - named]!;
  if (wrapper === undefined || !WRAPPER_KEYS.includes(wrapper)) return undefined;
  const inner = value[wrapper];
  if (!isPlainObject(inner) || root.shape().open) return undefined;
  if ([...WRAPPER_KEYS, 'name'].some((key) => root.declares(key))) return undefined;
  return Object.keys(inner).every((key) => root.declares(key)) ? { inner, keys } : undefined;
}
