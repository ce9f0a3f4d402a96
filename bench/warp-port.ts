/**
 * A literal port of Warp's `coerce_integer_args` (seed 000) to JavaScript, over lossless values,
 * kept as the benchmark's baseline. Like the Rust original it mutates the arguments in place,
 * visits every combinator branch, reads `properties`, object-form `additionalProperties` and
 * object or tuple `items`, and skips `$ref`. Whole-number tests go through float64, as there.
 */
import { LosslessNumber, isLosslessNumber } from '../src/index.js';

type Json = Record<string, unknown>;

const INTEGER_LITERAL = /^-?\d+$/;
const I64_MIN = -(2 ** 63);
const I64_MAX = 2 ** 63;

/** Warp's entry point: wraps the map as a value and walks it against the schema. */
export function warpCoerceIntegerArgs(args: Json, inputSchema: Json): void {
  coerceValueAgainstSchema(args, inputSchema);
}

function schemaDeclaresInteger(schema: unknown): boolean {
  const type = (schema as Json | null)?.['type'];
  if (typeof type === 'string') return type === 'integer';
  if (Array.isArray(type)) return type.some((t) => t === 'integer');
  return false;
}

function coerceNumberToInt(n: LosslessNumber): LosslessNumber {
  const f = Number(n.value); // as_f64
  if (INTEGER_LITERAL.test(n.value)) return n; // is_i64 || is_u64
  if (f % 1 !== 0) return n; // fract() != 0.0
  if (f >= I64_MIN && f < I64_MAX) return new LosslessNumber(BigInt(f).toString()); // i64::try_from(f as i128)
  return n;
}

function coerceValueAgainstSchema(value: unknown, schema: unknown): unknown {
  let current = value;
  if (schemaDeclaresInteger(schema) && isLosslessNumber(current)) current = coerceNumberToInt(current);
  for (const combinator of ['oneOf', 'anyOf', 'allOf']) {
    const branches = (schema as Json | null)?.[combinator];
    if (Array.isArray(branches)) for (const branch of branches) current = coerceValueAgainstSchema(current, branch);
  }
  if (typeof current === 'object' && current !== null && !Array.isArray(current) && !isLosslessNumber(current)) {
    const map = current as Json;
    const properties = (schema as Json | null)?.['properties'] as Json | undefined;
    const additional = (schema as Json | null)?.['additionalProperties'];
    for (const key of Object.keys(map)) {
      const propertySchema = typeof properties === 'object' && properties !== null ? properties[key] : undefined;
      if (propertySchema !== undefined) map[key] = coerceValueAgainstSchema(map[key], propertySchema);
      else if (typeof additional === 'object' && additional !== null) map[key] = coerceValueAgainstSchema(map[key], additional);
    }
  } else if (Array.isArray(current)) {
    const items = (schema as Json | null)?.['items'];
    if (Array.isArray(items)) {
      for (let i = 0; i < Math.min(current.length, items.length); i++) current[i] = coerceValueAgainstSchema(current[i], items[i]);
    } else if (typeof items === 'object' && items !== null) {
      for (let i = 0; i < current.length; i++) current[i] = coerceValueAgainstSchema(current[i], items);
    }
  }
  return current;
}
