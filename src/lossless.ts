/**
 * The lossless layer: JSON text to values whose numbers keep their literal text, and back.
 * The only module that imports lossless-json.
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';
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
