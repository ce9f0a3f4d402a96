/**
 * Property tests (fast-check) of the schema-level lenient rules: flattened keys rebuild to the
 * object they were flattened from, optional nulls go and required keys stay, and text holding a
 * list separator is never wrapped. Seeded as `properties.test.ts` is (FC_SEED, FC_RUNS).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_RUNS'] ?? 300);
fc.configureGlobal({ seed, numRuns, endOnFailure: true });

type Schema = Record<string, unknown>;
const LENIENT = { lenient: true } as const;

/** Names that spell no path: no dot, no bracket (and `__proto__` among them, to keep it data). */
const NAME = fc.constantFrom('a', 'b', 'id', 'title', 'x_y', 'ü', '__proto__', 'k-1');
const LEAF = fc.constantFrom<Schema>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' });

/** Object schemas whose properties are leaves, objects, or arrays of objects, a few levels deep. */
const objectSchema: fc.Arbitrary<Schema> = fc.letrec<{ object: Schema; property: Schema }>((tie) => ({
  object: fc.dictionary(NAME, tie('property'), { minKeys: 1, maxKeys: 3 }).map((properties) => ({ type: 'object', properties })),
  property: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: LEAF, weight: 3 },
    { arbitrary: tie('object'), weight: 1 },
    { arbitrary: tie('object').map((items) => ({ type: 'array', items })), weight: 1 },
  ),
})).object;

/** A value of `schema`: every object has at least one key, every array one to three items. */
function valueOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema['type'] === 'string') return fc.string({ maxLength: 6 });
  if (schema['type'] === 'integer') return fc.integer({ min: -1000, max: 1000 });
  if (schema['type'] === 'boolean') return fc.boolean();
  if (schema['type'] === 'array') return fc.array(valueOf(schema['items'] as Schema), { minLength: 1, maxLength: 3 });
  const properties = schema['properties'] as Record<string, Schema>;
  const names = Object.keys(properties);
  return fc.subarray(names, { minLength: 1 }).chain((present) =>
    fc.tuple(...present.map((name) => valueOf(properties[name]!))).map((values) => {
      const object: Record<string, unknown> = {};
      present.forEach((name, i) => Object.defineProperty(object, name, { value: values[i], enumerable: true, writable: true, configurable: true }));
      return object;
    }),
  );
}

/**
 * The JSON text of `value` (an object) with its containers flattened into path keys, each one or
 * kept nested as `cut` says, read in order: `{"a":{"b":1}}` → `{"a.b":1}`.
 */
function flattenedText(value: Record<string, unknown>, cut: readonly boolean[]): string {
  let next = 0;
  const entries: string[] = [];
  // A key ends in a name (`a[0].b`, never `a[0]`): a container is kept whole only under a name.
  const visit = (prefix: string, child: unknown, mayKeep: boolean): void => {
    const container = typeof child === 'object' && child !== null;
    if (!container || (mayKeep && cut[next++ % cut.length] === true)) {
      entries.push(`${JSON.stringify(prefix)}:${JSON.stringify(child)}`);
      return;
    }
    if (Array.isArray(child)) child.forEach((item, i) => visit(`${prefix}[${i}]`, item, false));
    else for (const name of Object.keys(child)) visit(`${prefix}.${name}`, (child as Record<string, unknown>)[name], true);
  };
  for (const name of Object.keys(value)) {
    const child = value[name];
    if (typeof child === 'object' && child !== null) visit(name, child, false);
    else entries.push(`${JSON.stringify(name)}:${JSON.stringify(child)}`);
  }
  return `{${entries.join(',')}}`;
}

describe(`shape rules (seed ${seed}, ${numRuns} runs each)`, () => {
  test('a nested object flattened into a.b and a[0].b keys rebuilds to itself, on both paths', () => {
    const cases = objectSchema.chain((schema) => fc.tuple(fc.constant(schema), valueOf(schema), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 })));
    let rebuilt = 0;
    fc.assert(fc.property(cases, ([schema, value, cut]) => {
      deepFreeze(schema);
      const original = stringifyArgs(parseArgs(JSON.stringify(value)));
      const flat = flattenedText(value as Record<string, unknown>, cut);
      const args = deepFreeze(parseArgs(flat));
      const result = coerceArgs(args, schema, LENIENT);
      expect(stringifyArgs(result.value)).toBe(original);
      expect(result.refusals).toEqual([]);
      expect(coerceArgsJson(flat, schema, LENIENT)).toBe(original);
      expect(stringifyArgs(args)).toBe(stringifyArgs(parseArgs(flat)));
      for (const change of result.changes) expect(change.rule).toBe('flattened-key');
      if (result.changes.length > 0) rebuilt++;
    }));
    expect(rebuilt).toBeGreaterThan(numRuns / 4);
  });

  test('optional nulls are removed and every required key stays, at every depth', () => {
    const cases = objectSchema.chain((schema) =>
      fc.tuple(fc.constant(schema), valueOf(schema), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 })),
    );
    let removed = 0;
    fc.assert(fc.property(cases, ([schema, value, nulls, required]) => {
      // Some keys required, some values null, in a copy of each: the generated ones stay as drawn.
      let n = 0;
      let r = 0;
      const requireSome = (node: Schema): Schema => {
        if (node['type'] === 'array') return { ...node, items: requireSome(node['items'] as Schema) };
        if (node['type'] !== 'object') return node;
        const properties = Object.fromEntries(Object.entries(node['properties'] as Record<string, Schema>).map(([k, v]) => [k, requireSome(v)]));
        return { ...node, properties, required: Object.keys(properties).filter(() => required[r++ % required.length]) };
      };
      const nullSome = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(nullSome);
        if (typeof v !== 'object' || v === null) return v;
        return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, nulls[n++ % nulls.length] ? null : nullSome(child)]));
      };
      const strict = deepFreeze(requireSome(schema));
      const sent = nullSome(value);
      const args = deepFreeze(parseArgs(JSON.stringify(sent)));
      const { value: out, refusals } = coerceArgs(args, strict, LENIENT);

      // Walk sent and out side by side: a null under a required key stays (refused), one under an optional key is gone, nothing else moves.
      const expectedRefusals: string[] = [];
      const check = (node: Schema, before: unknown, after: unknown, path: string): void => {
        if (Array.isArray(before)) {
          expect((after as unknown[]).length).toBe(before.length);
          before.forEach((item, i) => check(node['items'] as Schema, item, (after as unknown[])[i], `${path}/${i}`));
          return;
        }
        if (typeof before !== 'object' || before === null) return;
        const properties = node['properties'] as Record<string, Schema>;
        const requiredNames = node['required'] as string[];
        const kept = Object.keys(before).filter((k) => (before as Record<string, unknown>)[k] !== null || requiredNames.includes(k));
        expect(Object.keys(after as object)).toEqual(kept);
        for (const key of kept) {
          const child = (before as Record<string, unknown>)[key];
          if (child === null) expectedRefusals.push(`${path}/${key}`);
          else check(properties[key]!, child, (after as Record<string, unknown>)[key], `${path}/${key}`);
        }
      };
      check(strict, sent, out, '');
      expect(refusals.map((refusal) => refusal.path).sort()).toEqual(expectedRefusals.sort());
      expect(refusals.every((refusal) => refusal.reason === 'unconvertible')).toBe(true);
      if (stringifyArgs(out) !== stringifyArgs(args)) removed++;
      // Idempotent, and the text path agrees.
      expect(coerceArgs(out, strict, LENIENT).changes).toEqual([]);
      expect(coerceArgsJson(stringifyArgs(args), strict, LENIENT)).toBe(stringifyArgs(out));
    }));
    expect(removed).toBeGreaterThan(numRuns / 4);
  });

  test('text holding a list separator between two pieces of text is never wrapped, on either path; text without one is', () => {
    const separator = fc.constantFrom(',', ';', '\n', '\r', '\r\n', ', ', '\t', '\u2028', '，', '、', '،');
    // Layout at either end of a string is not a separator: each side holds text.
    const piece = fc.string({ maxLength: 8 }).filter((s) => s.trim() !== '');
    const text = fc.tuple(piece, separator, piece).map(([a, s, b]) => a + s + b);
    const items = fc.constantFrom<Schema>({ type: 'string' }, { type: 'integer' }, { type: 'number' }, { type: 'boolean' }, { enum: ['a', 'b,c'] }, {});
    fc.assert(fc.property(text, items, (value, itemSchema) => {
      // Text that opens like an array or object is JSON text, another rule's (parsed, or refused).
      fc.pre(!/^\s*[[{]/.test(value));
      const schema = deepFreeze({ type: 'object', properties: { list: { type: 'array', items: itemSchema } } });
      const args = deepFreeze({ list: value });
      const result = coerceArgs(args, schema, LENIENT);
      expect(result.value).toBe(args);
      expect(result.changes).toEqual([]);
      expect(result.refusals.map(({ path, reason, expected }) => ({ path, reason, expected }))).toEqual([{ path: '/list', reason: 'ambiguous', expected: ['array'] }]);
      const json = JSON.stringify({ list: value });
      expect(coerceArgsJson(json, schema, LENIENT)).toBe(json);
    }));
    const plain = fc.string({ maxLength: 12 }).filter((s) => !/[,;\n\r]/.test(s) && !/^\s*[[{]/.test(s));
    fc.assert(fc.property(plain, (value) => {
      const schema = { type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } } };
      expect(coerceArgs({ list: value }, schema, LENIENT).value).toEqual({ list: [value] });
    }));
  });
});
