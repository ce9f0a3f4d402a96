import fc from 'fast-check';
import { LosslessNumber } from '../../src/index.js';

/** Keys shared by schemas and values, so generated arguments meet generated properties often. */
const KEYS = ['a', 'b', 'c', 'p1', 'n', '__proto__', 'constructor', 'a/b', 'ü'];
const TYPES = ['integer', 'number', 'string', 'boolean', 'null', 'array', 'object'] as const;

export interface SchemaOptions {
  /** Use only 2020-12 forms (no array-form `items`, no `additionalItems`), for Ajv 2020. */
  readonly draft2020Only?: boolean;
}

/** JSON Schemas, `$ref`s to the root and to `$defs` (cycles included) among them. */
export function schemaArbitrary(options: SchemaOptions = {}): fc.Arbitrary<unknown> {
  const { schema } = fc.letrec<{ schema: unknown; object: Record<string, unknown> }>((tie) => {
    const sub = tie('schema');
    const keyword = fc.oneof(
      { arbitrary: fc.record({ type: fc.oneof(fc.constantFrom(...TYPES, 'integer', 'integer', 'object'), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })) }), weight: 6 },
      { arbitrary: fc.record({ properties: fc.dictionary(fc.constantFrom(...KEYS), sub, { minKeys: 1, maxKeys: 3 }) }), weight: 5 },
      fc.record({ patternProperties: fc.dictionary(fc.constantFrom('^p', '^[ab]$', '\\d$'), sub, { maxKeys: 2 }) }),
      fc.record({ additionalProperties: fc.oneof(fc.boolean(), sub) }),
      fc.record({ required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }) }),
      fc.record({ items: sub }),
      fc.record({ prefixItems: fc.array(sub, { maxLength: 3 }), items: fc.oneof(fc.constant(false), sub) }, { requiredKeys: ['prefixItems'] }),
      ...(options.draft2020Only ? [] : [fc.record({ items: fc.array(sub, { maxLength: 3 }), additionalItems: sub }, { requiredKeys: ['items'] })]),
      fc.record({ anyOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(sub, { minLength: 1, maxLength: 3 }) }),
      fc.record({ allOf: fc.array(sub, { minLength: 1, maxLength: 2 }) }),
      fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ['if'] }),
      fc.record({ not: sub }),
      fc.record({ enum: fc.array(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('x', '5', true, null)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ const: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('x', false, null)) }),
      fc.constantFrom({ $ref: '#' }, { $ref: '#/$defs/int' }, { $ref: '#/$defs/node' }, { $ref: '#/$defs/missing' }),
    );
    return {
      object: fc.array(keyword, { minLength: 1, maxLength: 3 }).map((parts) => Object.assign({}, ...parts) as Record<string, unknown>),
      schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, { arbitrary: fc.boolean(), weight: 1 }, { arbitrary: tie('object'), weight: 4 }),
    };
  });
  const object = schema.filter((s) => typeof s === 'object' && s !== null);
  return fc.tuple(fc.oneof({ arbitrary: object, weight: 9 }, { arbitrary: schema, weight: 1 }), schema).map(([root, node]) => {
    if (typeof root !== 'object' || root === null) return root;
    return { ...root, $defs: { int: { type: 'integer' }, node: { type: 'object', properties: { n: { type: 'integer' }, next: { $ref: '#/$defs/node' } } }, extra: node } };
  });
}

/**
 * JSON number literals of every shape: an integer part of 1 to 25 digits, a fraction of arbitrary
 * digits (zeros mostly, so `5.0`, `5.05`, `5.001` and `5.000000000000000001` all come up), and an
 * exponent (`e`/`E`, signed or not, small or huge). Whole values sit at and around the fast path.
 */
export const anyLiteralArbitrary: fc.Arbitrary<string> = (() => {
  const digit = fc.oneof({ arbitrary: fc.constant('0'), weight: 4 }, { arbitrary: fc.constantFrom('1', '2', '5', '9'), weight: 1 });
  const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((d) => d.join(''));
  const integerPart = fc.oneof(
    fc.constant('0'),
    fc.tuple(fc.constantFrom('1', '2', '5', '9'), digits(0, 24)).map(([head, tail]) => head + tail),
    fc.constantFrom('9007199254740991', '9007199254740992', '9223372036854775807', '9223372036854775808', '999999999999999', '1000000000000000'),
  );
  const fraction = fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: digits(1, 20).map((d) => `.${d}`), weight: 4 });
  const exponent = fc.oneof(
    { arbitrary: fc.constant(''), weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 30 })).map(([e, s, n]) => `${e}${s}${n}`), weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.constantFrom('00', '01', '400', '4200', '99999999999999999999')).map(([s, n]) => `e${s}${n}`), weight: 1 },
  );
  return fc.tuple(fc.constantFrom('', '-'), integerPart, fraction, exponent).map((parts) => parts.join(''));
})();

/** A number literal in one of the spellings pipelines write. */
export const literalArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.integer({ min: -1000, max: 1000 }).map((n) => `${n}.0`),
  fc.integer({ min: -99, max: 99 }).map((n) => `${n}.5`),
  fc.integer({ min: 0, max: 20 }).map((e) => `1e${e}`),
  fc.integer({ min: 1, max: 5 }).map((e) => `25e-${e}`),
  fc.constantFrom('-0', '-0.0', '0.5e1', '1E3', '9007199254740993', '1730419200000123.0', '12345678901234567890', '1e20', '9223372036854775807.0', '1e400'),
  anyLiteralArbitrary,
);

/** JSON values whose numbers are `LosslessNumber`s, with strings a lenient mode could read. */
export const valueArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('5', ' 2 ', '5.0', '1e3', '0x10', '', 'true', 'false', '0', 'null', '[1,2.0]', '{"n":3.0}', '急件', '\ud800')),
    literalArbitrary.map((literal) => new LosslessNumber(literal)),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 4 }).map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
})).value;

/** Whole-number spellings a float64 pipeline writes, and others, for integer positions. */
const wholeLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -100, max: 100 }).map((n) => `${n}.0`),
  fc.constantFrom('1e3', '0.5e1', '-0.0', '5', '1730419200000.0', '9223372036854775807.0', '1e20', '5.5', '12345678901234567890'),
  anyLiteralArbitrary,
);

/** Strings a model sends where other types belong. */
const trickyString = fc.constantFrom('5', ' 2 ', '5.0', '-3.5', '1e3', '0x10', '', 'true', 'false', '1', '0', 'null', '[1,2.0]', '{"n":3.0}', '急件', 'abc');

/**
 * A schema and arguments shaped by it: values mostly follow the schema's properties, items,
 * branches and refs, in every spelling, with random values mixed in. Shrinks like any arbitrary.
 */
export function caseArbitrary(options: SchemaOptions = {}): fc.Arbitrary<[unknown, unknown]> {
  return schemaArbitrary(options).chain((schema) => valueFor(schema, schema, 0).map((value) => [schema, value] as [unknown, unknown]));
}

/** An arbitrary built only when a value is drawn from it, so recursion follows the drawn path alone. */
function lazy(make: () => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.constant(null).chain(make);
}

function valueFor(schema: unknown, root: unknown, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4 || typeof schema !== 'object' || schema === null) return valueArbitrary;
  const s = schema as Record<string, unknown>;
  const options: fc.Arbitrary<unknown>[] = [valueArbitrary];
  const ref = s['$ref'];
  if (typeof ref === 'string') {
    const target = ref === '#' ? root : ((root as Record<string, Record<string, unknown>>)['$defs'] ?? {})[ref.replace('#/$defs/', '')];
    if (target !== undefined) options.push(lazy(() => valueFor(target, root, depth + 1)));
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const branches = s[keyword];
    if (Array.isArray(branches)) for (const branch of branches) options.push(lazy(() => valueFor({ ...s, [keyword]: undefined, ...(branch as object) }, root, depth + 1)));
  }
  if (Array.isArray(s['enum'])) options.push(fc.constantFrom(...(s['enum'] as unknown[])));
  const types = typeof s['type'] === 'string' ? [s['type']] : Array.isArray(s['type']) ? s['type'] : [];
  if (s['properties'] !== undefined || s['additionalProperties'] !== undefined) types.push('object');
  if (s['items'] !== undefined || s['prefixItems'] !== undefined) types.push('array');
  for (const type of types) {
    switch (type) {
      case 'integer': options.push(wholeLiteral.map((l) => new LosslessNumber(l)), wholeLiteral.map((l) => new LosslessNumber(l)), trickyString); break;
      case 'number': options.push(literalArbitrary.map((l) => new LosslessNumber(l)), trickyString); break;
      case 'string': options.push(fc.string({ maxLength: 4 }), trickyString, literalArbitrary.map((l) => new LosslessNumber(l))); break;
      case 'boolean': options.push(fc.boolean(), fc.constantFrom('true', 'false', '1', '0', 'no'), fc.constantFrom(0, 1).map((n) => new LosslessNumber(String(n)))); break;
      case 'null': options.push(fc.constantFrom(null, 'null')); break;
      case 'array': options.push(lazy(() => arrayFor(s, root, depth))); break;
      case 'object': options.push(lazy(() => objectFor(s, root, depth))); break;
    }
  }
  return fc.oneof(...options);
}

function objectFor(s: Record<string, unknown>, root: unknown, depth: number): fc.Arbitrary<unknown> {
  const properties = (typeof s['properties'] === 'object' && s['properties'] !== null ? s['properties'] : {}) as Record<string, unknown>;
  const extra = typeof s['additionalProperties'] === 'object' ? valueFor(s['additionalProperties'], root, depth + 1) : valueArbitrary;
  const members = Object.keys(properties).map((key) => fc.option(valueFor(properties[key], root, depth + 1), { nil: undefined, freq: 3 }).map((value) => [key, value] as const));
  return fc.tuple(fc.tuple(...members), fc.option(fc.tuple(fc.constantFrom('x', 'p2', 'qq'), extra), { nil: undefined })).map(([entries, more]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of more === undefined ? entries : [...entries, more]) {
      if (value !== undefined) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return object;
  });
}

function arrayFor(s: Record<string, unknown>, root: unknown, depth: number): fc.Arbitrary<unknown> {
  const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : Array.isArray(s['items']) ? s['items'] : [];
  const rest = Array.isArray(s['items']) ? s['additionalItems'] : s['items'];
  return fc.tuple(
    fc.tuple(...prefix.map((item) => valueFor(item, root, depth + 1))),
    fc.array(rest === false ? valueArbitrary : valueFor(rest, root, depth + 1), { maxLength: 2 }),
  ).map(([head, tail]) => [...head, ...tail]);
}
