/**
 * Arguments for a schema, written the way a float64 pipeline (protobuf `Struct`, Go, Python)
 * writes them: every whole number as `N.0`. Deterministic, so every run measures the same text.
 */

type Json = Record<string, unknown>;

const MAX_DEPTH = 6;

/** A plausible argument value for `schema` (local `$ref`s followed, depth bounded). */
export function generateArgs(schema: unknown, root: unknown = schema, depth = 0, seed = 1): unknown {
  const s = resolve(schema, root);
  if (typeof s !== 'object' || s === null) return 'value';
  const node = s as Json;
  if (Array.isArray(node['enum']) && node['enum'].length > 0) return node['enum'][0];
  if ('const' in node) return node['const'];
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = node[keyword];
    if (Array.isArray(branches)) {
      const branch = branches.find((b) => (b as Json)?.['type'] !== 'null') ?? branches[0];
      return generateArgs({ ...node, [keyword]: undefined, ...(branch as Json) }, root, depth, seed);
    }
  }
  if (Array.isArray(node['allOf'])) {
    const merged: Json = { ...node, allOf: undefined };
    for (const part of node['allOf']) {
      const p = resolve(part, root) as Json;
      merged['properties'] = { ...(merged['properties'] as Json), ...(p?.['properties'] as Json) };
      if (merged['type'] === undefined && p?.['type'] !== undefined) merged['type'] = p['type'];
    }
    return generateArgs(merged, root, depth, seed);
  }
  const type = typeOf(node);
  switch (type) {
    case 'integer': return withinBounds(node, 3 + seed * 7, 1);
    case 'number': return withinBounds(node, seed % 2 === 0 ? 2 : 2.5, 0.5);
    case 'boolean': return true;
    case 'null': return null;
    case 'string': return stringFor(node, seed);
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const items = Array.isArray(node['prefixItems']) ? node['prefixItems'] : [node['items'], node['items']];
      return items.filter((item) => item !== undefined && item !== false).map((item, i) => generateArgs(item, root, depth + 1, seed + i + 1));
    }
    default: {
      if (depth >= MAX_DEPTH) return {};
      const properties = (node['properties'] ?? {}) as Json;
      const out: Json = {};
      Object.keys(properties).forEach((key, i) => {
        out[key] = generateArgs(properties[key], root, depth + 1, seed + i + 1);
      });
      return out;
    }
  }
}

/** JSON text with every whole number written `N.0`, as `serde_json::Number::from_f64` writes it. */
export function floatify(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}.0` : String(value);
  if (Array.isArray(value)) return `[${value.map(floatify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${floatify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `value` moved inside `minimum`/`maximum` and their exclusive forms (`step` past an exclusive bound). */
function withinBounds(node: Json, value: number, step: number): number {
  let out = value;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = node;
  if (typeof maximum === 'number') out = Math.min(out, maximum);
  if (typeof exclusiveMaximum === 'number') out = Math.min(out, exclusiveMaximum - step);
  if (typeof minimum === 'number') out = Math.max(out, minimum);
  if (typeof exclusiveMinimum === 'number') out = Math.max(out, exclusiveMinimum + step);
  return out;
}

function resolve(schema: unknown, root: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref = (current as Json | null)?.['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith('#')) return current;
    let target: unknown = root;
    for (const token of ref.slice(1).split('/').filter(Boolean)) {
      target = (target as Json | null)?.[decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    current = target === undefined ? {} : { ...(target as Json), ...(current as Json), $ref: undefined };
  }
  return current;
}

function typeOf(node: Json): string {
  const type = node['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string | undefined) ?? 'null';
  if (node['properties'] !== undefined) return 'object';
  if (node['items'] !== undefined || node['prefixItems'] !== undefined) return 'array';
  return 'string';
}

function stringFor(node: Json, seed: number): string {
  switch (node['format']) {
    case 'date-time': return '2026-11-29T12:00:00Z';
    case 'date': return '2026-11-29';
    case 'uri': case 'url': return 'https://example.com/resource';
    case 'email': return 'user@example.com';
    case 'uuid': return '123e4567-e89b-12d3-a456-426614174000';
    default: return `text value ${seed}`;
  }
}
