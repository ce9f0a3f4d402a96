/**
 * Keyword tables: how each JSON Schema keyword holds subschemas, and which of them the plan
 * follows. The loops that walk schemas stay generic; a new keyword is one table entry.
 */
import { isLosslessNumber } from '../json/lossless.js';
import { isWholeLiteral } from '../json/numbers.js';
import { hasOwn, isPlainObject } from '../json/objects.js';

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA: readonly string[] = [
  'items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties',
  'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema',
];

/** Keywords whose value is an array of subschemas (`items` only in draft-07 tuple form). */
export const ARRAY_SUBSCHEMAS: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/** Keywords whose value maps names to subschemas (`dependencies` only where a value is a schema). */
export const MAP_SUBSCHEMAS: readonly string[] = [
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies',
];

/** Applicators whose subschemas apply to the same value, every branch at once (union semantics). */
export const IN_PLACE_ARRAY: readonly string[] = ['allOf', 'anyOf', 'oneOf'];
/** Single in-place applicators that are followed; `not` and `if` never are. */
export const IN_PLACE_SINGLE: readonly string[] = ['then', 'else'];
/** Map-valued in-place applicators. */
export const IN_PLACE_MAP: readonly string[] = ['dependentSchemas', 'dependencies'];
/** Map-valued keywords whose subschemas apply to an object's property values. */
export const POSITIONAL_MAP: readonly string[] = ['properties', 'patternProperties'];
/** Keywords holding one subschema, or an array of them, that apply to child values. */
export const POSITIONAL: readonly string[] = ['additionalProperties', 'items', 'additionalItems', 'prefixItems'];
/** Reference keywords, resolved within the document. */
export const REF_KEYWORDS: readonly string[] = ['$ref', '$dynamicRef', '$recursiveRef'];

/**
 * Kinds of JSON value as bits of a mask. The kinds are disjoint: `integer` is a whole number and
 * `number` a number with a fractional part, so the type `"number"` is both bits and `"integer"`
 * the first alone, and masks intersect as the types do.
 */
export const TYPE_BITS = {
  null: 1,
  boolean: 2,
  integer: 4,
  number: 8,
  string: 16,
  array: 32,
  object: 64,
} as const;

/** A JSON type name. */
export type JsonType = keyof typeof TYPE_BITS;

/** Every type: what an unconstrained position accepts. */
export const ALL_TYPES = 127;

const TYPE_NAMES = Object.keys(TYPE_BITS) as JsonType[];
const NUMBERS = TYPE_BITS.integer | TYPE_BITS.number;

/** The type names a mask accepts, in a fixed order (`number` covers `integer`). */
export function typeNames(mask: number): JsonType[] {
  const names = TYPE_NAMES.filter((name) => (mask & TYPE_BITS[name]) !== 0);
  return (mask & NUMBERS) === NUMBERS ? names.filter((name) => name !== 'integer') : names;
}

/** The mask of a `type` keyword value (a name or an array of names); 0 when absent or malformed. */
export function typeMaskOf(type: unknown): number {
  if (typeof type === 'string') return bitsOf(type);
  if (!Array.isArray(type)) return 0;
  let mask = 0;
  for (const name of type) if (typeof name === 'string') mask |= bitsOf(name);
  return mask;
}

/** The bits of one type name; 0 for a name that is none, `constructor` and `__proto__` included. */
function bitsOf(name: string): number {
  if (name === 'number') return NUMBERS;
  return hasOwn(TYPE_BITS, name) ? (TYPE_BITS as Record<string, number>)[name]! : 0;
}

/**
 * The type bit of a value: a whole number is `integer`, one with a fraction `number`, a lossless
 * number by its literal. What is not JSON (a class instance, a function, `undefined`) is never
 * judged: it gets every bit.
 */
export function typeBitsOf(value: unknown): number {
  switch (typeof value) {
    case 'string': return TYPE_BITS.string;
    case 'boolean': return TYPE_BITS.boolean;
    case 'number': return Number.isInteger(value) ? TYPE_BITS.integer : TYPE_BITS.number;
    case 'bigint': return TYPE_BITS.integer;
    case 'object':
      if (value === null) return TYPE_BITS.null;
      if (Array.isArray(value)) return TYPE_BITS.array;
      if (isLosslessNumber(value)) return isWholeLiteral(value.value) ? TYPE_BITS.integer : TYPE_BITS.number;
      return isPlainObject(value) ? TYPE_BITS.object : ALL_TYPES;
    default: return ALL_TYPES;
  }
}

/** True when a value's JSON type is in `mask`. Values that are not JSON are never judged. */
export function accepts(mask: number, value: unknown): boolean {
  return mask === ALL_TYPES || (mask & typeBitsOf(value)) !== 0;
}

/** True when a `type` keyword value names `"integer"` (`"number"` does not count). */
export function declaresInteger(type: unknown): boolean {
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}
