import { describe, expect, test } from 'vitest';
import { parseArgs } from '../src/index.js';
import { validateArgs, type ValidateOptions, type ValidationResult } from '../src/validate.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

interface Row {
  readonly name: string;
  readonly schema: unknown;
  readonly input: string;
  readonly options?: ValidateOptions;
  readonly expected: {
    readonly ok: boolean;
    readonly validator: string;
    readonly errors?: { path: string; keyword: string }[];
    readonly undeclared?: unknown[];
    readonly message?: string;
  };
}

const files = loadFixtures<Row>('validate').filter(({ file }) => file.endsWith('validate-args.json'));

function check(result: ValidationResult, expected: Row['expected']): void {
  expect(result.ok).toBe(expected.ok);
  expect(result.validator).toBe(expected.validator);
  if (result.ok) return;
  if (expected.errors !== undefined) expect(result.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual(expected.errors);
  if (expected.undeclared !== undefined) expect(result.undeclared).toEqual(expected.undeclared);
  if (expected.message !== undefined) expect(result.message).toBe(expected.message);
}

describe.each(files)('$file', ({ cases }) => {
  test.each(cases)('$name', ({ schema, input, options, expected }) => {
    const args = deepFreeze(parseArgs(input));
    check(validateArgs(args, deepFreeze(schema), options), expected);
    // Cached validators give the same verdict; a fresh copy of the schema compiles anew.
    check(validateArgs(args, schema, options), expected);
    check(validateArgs(args, structuredClone(schema), options), expected);
  });
});

describe('validateArgs', () => {
  test('a skipped validation says why', () => {
    const result = validateArgs({ a: 1 }, { properties: { a: { type: 'wrong' } } });
    expect(result).toMatchObject({ ok: true, validator: 'skipped', reason: expect.stringContaining('does not compile') });
  });

  test('an undeclared key still fails a skipped validation', () => {
    const result = validateArgs({ b: 1 }, { properties: { a: { type: 'wrong' } } });
    expect(result).toMatchObject({ ok: false, validator: 'skipped', undeclared: [{ path: '/b', key: 'b' }] });
  });

  test('compiles each schema object once', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    let reads = 0;
    const counted = new Proxy(schema, { get: (target, key) => (key === 'properties' && reads++, Reflect.get(target, key)) });
    validateArgs({ n: 1 }, counted, { rejectUndeclared: false });
    const afterFirst = reads;
    for (let i = 0; i < 5; i++) validateArgs({ n: i }, counted, { rejectUndeclared: false });
    expect(afterFirst).toBeGreaterThan(0);
    expect(reads).toBe(afterFirst);
  });

  test('the message is bounded in size', () => {
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'integer', enum: [1, 2, 3] }]));
    const args = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x${i}`.repeat(20), 'v'.repeat(500)]));
    const result = validateArgs({ ...args, ...Object.fromEntries(Object.keys(properties).map((k) => [k, 'no'])) }, { type: 'object', properties });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeLessThanOrEqual(4000);
  });

  test('never throws, whatever the arguments', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const args of [undefined, null, () => 1, new Map(), Symbol.for('x'), 1n, cyclic]) {
      expect(() => validateArgs(args, { type: 'object', properties: { a: { type: 'string' } } })).not.toThrow();
    }
  });
});
