import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, coerceIntegerArgs, parseArgs, stringifyArgs } from '../src/index.js';
import { deepFreeze, loadCases, type FixtureCase } from './_helpers/fixtures.js';

/** The same JSON value, written compactly with every literal as spelled. */
const compact = (text: string): string => stringifyArgs(parseArgs(text));

const AREAS = ['warp', 'product', 'techspec', 'schema', 'numbers', 'lenient'];
const files = AREAS.flatMap((area) => loadCases(area));

describe.each(files)('$file', ({ cases }) => {
  test.each(cases)('$name', (row) => {
    const schema = deepFreeze(row.schema);
    const unchanged = row.expected === row.input;

    const text = coerceArgsJson(row.input, schema, row.options);
    if (unchanged || compact(row.input) === row.input) expect(text).toBe(row.expected);
    else expect(compact(text)).toBe(row.expected);

    const args = deepFreeze(parseArgs(row.input));
    const result = coerceArgs(args, schema, row.options);
    if (unchanged) {
      expect(result.value).toBe(args);
      expect(result.changes).toEqual([]);
    } else {
      expect(stringifyArgs(result.value)).toBe(row.expected);
    }
    if (row.changes !== undefined) {
      expect(result.changes).toHaveLength(row.changes.length);
      row.changes.forEach((change, i) => expect(result.changes[i]).toMatchObject(change));
    }
    // A row that names a refusal's competing readings has them checked too.
    const readingsOf = (i: number, refusal: (typeof result.refusals)[number]) => (row.refusals[i]?.readings === undefined ? {} : { readings: refusal.readings });
    expect(result.refusals.map((refusal, i) => ({ path: refusal.path, reason: refusal.reason, ...readingsOf(i, refusal) }))).toEqual(row.refusals);
    if (row.options?.lenient === undefined) {
      const integerOnly = coerceIntegerArgs(args, schema, row.options);
      if (unchanged) expect(integerOnly).toBe(args);
      else expect(stringifyArgs(integerOnly)).toBe(row.expected);
    }
  });
});

describe('fixture coverage', () => {
  const lenientRows = loadCases('lenient').flatMap(({ cases }) => cases);
  const spelled = (row: FixtureCase) => JSON.stringify([row.input, row.expected, row.options, row.changes, row.refusals]);

  test.each(lenientRows.filter((row) => JSON.stringify(row.schema).includes('"anyOf"')).map((row) => [row.name, row] as const))(
    'the lenient row %j has a oneOf twin with the same input and outcome',
    (_name, row) => {
      const twin = JSON.stringify(row.schema).replaceAll('"anyOf"', '"oneOf"');
      expect(lenientRows.find((other) => JSON.stringify(other.schema) === twin && spelled(other) === spelled(row))?.name).toBeDefined();
    },
  );
});

describe('plain JS numbers in lenient mode (the object path)', () => {
  test.each([
    [5, 'string', '5', 'number-to-string'], [2.5, 'string', '2.5', 'number-to-string'], [1, 'boolean', true, 'number-to-boolean'], [0, 'boolean', false, 'number-to-boolean'],
  ] as const)('%d under %s becomes %j', (n, type, expected, rule) => {
    const result = coerceArgs({ n }, { properties: { n: { type } } }, { lenient: true });
    expect(result.value).toEqual({ n: expected });
    expect(result.changes).toEqual([{ path: '/n', from: String(n), to: JSON.stringify(expected), rule }]);
    expect(result.refusals).toEqual([]);
  });
});

describe('refusal messages', () => {
  test.each([
    ['"abc"', { type: 'integer' }, '"abc" at the root was left as it is: no safe conversion applies; expected integer'],
    ['{"n":"x"}', { properties: { n: { type: ['integer', 'null'] } } }, '"x" at /n was left as it is: no safe conversion applies; expected null or integer'],
    ['{"n":1.5}', { properties: { n: { type: ['integer', 'boolean'] } } }, '1.5 at /n was left as it is: it is not a whole number; expected boolean or integer'],
    ['{"n":"1"}', { properties: { n: { allOf: [{ type: 'string' }, { type: 'integer' }] } } }, '"1" at /n was left as it is: no safe conversion applies; no value is accepted here'],
  ])('%s', (input, schema, message) => {
    expect(coerceArgs(parseArgs(input), schema, { lenient: true }).refusals.map((r) => r.message)).toEqual([message]);
  });
});
