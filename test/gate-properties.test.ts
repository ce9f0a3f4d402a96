/**
 * Property tests of the gate (fast-check; `FC_RUNS` sets the runs, `FC_SEED` the seed): keys with
 * dots, slashes, brackets and non-ASCII text under schemas that mix open maps, pattern properties,
 * additional properties, declared dotted names and names a key may be renamed to; strings holding
 * every list separator; layout around a value. An oracle outside the library enumerates a key's
 * readings (every way of reading its dots and indexes, as sent, renamed) and judges each with Ajv
 * and the undeclared-key check; the library must take a key's reading only when it is the one the
 * oracle finds valid, refuse it naming the readings when there are two, and give one answer
 * through `coerceArgs`, `coerceArgsJson` and `prepareToolCall` with and without renaming.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs, type Refusal } from '../src/index.js';
import { validateArgs } from '../src/validate.js';

const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_RUNS'] ?? 100);
fc.configureGlobal({ seed, numRuns, endOnFailure: true });
const LENIENT = { lenient: true } as const;
type Schema = Record<string, unknown>;

const STRING = { type: 'string' };
/** Schemas a first name may have: open, a map of strings, declared dotted names, patterns, closed, a scalar, a list. */
const HEADS: readonly Schema[] = [
  { type: 'object' },
  { type: 'object', additionalProperties: STRING },
  { type: 'object', properties: { 'b.c': STRING, b: { type: 'object', properties: { c: STRING } } } },
  { type: 'object', patternProperties: { '^[a-z./名]+$': STRING }, additionalProperties: false },
  { type: 'object', properties: { a: STRING, b: { type: 'object', properties: { c: STRING, 'c/d': STRING } } } },
  STRING,
  { type: 'array', items: { type: 'object', properties: { a: STRING, 'a.b': STRING } } },
  { type: 'array' },
];
const NAMES = ['a', 'b', 'a.b', 'x/y', '名', 'list'] as const;

/** A root schema: some first names declared, maybe a name a key normalises to, maybe open or patterned. */
const schemaArbitrary: fc.Arbitrary<Schema> = fc
  .record({
    // The closed shapes (declared names, patterns, declared dotted names) twice as often as the open ones.
    heads: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }).chain((names) => fc.tuple(fc.constant(names), fc.array(fc.constantFrom(...HEADS, HEADS[2]!, HEADS[3]!, HEADS[4]!, HEADS[6]!), { minLength: names.length, maxLength: names.length }))),
    renamed: fc.option(fc.constantFrom('aB', 'a_b_c', 'aBC', 'xY'), { nil: undefined }),
    // A root closed to other keys half the time, so the key as sent is often no reading.
    extra: fc.constantFrom<Schema>({}, {}, {}, { additionalProperties: true }, { additionalProperties: STRING }, { patternProperties: { '\\.': STRING } }),
  })
  .map(({ heads: [names, schemas], renamed, extra }) => {
    const properties: Record<string, unknown> = Object.fromEntries(names.map((name, i) => [name, schemas[i]]));
    if (renamed !== undefined) properties[renamed] = STRING;
    return { type: 'object', properties, ...extra };
  });

/** A key that starts with a declared first name: then names and indexes, some holding dots, slashes, brackets or non-ASCII text. */
const keyArbitrary = (schema: Schema): fc.Arbitrary<string> => {
  const heads = Object.keys(schema['properties'] as object);
  const segment = fc.constantFrom('a', 'b', 'c', 'b.c', 'c/d', 'é', '名', 'x[y]', '[', 'X-Api', 'a.b');
  const step = fc.oneof({ arbitrary: segment.map((name) => `.${name}`), weight: 4 }, { arbitrary: segment.map((name) => `[0].${name}`), weight: 1 });
  return fc.tuple(fc.constantFrom(...heads), fc.array(step, { minLength: 1, maxLength: 3 })).map(([head, steps]) => head + steps.join(''));
};

/** A boundary of a key: a dot, or an index `[n]`. */
interface Boundary {
  readonly at: number;
  readonly next: number;
  readonly index?: number;
}

/** Every reading of `key` as steps: each subset of its boundaries read as steps, where that spells a path ending in a name. */
function segmentations(key: string): (string | number)[][] {
  const boundaries: Boundary[] = [];
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '.') boundaries.push({ at: i, next: i + 1 });
    const index = /^\[(0|[1-9]\d*)\]/.exec(key.slice(i));
    if (index !== null) boundaries.push({ at: i, next: i + index[0].length, index: Number(index[1]) });
  }
  const readings: (string | number)[][] = [];
  for (let mask = 0; mask < 1 << boundaries.length; mask++) {
    const steps: (string | number)[] = [];
    let start = 0;
    let afterIndex = false;
    let valid = true;
    for (const [i, { at, next, index }] of boundaries.entries()) {
      if ((mask & (1 << i)) === 0) continue;
      const name = key.slice(start, at);
      // A name is never empty, except where nothing stands between an index and the boundary after it;
      // an index is followed by a boundary at once.
      if (at < start || (name === '' ? !afterIndex : afterIndex)) valid = false;
      if (name !== '') steps.push(name);
      if (index !== undefined) steps.push(index);
      afterIndex = index !== undefined;
      start = next;
    }
    const last = key.slice(start);
    // The key ends in a name.
    if (!valid || last === '' || afterIndex) continue;
    steps.push(last);
    readings.push(steps);
  }
  return readings;
}

/** The arguments a reading makes of `{ [key]: value }`. */
function place(steps: readonly (string | number)[], value: unknown): unknown {
  let placed = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    placed = typeof step === 'number' ? [...Array(step).fill(null), placed] : { [step]: placed };
  }
  return placed;
}

const normal = (name: string): string => name.toLowerCase().replace(/[\s_.-]+/g, '');
const pointer = (steps: readonly (string | number)[]): string => steps.map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** The oracle: each reading of the key, its path and its arguments, and whether Ajv and the undeclared-key check take them. */
function oracle(schema: Schema, key: string, value: unknown): { path: string; args: unknown; valid: boolean; rename: boolean }[] {
  const renames = Object.keys(schema['properties'] as object).filter((name) => name !== key && normal(name) === normal(key)).map((name) => [name]);
  return [...segmentations(key), ...renames].map((steps, i, all) => {
    const args = place(steps, value);
    return { path: pointer(steps), args, valid: validateArgs(args, schema, { rejectUndeclared: true }).ok, rename: i >= all.length - renames.length };
  });
}

const ambiguity = (refusals: readonly Refusal[], path: string): Refusal | undefined => refusals.find((refusal) => refusal.reason === 'ambiguous' && refusal.path === path);

describe(`the gate (seed ${seed}, ${numRuns} runs each)`, () => {
  test('a dotted key is rebuilt only into its one valid reading, refused naming its readings when there are two, and read alike by every entry point', () => {
    const cases = schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), keyArbitrary(schema)));
    let refused = 0;
    let rebuilt = 0;
    fc.assert(fc.property(cases, ([schema, key]) => {
      const value = 'v';
      const text = JSON.stringify({ [key]: value });
      const result = coerceArgs(parseArgs(text), schema, LENIENT);
      // A declared name is the schema's own: never read as a path.
      if (key in (schema['properties'] as object)) {
        expect(Object.keys(result.value as object)).toEqual([key]);
        expect(ambiguity(result.refusals, pointer([key]))).toBeUndefined();
        return;
      }
      const readings = oracle(schema, key, value);
      const valid = readings.filter((reading) => reading.valid);
      const out = stringifyArgs(result.value);
      const refusal = ambiguity(result.refusals, pointer([key]));
      if (valid.length >= 2) {
        expect(refusal, `${key}: ${valid.map((r) => r.path).join(' ')}`).toBeDefined();
        expect(out).toBe(text);
        // It names at least two readings, each one the oracle finds valid.
        expect(refusal!.readings!.length).toBeGreaterThanOrEqual(2);
        for (const named of refusal!.readings!) expect(valid.map((reading) => reading.path)).toContain(named.path);
        refused++;
      } else if (valid.length === 1 && !valid[0]!.rename && valid[0]!.path !== pointer([key])) {
        expect(refusal).toBeUndefined();
        expect(out).toBe(JSON.stringify(valid[0]!.args));
        rebuilt++;
      } else if (valid.length === 1) {
        // Valid as sent, or only as a rename (which renameUnambiguous writes): left as sent.
        expect(refusal).toBeUndefined();
        expect(out).toBe(text);
      } else if (out !== text) {
        // No reading the schema takes whole: a change is to a reading whose shape it takes.
        expect(readings.map((reading) => JSON.stringify(reading.args))).toContain(out);
      }
      // Every entry point gives the same answer.
      expect(stringifyArgs(parseArgs(coerceArgsJson(text, schema, LENIENT)))).toBe(out);
      const call = prepareToolCall(text, schema, LENIENT);
      expect(stringifyArgs(parseArgs(call.json))).toBe(out);
      expect(call.refusals).toEqual(result.refusals);
      const renamed = prepareToolCall(text, schema, { ...LENIENT, renameUnambiguous: true });
      if (renamed.changes.some((change) => change.rule === 'rename-key')) {
        expect(valid.length === 1 && valid[0]!.rename).toBe(true);
        expect(stringifyArgs(parseArgs(renamed.json))).toBe(JSON.stringify(valid[0]!.args));
      } else {
        expect(renamed.json).toBe(call.json);
        expect(renamed.refusals).toEqual(call.refusals);
      }
    }));
    // The generator reaches both outcomes.
    expect(refused).toBeGreaterThan(numRuns / 20);
    expect(rebuilt).toBeGreaterThan(numRuns / 50);
  });

  test('a string holding any list separator between two pieces of text is refused at an array position, naming its readings, everywhere', () => {
    const piece = fc.string({ minLength: 1, maxLength: 6 }).filter((text) => text.trim() !== '' && !/^\s*[[{]/.test(text));
    const items = fc.constantFrom<Schema>(STRING, { type: 'integer' }, { type: 'boolean' }, {});
    fc.assert(fc.property(piece, fc.constantFrom(...SEPARATORS), piece, items, (before, separator, after, itemSchema) => {
      const schema = { type: 'object', properties: { list: { type: 'array', items: itemSchema } } };
      const text = JSON.stringify({ list: before + separator + after });
      const result = coerceArgs(parseArgs(text), schema, LENIENT);
      expect(result.changes).toEqual([]);
      expect(result.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '/list', reason: 'ambiguous' }]);
      const rules = result.refusals[0]!.readings!.map((reading) => reading.rule);
      expect(rules).toContain('list-split');
      if (itemSchema === STRING) expect(rules).toEqual(['wrap-in-array', 'list-split']);
      expect(coerceArgsJson(text, schema, LENIENT)).toBe(text);
      expect(prepareToolCall(text, schema, { ...LENIENT, renameUnambiguous: true }).refusals).toEqual(result.refusals);
    }));
  });

  test('layout around a value never changes a verdict', () => {
    const bases = fc.constantFrom('5', '-2', '1.5', '1e3', 'true', 'False', 'null', 'a', 'a,b', 'a b', '[1]', '{"x":1}', '');
    const pad = fc.array(fc.constantFrom(...LAYOUT), { maxLength: 3 }).map((chars) => chars.join(''));
    const schemas = fc.constantFrom<Schema>(
      { oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] },
      { type: 'array', items: { type: 'integer' } }, { type: 'array', items: STRING }, { type: 'integer' }, { type: 'number' },
      { type: 'boolean' }, { type: ['integer', 'null'] }, { type: 'null' }, { type: 'object' }, { enum: ['a', 'b'] },
    );
    const verdict = (value: string, schema: Schema) => {
      const { changes, refusals } = coerceArgs({ n: value }, { type: 'object', properties: { n: schema }, required: ['n'] }, LENIENT);
      return { changes: changes.map((change) => change.rule), refusals: refusals.map(({ reason, readings }) => [reason, readings?.map((reading) => reading.rule)]) };
    };
    fc.assert(fc.property(bases, pad, pad, schemas, (base, left, right, schema) => {
      fc.pre(left + right !== '');
      expect(verdict(left + base + right, schema), JSON.stringify(left + base + right)).toEqual(verdict(base, schema));
    }));
  });

  test('a plain number becomes text only where that text is exactly the number, and it could not have been rounded', () => {
    const schema = { type: 'object', properties: { n: STRING } };
    fc.assert(fc.property(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0.1 + 0.2, 2 ** 53, 2 ** 53 - 1, 12345678901234567890, 0.5, -0)), (n) => {
      const result = coerceArgs({ n }, schema, LENIENT);
      const exact = Number.isFinite(n) && (Number.isInteger(n) ? Math.abs(n) <= Number.MAX_SAFE_INTEGER : exactDecimal(n, String(n)));
      if (exact) {
        const text = (result.value as { n: string }).n;
        expect(text).toBe(Object.is(n, -0) ? '-0' : String(n));
        expect(Number(text)).toBe(n);
      } else {
        expect((result.value as { n: unknown }).n).toBe(n);
        expect(result.refusals.map(({ reason }) => reason)).toEqual([Number.isInteger(n) || Math.abs(n) === Infinity ? 'out-of-range' : 'unconvertible']);
      }
    }));
  });

  test('a number that is not whole, at an integer-or-string position, is refused as not whole, never written as text', () => {
    const positions = fc.constantFrom<Schema>({ anyOf: [{ type: 'integer' }, STRING] }, { oneOf: [{ type: 'integer' }, STRING] }, { type: ['integer', 'string'] });
    const fraction = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n));
    fc.assert(fc.property(fraction, positions, (n, position) => {
      const text = `{"n":${String(n)}}`;
      for (const args of [{ n }, parseArgs(text)]) {
        const result = coerceArgs(args, { type: 'object', properties: { n: position } }, LENIENT);
        expect(result.value).toBe(args);
        expect(result.refusals.map(({ reason }) => reason)).toEqual(['not-whole']);
      }
      expect(coerceArgsJson(text, { type: 'object', properties: { n: position } }, LENIENT)).toBe(text);
    }));
  });
});

/** The list separators: the commas and semicolons of every script, and white space that is not a space. */
const SEPARATORS = [
  ...',;\u037e\u055d\u060c\u061b\u07f8\u1363\u1364\u1802\u1808\u204f\u2e32\u2e34\u2e35\u2e41\u2e49\u2e4c\u3001\ua4fe\ua60d\ua6f5\ua6f6\ufe10\ufe11\ufe14\ufe50\ufe51\ufe54\uff0c\uff1b\uff64',
  '\u{1144d}', '\u{1145a}', '\u{16e97}', '\u{1da87}', '\u{1da89}',
  '\t', '\n', '\v', '\f', '\r', '\r\n', '\u0085', '\u2028', '\u2029',
];
/** Layout: every White_Space character, and the byte-order mark. */
const LAYOUT = [...' \t\n\v\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];

/**
 * Whether the decimal `text` is exactly the double `n`, by an oracle of its own: the double's exact
 * binary expansion (`toString(2)`, finite for every double) and the decimal as fractions, compared
 * by cross-multiplying BigInts.
 */
function exactDecimal(n: number, text: string): boolean {
  const [whole, fraction = ''] = Math.abs(n).toString(2).split('.');
  const binary = { numerator: BigInt(`0b${whole}${fraction}`), denominator: 2n ** BigInt(fraction.length) };
  const match = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text)!;
  const exponent = Number(match[3] ?? 0) - (match[2] ?? '').length;
  const digits = BigInt(match[1]! + (match[2] ?? ''));
  const decimal = exponent >= 0 ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n } : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
  return binary.numerator * decimal.denominator === decimal.numerator * binary.denominator;
}
