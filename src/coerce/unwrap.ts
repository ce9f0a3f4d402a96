/**
 * The lenient `unwrap` rule: models send the arguments inside a wrapper, `{"arguments": {…}}`
 * (DeepSeek, Qwen, GLM through several serving engines), repeat the whole call,
 * `{"name": "<this tool>", "arguments": {…}}`, or echo the schema's shape,
 * `{"properties": {…}}` (with `"type": "object"` beside it or not); the object inside may be sent as
 * JSON text (`{"arguments": "{…}"}`, DeepSeek V4 through vLLM). The object inside is the
 * arguments when the root schema declares none of the wrapper's keys and the object inside has no
 * key it does not declare. Its one competing reading, the wrapper as sent, is one the schema never
 * takes under those conditions (its key is undeclared at a root closed to other keys); the gate
 * sees both. Envelopes that are no such wrapper are refused by name (`envelopeRefusal`).
 */
import { isLosslessNumber, parseArgs } from '../json/lossless.js';
import { isPlainObject } from '../json/objects.js';
import type { PlanNode } from '../schema/plan.js';
import type { Proposal } from './gate.js';
import { previewOf } from './gate.js';
import type { Refusal } from './types.js';

/** The keys a wrapper puts the arguments under. */
const WRAPPER_KEYS: readonly string[] = ['arguments', 'parameters', 'input', 'args'];
/** The root keys of every envelope the rule reads: the wrappers' and the schema echo's. */
export const ENVELOPE_KEYS: readonly string[] = [...WRAPPER_KEYS, 'properties'];

/**
 * The one key under which a serving engine or an agent framework puts argument text it could not
 * parse as JSON, in place of the arguments (SGLang's `_raw_arguments`, and the frameworks' kin).
 */
const RAW_TEXT_KEYS: readonly string[] = ['_raw_arguments', '__raw_arguments', '__raw_arguments__'];

/** The keywords a schema echoed around the arguments may hold beside `properties`. */
const SCHEMA_KEYWORDS: readonly string[] = ['type', 'required', 'title', 'description', '$schema', 'additionalProperties'];

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
 * The key holding the arguments when `value` is an envelope: the only one of `WRAPPER_KEYS` (or
 * one of them beside `name` equal to `toolName`), or `properties` (alone, or beside schema
 * keywords only: `"type": "object"`, `required`, `title`, …); `undefined` for any other object.
 */
function envelopeKey(value: Record<string, unknown>, toolName: string | undefined): string | undefined {
  const keys = Object.keys(value);
  if (keys.length === 1) return ENVELOPE_KEYS.includes(keys[0]!) ? keys[0] : undefined;
  // The schema echoed whole: `properties` beside schema keywords only, `type` saying `object` (Camelid#703).
  if (keys.includes('properties') && (value['type'] === undefined || value['type'] === 'object') && keys.every((key) => key === 'properties' || SCHEMA_KEYWORDS.includes(key))) return 'properties';
  if (keys.length !== 2) return undefined;
  const named = toolName !== undefined && value['name'] === toolName ? keys.indexOf('name') : -1;
  const other = named === -1 ? undefined : keys[1 - named]!;
  return other !== undefined && WRAPPER_KEYS.includes(other) ? other : undefined;
}

/**
 * The arguments inside `value`, when it is a wrapper: an envelope (`envelopeKey`) holding a plain
 * object, or the strict JSON text of one, where the root is closed to other keys, declares none of the envelope's keys (nor any
 * of `WRAPPER_KEYS` and `name`) and declares every key of the inner object.
 *
 * @returns The inner object (the very one `value` holds, or the one its text holds), or `undefined` when `value` is no wrapper.
 */
function unwrapArguments(value: unknown, root: PlanNode, toolName: string | undefined): Unwrapped | undefined {
  const inner = envelopeInner(value, root, toolName);
  return inner !== undefined && Object.keys(inner).every((key) => root.declares(key)) ? { inner, keys: Object.keys(value as object) } : undefined;
}

/** The object an envelope holds, where the root could take it for the arguments (every condition but its keys' being declared). */
function envelopeInner(value: unknown, root: PlanNode, toolName: string | undefined): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined;
  const key = envelopeKey(value, toolName);
  if (key === undefined) return undefined;
  const held = value[key];
  const inner = typeof held === 'string' ? objectText(held) : held;
  if (!isPlainObject(inner) || root.shape().open) return undefined;
  return [...WRAPPER_KEYS, 'name', ...Object.keys(value)].some((name) => root.declares(name)) ? undefined : inner;
}

/**
 * The object a wrapper's string holds as strict JSON text (DeepSeek V4 through vLLM:
 * `{"arguments": "{\"location\": \"Beijing\"}"}`), its numbers kept as written; `undefined` for
 * any other text. Strict only: a repair inside the text would be a change no rule reported.
 */
function objectText(text: string): unknown {
  try {
    return parseArgs(text);
  } catch {
    return undefined;
  }
}

/**
 * A refusal, at the root, of arguments sent in an envelope no rule reads, saying what to send
 * instead: keyed by the tool's own name (`{"read_file": {…}}`), a whole Llama call
 * (`{"type": "function", "name": …, "parameters": …}`), a `multi_tool_use.parallel` wrapper of
 * several calls, a wrapper (or `properties` echo) holding a key the tool does not declare, or the
 * text an engine could not parse kept under its own key (`{"_raw_arguments": "{\"cmd\": …"}`), or
 * a wrapper key holding no object (`{"arguments": "ls -la"}`: which parameter the value is for is
 * not known).
 * Only at a root closed to other keys that declares none of the envelope's keys; `undefined` otherwise.
 */
export function envelopeRefusal(value: unknown, root: PlanNode, toolName: string | undefined): Refusal | undefined {
  if (!isPlainObject(value) || root.shape().open) return undefined;
  const keys = Object.keys(value);
  if (keys.some((key) => root.declares(key))) return undefined;
  let why: string | undefined;
  const inner = envelopeInner(value, root, toolName);
  if (inner !== undefined) {
    const undeclared = Object.keys(inner).find((key) => !root.declares(key))!;
    why = `they are inside an envelope (${keys.map((key) => JSON.stringify(key)).join(', ')}) that holds a key the tool does not declare (${JSON.stringify(undeclared)}); send the arguments alone, as one object of the tool's declared parameters`;
  } else if (keys.length === 1 && keys[0] === toolName && isPlainObject(value[toolName])) {
    why = `they are keyed by the tool's own name (${JSON.stringify(toolName)}); send the object under it alone, as the arguments`;
  } else if (value['type'] === 'function' && ('parameters' in value || 'arguments' in value || 'function' in value)) {
    why = 'they are a whole tool call in an envelope ({"type": "function", …}); send only the arguments object, with the tool\'s declared parameters as its keys';
  } else if (keys.includes('tool_uses') || value['recipient_name'] !== undefined) {
    why = 'they are a multi_tool_use.parallel wrapper of several calls; call each tool on its own, each with its own arguments object';
  } else if (keys.length === 1 && RAW_TEXT_KEYS.includes(keys[0]!) && typeof value[keys[0]!] === 'string') {
    why = `they are the text a serving engine or framework could not parse as JSON, kept under ${JSON.stringify(keys[0])} in place of the arguments (its text may be cut off or malformed); send the arguments again, as one complete JSON object`;
  } else if (keys.length === 1 && WRAPPER_KEYS.includes(keys[0]!) && !isPlainObject(value[keys[0]!])) {
    why = `they are a wrapper (${JSON.stringify(keys[0])}) holding ${kindOf(value[keys[0]!])}, not an object of the tool's parameters; send the arguments alone, as one object with the tool's declared parameters as its keys`;
  }
  if (why === undefined) return undefined;
  return { path: '', value, reason: 'unconvertible', expected: ['object'], message: `${previewOf(value)} at the root was left as it is: ${why}` };
}

/** What a wrapper holds instead of an object, in words: `a string`, `an array`, `null`, `a number`. */
function kindOf(held: unknown): string {
  if (held === null) return 'null';
  if (Array.isArray(held)) return 'an array';
  return isLosslessNumber(held) ? 'a number' : `a ${typeof held}`;
}
