/**
 * The walk's decisions, one row per branch of `decide` and per refusal wording: lossless and plain
 * numbers at integer positions with and without lenient rules, positions that also take
 * fractions, containers no schema accepts, allowed values in the message, conversions nested at a
 * path, and arguments that contain themselves. Each row carries the value, changes and refusals
 * it must give; the rows with a refusal are read again on a package imported afresh, since the
 * words of each reason are a module constant.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { coerceArgs, parseArgs, stringifyArgs, type CoerceOptions } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

interface Row {
  readonly name: string;
  readonly input: string;
  readonly schema: unknown;
  readonly options?: CoerceOptions;
  readonly expected: string;
  readonly changes: readonly { path: string; from: string; to: string; rule: string }[];
  readonly refusals: readonly { path: string; reason: string; expected: readonly string[]; message: string }[];
}

const integerAt = (n: unknown) => ({ type: 'object', properties: { n } });

const ROWS: readonly Row[] = [
  {
    name: 'a fraction at an integer position is refused as not whole',
    input: '{"n":5.5}', schema: integerAt({ type: 'integer' }), expected: '{"n":5.5}', changes: [],
    refusals: [{ path: '/n', reason: 'not-whole', expected: ['integer'], message: '5.5 at /n was left as it is: it is not a whole number; expected integer' }],
  },
  {
    name: 'a whole literal past the range is refused, lenient or not',
    input: '{"n":1e30}', schema: integerAt({ type: 'integer' }), options: { lenient: true }, expected: '{"n":1e30}', changes: [],
    refusals: [{ path: '/n', reason: 'out-of-range', expected: ['integer'], message: '1e30 at /n was left as it is: it is outside the supported range; expected integer' }],
  },
  {
    name: 'the same literal is restored under unbounded',
    input: '{"n":1e30}', schema: integerAt({ type: 'integer' }), options: { integerRange: 'unbounded' }, expected: '{"n":1000000000000000000000000000000}',
    changes: [{ path: '/n', from: '1e30', to: '1000000000000000000000000000000', rule: 'integer-literal' }], refusals: [],
  },
  {
    name: 'a literal already canonical is kept, with no change',
    input: '{"n":-42}', schema: integerAt({ type: 'integer' }), expected: '{"n":-42}', changes: [], refusals: [],
  },
  {
    name: 'a position that also takes fractions keeps a fraction',
    input: '{"n":5.5}', schema: integerAt({ anyOf: [{ type: 'integer' }, { type: 'number' }] }), expected: '{"n":5.5}', changes: [], refusals: [],
  },
  {
    name: 'a position that also takes fractions still restores a whole literal',
    input: '{"n":5.0}', schema: integerAt({ anyOf: [{ type: 'integer' }, { type: 'number' }] }), expected: '{"n":5}',
    changes: [{ path: '/n', from: '5.0', to: '5', rule: 'integer-literal' }], refusals: [],
  },
  {
    name: 'out of range where fractions are taken: kept, not refused',
    input: '{"n":1e30}', schema: integerAt({ type: ['integer', 'number'] }), expected: '{"n":1e30}', changes: [], refusals: [],
  },
  {
    name: 'lenient: a fraction where an integer or a string is taken is a number that is not whole: refused, never written as text',
    input: '{"n":5.5}', schema: integerAt({ type: ['integer', 'string'] }), options: { lenient: true }, expected: '{"n":5.5}', changes: [],
    refusals: [{ path: '/n', reason: 'not-whole', expected: ['integer', 'string'], message: '5.5 at /n was left as it is: it is not a whole number; expected integer or string' }],
  },
  {
    name: 'not lenient: the same fraction is refused',
    input: '{"n":5.5}', schema: integerAt({ type: ['integer', 'string'] }), expected: '{"n":5.5}', changes: [],
    refusals: [{ path: '/n', reason: 'not-whole', expected: ['integer', 'string'], message: '5.5 at /n was left as it is: it is not a whole number; expected integer or string' }],
  },
  {
    name: 'lenient: an array no schema accepts is refused, and its inside still walked',
    input: '{"n":[1.0,2.0]}', schema: integerAt({ type: 'integer' }), options: { lenient: true }, expected: '{"n":[1.0,2.0]}', changes: [],
    refusals: [{ path: '/n', reason: 'unconvertible', expected: ['integer'], message: '[1.0,2.0] at /n was left as it is: no safe conversion applies; expected integer' }],
  },
  {
    name: 'not lenient: a container at an integer position is left alone',
    input: '{"n":[1.0]}', schema: integerAt({ type: 'integer' }), expected: '{"n":[1.0]}', changes: [], refusals: [],
  },
  {
    name: 'lenient: a container a schema accepts is walked',
    input: '{"n":{"m":2.0}}', schema: integerAt({ type: 'object', properties: { m: { type: 'integer' } } }), options: { lenient: true }, expected: '{"n":{"m":2}}',
    changes: [{ path: '/n/m', from: '2.0', to: '2', rule: 'integer-literal' }], refusals: [],
  },
  {
    name: 'allowed values are named in the message',
    input: '{"n":"Red"}', schema: integerAt({ enum: ['red', 'RED'] }), options: { lenient: true }, expected: '{"n":"Red"}', changes: [],
    refusals: [{ path: '/n', reason: 'ambiguous', expected: ['"red"', '"RED"'], message: '"Red" at /n was left as it is: the applicable schemas would convert it to different values; expected one of "red", "RED"' }],
  },
  {
    name: 'a case fold only under lenient rules',
    input: '{"n":"Red"}', schema: integerAt({ enum: ['red'] }), expected: '{"n":"Red"}', changes: [], refusals: [],
  },
  {
    name: 'a case fold with enumCase off is left alone',
    input: '{"n":"Red"}', schema: integerAt({ enum: ['red'] }), options: { lenient: { enumCase: false } }, expected: '{"n":"Red"}', changes: [], refusals: [],
  },
  {
    name: 'a case fold under lenient rules',
    input: '{"n":"Red"}', schema: integerAt({ enum: ['red'] }), options: { lenient: true }, expected: '{"n":"red"}',
    changes: [{ path: '/n', from: '"Red"', to: '"red"', rule: 'enum-case' }], refusals: [],
  },
  {
    name: 'lenient: a number an enum of numbers and strings accepts is kept, no case fold tried',
    input: '{"n":5}', schema: integerAt({ enum: [5, 'a'] }), options: { lenient: true }, expected: '{"n":5}', changes: [], refusals: [],
  },
  {
    name: 'a string at the root no rule converts',
    input: '"abc"', schema: { type: 'integer' }, options: { lenient: true }, expected: '"abc"', changes: [],
    refusals: [{ path: '', reason: 'unconvertible', expected: ['integer'], message: '"abc" at the root was left as it is: no safe conversion applies; expected integer' }],
  },
  {
    name: 'a conversion nested at a path reports its inner changes at their full paths',
    input: '{"a":{"b":"[1.0, 2]"}}', schema: { properties: { a: { properties: { b: { type: 'array', items: { type: 'integer' } } } } } }, options: { lenient: true },
    expected: '{"a":{"b":[1,2]}}',
    changes: [
      { path: '/a/b', from: '"[1.0, 2]"', to: '[1,2]', rule: 'json-text' },
      { path: '/a/b/0', from: '1.0', to: '1', rule: 'integer-literal' },
    ],
    refusals: [],
  },
  {
    name: 'a scalar wrapped at a path: the element is restored inside it',
    input: '{"a":[{"b":3.0}]}', schema: { properties: { a: { type: 'array', items: { properties: { b: { type: 'array', items: { type: 'integer' } } } } } } }, options: { lenient: true },
    expected: '{"a":[{"b":[3]}]}',
    changes: [
      { path: '/a/0/b', from: '3.0', to: '[3]', rule: 'wrap-in-array' },
      { path: '/a/0/b/0', from: '3.0', to: '3', rule: 'integer-literal' },
    ],
    refusals: [],
  },
  {
    name: 'lenient: a fraction where an integer or an array of numbers is taken is not refused as not whole: it is wrapped',
    input: '{"n":5.5}', schema: integerAt({ type: ['integer', 'array'], items: { type: 'number' } }), options: { lenient: true }, expected: '{"n":[5.5]}',
    changes: [{ path: '/n', from: '5.5', to: '[5.5]', rule: 'wrap-in-array' }], refusals: [],
  },
  {
    name: 'lenient: an array of two scalars, where one scalar alone is accepted too, is walked as an array: only a one-element array may be read as its element',
    input: '{"n":["5","6"]}', schema: integerAt({ anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] }), options: { lenient: true }, expected: '{"n":[5,6]}',
    changes: [{ path: '/n/0', from: '"5"', to: '5', rule: 'string-to-integer' }, { path: '/n/1', from: '"6"', to: '6', rule: 'string-to-integer' }], refusals: [],
  },
  {
    name: 'lenient: a string wrapped as the item of an array whose items have no type is read as at any untyped position (left as it is there too)',
    input: '{"n":"a<|\\"|>b","m":"a<|\\"|>b"}', schema: { type: 'object', properties: { n: { type: 'array', items: {} }, m: {} } }, options: { lenient: true },
    expected: '{"n":["a<|\\"|>b"],"m":"a<|\\"|>b"}', changes: [{ path: '/n', from: '"a<|\\"|>b"', to: '["a<|\\"|>b"]', rule: 'wrap-in-array' }], refusals: [],
  },
  {
    name: 'lenient: a string item of an array holds no parameters of an object, even where the array\'s schema also declares the name its tag gives',
    input: '{"n":["<parameter name=\\"b\\">x"]}', schema: integerAt({ type: ['array', 'object'], properties: { b: { type: 'string' } }, items: { type: 'string' } }),
    options: { lenient: true }, expected: '{"n":["<parameter name=\\"b\\">x"]}', changes: [], refusals: [],
  },
  {
    name: 'lenient: parameters ran together into a string: refused, naming the types its own key accepts',
    input: '{"text":"a<parameter name=\\"b\\">x"}', schema: { type: 'object', properties: { text: { type: 'string' }, b: { type: 'integer' } } }, options: { lenient: true },
    expected: '{"text":"a<parameter name=\\"b\\">x"}', changes: [],
    refusals: [{
      path: '/text', reason: 'ambiguous', expected: ['string'],
      message: '"a<parameter name=\\"b\\">x" at /text was left as it is: it holds the tool-call markup of the parameter b (<parameter name="b">), which the arguments lack: the call\'s parameters ran together into this string; send b as an argument of its own, and this string alone',
    }],
  },
  {
    name: 'a position with no work is left alone, whatever it holds',
    input: '{"free":{"x":5.0},"n":5.0}', schema: { properties: { free: {}, n: { type: 'integer' } } }, options: { lenient: true }, expected: '{"free":{"x":5.0},"n":5}',
    changes: [{ path: '/n', from: '5.0', to: '5', rule: 'integer-literal' }], refusals: [],
  },
];

describe('the walk: what each value becomes, and what is reported', () => {
  test.each(ROWS)('$name', ({ input, schema, options, expected, changes, refusals }) => {
    const args = deepFreeze(parseArgs(input));
    const result = coerceArgs(args, deepFreeze(schema), options);
    expect(stringifyArgs(result.value)).toBe(expected);
    expect(result.changes).toEqual(changes);
    expect(result.refusals.map(({ path, reason, expected: allowed, message }) => ({ path, reason, expected: allowed, message }))).toEqual(refusals);
    if (changes.length === 0) expect(result.value).toBe(args);
  });
});

describe('plain numbers at integer positions', () => {
  const schema = integerAt({ type: 'integer' });

  test.each([
    [5.5, 'not-whole', '5.5 at /n was left as it is: it is not a whole number; expected integer'],
    [Infinity, 'out-of-range', 'null at /n was left as it is: it is outside the supported range; expected integer'],
    [NaN, 'out-of-range', 'null at /n was left as it is: it is outside the supported range; expected integer'],
  ])('%s is refused as %s', (n, reason, message) => {
    const args = { n };
    const result = coerceArgs(args, schema);
    expect(result.value).toBe(args);
    expect(result.refusals).toEqual([{ path: '/n', value: n, reason, expected: ['integer'], message }]);
  });

  test.each([5, -0, 1e21])('%s is whole: nothing to report', (n) => {
    expect(coerceArgs({ n }, schema).refusals).toEqual([]);
  });

  test('a fraction where numbers are accepted too, or no integer is declared: nothing to report', () => {
    expect(coerceArgs({ n: 5.5 }, integerAt({ type: ['integer', 'number'] })).refusals).toEqual([]);
    expect(coerceArgs({ n: 5.5 }, integerAt({ type: 'string' })).refusals).toEqual([]);
    expect(coerceArgs({ n: '5.5' }, integerAt({ type: 'integer' })).refusals).toEqual([]);
  });
});

describe('a refusal names the competing readings only when there are some', () => {
  test('a refusal of one reason has no readings key; an ambiguous one of the gate has its readings', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' }, m: { type: ['integer', 'boolean'] } } };
    const [plain, ambiguous] = coerceArgs(parseArgs('{"n":"x","m":"1"}'), schema, { lenient: true }).refusals;
    expect(plain).toMatchObject({ path: '/n', reason: 'unconvertible' });
    expect(Object.keys(plain!)).toEqual(['path', 'value', 'reason', 'expected', 'message']);
    expect(ambiguous).toMatchObject({ path: '/m', reason: 'ambiguous' });
    expect(Object.keys(ambiguous!)).toEqual(['path', 'value', 'reason', 'expected', 'message', 'readings']);
  });
});

/** A cycle deeper than the watch depth: its root, and the path where it repeats. */
function deepCycle(): { root: Record<string, unknown>; path: string } {
  const root: Record<string, unknown> = { n: 1 };
  let at = root;
  for (let i = 0; i < 300; i++) at = at['a'] = {};
  at['a'] = root;
  return { root, path: '/a'.repeat(301) };
}

// The words of each reason are a module constant of the walk: each row with a refusal is read
// again on a package imported afresh, so that a changed constant is seen.
describe('the refusal words of each reason, on a fresh import', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  test.each(ROWS.filter(({ refusals }) => refusals.length > 0))('$name', async ({ input, schema, options, refusals }) => {
    const fresh = await import('../src/index.js');
    const result = fresh.coerceArgs(fresh.parseArgs(input), schema, options);
    expect(result.refusals.map(({ path, reason, expected: allowed, message }) => ({ path, reason, expected: allowed, message }))).toEqual(refusals);
  });

  test('a cycle', async () => {
    const fresh = await import('../src/index.js');
    const { root, path } = deepCycle();
    const [refusal] = fresh.coerceArgs(root, { type: 'object', properties: { a: { $ref: '#' }, n: { type: 'integer' } } }).refusals;
    expect(refusal!.message.endsWith(`at ${path} was left as it is: the arguments contain themselves; expected object`)).toBe(true);
  });
});

describe('arguments that contain themselves', () => {
  test('a cycle deeper than the watch depth is refused where it repeats, once', () => {
    const root: Record<string, unknown> = { n: 1 };
    let at = root;
    for (let i = 0; i < 300; i++) at = at['a'] = {};
    at['a'] = root;
    const result = coerceArgs(root, { type: 'object', properties: { a: { $ref: '#' }, n: { type: 'integer' } } });
    expect(result.value).toBe(root);
    expect(result.refusals).toHaveLength(1);
    const [refusal] = result.refusals;
    expect(refusal).toMatchObject({ path: '/a'.repeat(301), reason: 'cycle', expected: ['object'] });
    // The message previews the first 200 characters, written before the cycle closes.
    const preview = `${'{"n":1,"a":'}${'{"a":'.repeat(40)}`.slice(0, 199) + '…';
    expect(refusal!.message).toBe(`${preview} at ${'/a'.repeat(301)} was left as it is: the arguments contain themselves; expected object`);
  });
});

describe('a refusal message previews its value, bounded', () => {
  const deep = (levels: number, leaf: unknown): unknown => {
    let value: unknown = leaf;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  test('a long value is cut to 200 characters marked with …, and the refusal keeps the value whole', () => {
    const text = 'x'.repeat(5000);
    const result = coerceArgs({ n: text }, { type: 'object', properties: { n: { type: 'integer' } } }, { lenient: true });
    const [refusal] = result.refusals;
    expect(refusal!.value).toBe(text);
    expect(refusal!.message.startsWith(`"${'x'.repeat(198)}… at /n`)).toBe(true);
  });

  test('a value of exactly 200 characters is shown whole, one more is cut', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } } as const;
    const whole = coerceArgs({ n: 'y'.repeat(198) }, schema, { lenient: true }).refusals[0]!;
    expect(whole.message.startsWith(`"${'y'.repeat(198)}" at /n`)).toBe(true);
    const cut = coerceArgs({ n: 'y'.repeat(199) }, schema, { lenient: true }).refusals[0]!;
    expect(cut.message.startsWith(`"${'y'.repeat(198)}… at /n`)).toBe(true);
  });

  test('a cut never splits a surrogate pair', () => {
    const text = 'a'.repeat(197) + '😀'.repeat(5);
    const refusal = coerceArgs({ n: text }, { type: 'object', properties: { n: { type: 'integer' } } }, { lenient: true }).refusals[0]!;
    expect(refusal.message.startsWith(`"${'a'.repeat(197)}… at /n`)).toBe(true);
  });

  test('a deep object refused is previewed by its first 200 characters, the refusal keeps it whole', () => {
    const value = { a: deep(1000, 1) };
    const result = coerceArgs(value, { type: 'object', properties: { a: { type: 'string' } } }, { lenient: true });
    expect(result.refusals[0]!.value).toBe((value as { a: unknown }).a);
    expect(result.refusals[0]!.message.startsWith(`${'{"a":'.repeat(40).slice(0, 199)}… at /a`)).toBe(true);
  });
});
