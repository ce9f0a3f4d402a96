import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { floatify, generateArgs } from '../bench/generate.js';
import { warpCoerceIntegerArgs } from '../bench/warp-port.js';
import { CORPUS_PATH, corpusWorkloads, syntheticWorkloads } from '../bench/workloads.js';
import { coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';
import { validateArgs } from '../src/validate.js';
import { loadFixtures } from './_helpers/fixtures.js';

describe('the Warp port is a faithful baseline', () => {
  const [warp] = loadFixtures('warp');
  // Warp skips $ref; every other row of its matrix must come out as Warp's tests expect.
  const rows = warp!.cases.filter((row) => !JSON.stringify(row.schema ?? null).includes('$ref') && row.schema !== null && row.schema !== undefined);
  test.each(rows)('$name', (row) => {
    const args = parseArgs(row.input) as Record<string, unknown>;
    warpCoerceIntegerArgs(args, row.schema as Record<string, unknown>);
    expect(stringifyArgs(args)).toBe(stringifyArgs(parseArgs(row.expected)));
  });

  test('it skips $ref, as Warp does', () => {
    const args = parseArgs('{"n":5.0}') as Record<string, unknown>;
    warpCoerceIntegerArgs(args, { $defs: { n: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/n' } } });
    expect(stringifyArgs(args)).toBe('{"n":5.0}');
  });
});

describe('benchmark workloads', () => {
  test('floatify writes every whole number as N.0, the way a float64 pipeline does', () => {
    expect(floatify({ a: 5, b: [1.5, -2, 0], c: 'x', d: null, e: true })).toBe('{"a":5.0,"b":[1.5,-2.0,0.0],"c":"x","d":null,"e":true}');
  });

  test('synthetic calls have the advertised sizes and need rewriting', () => {
    const [small, medium, large] = syntheticWorkloads();
    expect(small!.text.length).toBeGreaterThan(100);
    expect(small!.text.length).toBeLessThan(200);
    expect(medium!.text.length).toBeGreaterThan(4_000);
    expect(medium!.text.length).toBeLessThan(6_000);
    expect(large!.text.length).toBeGreaterThan(1_000_000);
    for (const { text, schema } of [small!, medium!, large!]) expect(coerceArgsJson(text, schema)).not.toBe(text);
  });

  // The generator ignores patterns and some combinator constraints; types it always gets right.
  test.runIf(existsSync(CORPUS_PATH))('generated corpus arguments have the right types, and most are fully valid', () => {
    const workloads = corpusWorkloads();
    expect(workloads.length).toBeGreaterThan(1000);
    let valid = 0;
    const typeErrors: string[] = [];
    for (const { name, schema, text } of workloads) {
      const result = validateArgs(parseArgs(coerceArgsJson(text, schema)), schema, { rejectUndeclared: false });
      if (result.ok) valid++;
      else typeErrors.push(...result.errors.filter((e) => e.keyword === 'type').map((e) => `${name} ${e.path} ${e.message}`));
    }
    expect(typeErrors).toEqual([]);
    expect(valid / workloads.length).toBeGreaterThan(0.9);
  });

  test('generateArgs follows local $refs and picks a non-null branch', () => {
    const schema = { $defs: { n: { type: 'integer' } }, type: 'object', properties: { a: { $ref: '#/$defs/n' }, b: { anyOf: [{ type: 'null' }, { type: 'string' }] } } };
    expect(floatify(generateArgs(schema))).toBe('{"a":17.0,"b":"text value 3"}');
  });
});
