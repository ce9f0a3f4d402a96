/**
 * Writing lossless values as JSON text: every `LosslessNumber` exactly as spelled, iteratively, so
 * nesting depth costs memory, not stack; and a bounded preview of the same text.
 */
import { isLosslessNumber } from './lossless-number.js';
import { ArgsCycleError } from './errors.js';
import type { Container } from './walk-values.js';

/**
 * Serialises a value as compact JSON text, writing every `LosslessNumber` exactly as spelled
 * and every `bigint` as its digits. Everything else is written as `JSON.stringify` writes it
 * (`toJSON` is honoured; `undefined`, functions and symbols are left out of objects and are
 * `null` in arrays). Any depth of nesting is written.
 *
 * @param value - The value to write, typically from `parseArgs` or a coercion.
 * @returns The JSON text; `undefined`, functions and symbols at the top level give `"null"`.
 * @throws {ArgsCycleError} When the value contains itself (a cyclic object).
 * @example
 * stringifyArgs(parseArgs('{"a":1.50,"b":12345678901234567890}')) // '{"a":1.50,"b":12345678901234567890}'
 */
export function stringifyArgs(value: unknown): string {
  return writeArgs(value, Infinity);
}

/**
 * The beginning of `stringifyArgs(value)`, at most `maxChars` characters: a longer text is cut at
 * a character boundary (never inside a surrogate pair) and ends with `…`. Only about `maxChars`
 * characters are written, whatever the size or depth of the value, so a preview costs O(maxChars).
 *
 * @param value - The value to preview.
 * @param maxChars - The longest preview, `…` included (at least 1).
 * @throws {ArgsCycleError} When the value contains itself within the characters written.
 * @example
 * previewArgs({ q: 'a'.repeat(100) }, 10) // '{"q":"aaa…'
 */
export function previewArgs(value: unknown, maxChars: number): string {
  const text = writeArgs(value, maxChars);
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + '…';
}

/** `stringifyArgs`, stopping once more than `limit` characters are written. */
function writeArgs(value: unknown, limit: number): string {
  const first = scalarText(prepare(value, ''), limit);
  if (first !== undefined) return first ?? 'null';
  let out = '';
  const frames: { container: Container; keys: string[] | null; index: number; wrote: boolean }[] = [];
  const open = new Set<unknown>();
  const enter = (container: Container) => {
    if (open.has(container)) throw new ArgsCycleError();
    open.add(container);
    out += Array.isArray(container) ? '[' : '{';
    frames.push({ container, keys: Array.isArray(container) ? null : Object.keys(container), index: 0, wrote: false });
  };
  enter(prepare(value, '') as Container);
  while (frames.length > 0 && out.length <= limit) {
    const frame = frames[frames.length - 1]!;
    const { container, keys } = frame;
    const length = keys === null ? (container as unknown[]).length : keys.length;
    if (frame.index >= length) {
      out += keys === null ? ']' : '}';
      open.delete(container);
      frames.pop();
      continue;
    }
    const at = frame.index++;
    const key = keys === null ? String(at) : keys[at]!;
    const item = prepare((container as Record<string, unknown>)[key], key);
    const text = scalarText(item, limit);
    if (keys === null) {
      if (at > 0) out += ',';
      if (text === undefined) enter(item as Container);
      else out += text ?? 'null';
    } else if (text !== null) {
      // Reading the output back would flatten the rope being built on every member: keep a flag.
      if (frame.wrote) out += ',';
      frame.wrote = true;
      out += JSON.stringify(key) + ':';
      if (text === undefined) enter(item as Container);
      else out += text;
    }
  }
  return out;
}

/** Applies `toJSON`, as `JSON.stringify` does (a `LosslessNumber` is written as it is). */
function prepare(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return toJSON.call(value, key) as unknown;
  }
  return value;
}

/**
 * The JSON text of a scalar; `undefined` for an array or object to open; `null` for what JSON
 * cannot hold (left out of objects, `null` in arrays).
 */
function scalarText(value: unknown, limit: number): string | null | undefined {
  switch (typeof value) {
    // Past `limit` characters the text is cut: writing no more of a long string keeps a preview bounded.
    case 'string': return JSON.stringify(value.length > limit ? value.slice(0, limit + 1) : value);
    case 'number': return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (isLosslessNumber(value)) return value.value;
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
      return undefined;
    default: return null;
  }
}
