/**
 * The lossless layer: JSON text to values whose numbers keep their literal text, and back.
 * The only module that imports lossless-json.
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';
import { copyObject, isPlainObject, setOwn } from './_utils.js';
import { ArgsParseError, locate } from './errors.js';

export { LosslessNumber, isLosslessNumber };

const POSITION = /(?:at position|position) (\d+)/;

/**
 * Parses JSON text into a value whose numbers are `LosslessNumber`s, so `5`, `5.0`, `1e3` and a
 * 25-digit integer all keep their spelling. Keys named `__proto__` are kept as own data.
 * Duplicate keys with different values are refused (servers disagree on which one wins).
 *
 * @param text - JSON text, e.g. a model's tool-call `arguments` string.
 * @returns The parsed value.
 * @throws {ArgsParseError} When `text` is not a string of valid JSON; the message names the position.
 * @example
 * parseArgs('{"line":5.0}') // { line: LosslessNumber { value: '5.0' } }
 */
export function parseArgs(text: string): unknown {
  if (typeof text !== 'string') throw new ArgsParseError(`expected a string, got ${describe(text)}`);
  try {
    return parse(text);
  } catch (error) {
    throw toParseError(text, error);
  }
}

/**
 * Serialises a value as compact JSON text, writing every `LosslessNumber` exactly as spelled
 * and every `bigint` as its digits. Plain numbers are written as `JSON.stringify` does.
 *
 * @param value - The value to write, typically from `parseArgs` or a coercion.
 * @returns The JSON text; `undefined`, functions and symbols at the top level give `"null"`.
 * @example
 * stringifyArgs(parseArgs('{"a":1.50,"b":12345678901234567890}')) // '{"a":1.50,"b":12345678901234567890}'
 */
export function stringifyArgs(value: unknown): string {
  return stringify(value) ?? 'null';
}

function toParseError(text: string, error: unknown): ArgsParseError {
  if (error instanceof RangeError) {
    return new ArgsParseError('nesting too deep for the object parser');
  }
  const message = error instanceof Error ? error.message : String(error);
  const match = POSITION.exec(message);
  const reason = message.replace(/\s*\(?at position \d+\)?/, '').replace(/ encountered at position \d+/, '');
  return new ArgsParseError(reason, match ? locate(text, Number(match[1])) : undefined);
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * A copy of `value` with every `LosslessNumber` turned into a plain `number`, for consumers
 * that only understand plain JSON values (validators, `JSON.stringify`). Digits beyond float64
 * precision are lost in the copy, never in `value`; whole numbers stay whole numbers.
 *
 * @param value - A value from `parseArgs` or a coercion.
 * @returns The same reference when it holds no lossless number; otherwise a copy. A cyclic
 *   reference is kept as it is.
 */
export function toPlainNumbers(value: unknown): unknown {
  return plainCopy(value, new Set());
}

function plainCopy(value: unknown, ancestors: Set<unknown>): unknown {
  if (isLosslessNumber(value)) return Number(value.value);
  const array = Array.isArray(value);
  if ((!array && !isPlainObject(value)) || ancestors.has(value)) return value;
  ancestors.add(value);
  let copy: unknown[] | Record<string, unknown> | undefined;
  if (array) {
    const items = value as unknown[];
    items.forEach((item, index) => {
      const plain = plainCopy(item, ancestors);
      if (plain !== item) ((copy ??= items.slice()) as unknown[])[index] = plain;
    });
  } else {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const plain = plainCopy(object[key], ancestors);
      if (plain !== object[key]) setOwn((copy ??= copyObject(object)) as Record<string, unknown>, key, plain);
    }
  }
  ancestors.delete(value);
  return copy ?? value;
}
