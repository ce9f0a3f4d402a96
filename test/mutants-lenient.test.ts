/**
 * Lenient conversions, one row per rule and per refusal: the value at `/n`, the schema of `/n`,
 * and what the coercion must give (the value, each change's rule and target, each refusal's
 * reason). Rows on both sides of each guard: where a rule applies, and the nearest place it must not.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

/** [value of /n as JSON text, schema of /n, expected /n as JSON text, [rule, to] of the change or null, refusal reason or null] */
type Row = readonly [string, unknown, string, readonly [string, string] | null, string | null];

const ROWS: readonly Row[] = [
  // Strings of numbers.
  ['" 7 "', { type: 'integer' }, '7', ['string-to-integer', '7'], null],
  ['"7"', { type: ['integer', 'boolean'] }, '7', ['string-to-integer', '7'], null],
  ['"5.5"', { type: 'integer' }, '"5.5"', null, 'not-whole'],
  ['"1e30"', { type: 'integer' }, '"1e30"', null, 'out-of-range'],
  ['"2.50"', { type: 'number' }, '2.50', ['string-to-number', '2.50'], null],
  ['"2.0"', { anyOf: [{ type: 'number' }, { type: 'integer' }] }, '2', ['string-to-number', '2'], null],
  ['"1e400"', { type: 'number' }, '"1e400"', null, 'out-of-range'],
  // Strings of booleans and null.
  ['"true"', { type: 'boolean' }, 'true', ['string-to-boolean', 'true'], null],
  ['"0"', { type: 'boolean' }, 'false', ['string-to-boolean', 'false'], null],
  ['"null"', { type: 'null' }, 'null', ['string-to-null', 'null'], null],
  ['"null"', { type: 'integer' }, '"null"', null, 'unconvertible'],
  // Strings of JSON text: parsed only where nothing but containers (and null) is accepted.
  ['"{}"', { type: ['object', 'null'] }, '{}', ['json-text', '{}'], null],
  ['"[1]"', { type: ['array', 'integer'] }, '"[1]"', null, 'unconvertible'],
  ['"[1.5]"', { type: 'array', items: { type: 'integer' } }, '"[1.5]"', null, 'unconvertible'],
  ['"{broken"', { type: 'object' }, '"{broken"', null, 'unconvertible'],
  ['"\\"{\\\\\\"a\\\\\\":1}\\""', { type: 'object' }, '"\\"{\\\\\\"a\\\\\\":1}\\""', null, 'unconvertible'],
  // Numbers.
  ['1.0', { type: 'string' }, '"1.0"', ['number-to-string', '"1.0"'], null],
  ['1.0', { type: 'boolean' }, 'true', ['number-to-boolean', 'true'], null],
  ['2', { type: 'boolean' }, '2', null, 'unconvertible'],
  // Wrapping in an array, when the element is then accepted.
  ['true', { type: 'array', items: { type: 'boolean' } }, '[true]', ['wrap-in-array', '[true]'], null],
  ['true', { type: 'array', items: { type: 'integer' } }, 'true', null, 'unconvertible'],
  ['null', { type: 'array' }, 'null', null, 'unconvertible'],
  // …never where no element is accepted: the wrapped value would be no array the schema takes.
  ['"a"', { type: 'array' }, '["a"]', ['wrap-in-array', '["a"]'], null],
  ['"a"', { type: 'array', items: false }, '"a"', null, 'unconvertible'],
  ['5', { type: 'array', items: false }, '5', null, 'unconvertible'],
  ['true', { type: 'array', prefixItems: [false], items: { type: 'boolean' } }, 'true', null, 'unconvertible'],
  ['true', { type: 'array', prefixItems: [{ type: 'boolean' }], items: false }, '[true]', ['wrap-in-array', '[true]'], null],
];

/** [rule switched off, value of /n, schema of /n]: each is then refused as unconvertible, left as it is. */
const OFF: readonly (readonly [string, string, unknown])[] = [
  ['strings', '"7"', { type: 'integer' }],
  ['strings', '"2.5"', { type: 'number' }],
  ['booleans', '"true"', { type: 'boolean' }],
  ['booleans', '1', { type: 'boolean' }],
  ['nulls', '"null"', { type: 'null' }],
  ['jsonText', '"{}"', { type: 'object' }],
  ['arrays', 'true', { type: 'array' }],
  ['numbersToStrings', '1.0', { type: 'string' }],
];

describe('lenient conversions at /n', () => {
  test.each(OFF)('with %s off, %s under %j is refused', (rule, value, schema) => {
    const args = deepFreeze(parseArgs(`{"n":${value}}`));
    const result = coerceArgs(args, deepFreeze({ type: 'object', properties: { n: schema } }), { lenient: { [rule]: false } });
    expect(result.value).toBe(args);
    expect(result.changes).toEqual([]);
    expect(result.refusals.map(({ path, reason }) => [path, reason])).toEqual([['/n', 'unconvertible']]);
  });

  test.each(ROWS)('%s under %j', (value, schema, expected, change, refusal) => {
    const args = deepFreeze(parseArgs(`{"n":${value}}`));
    // Required, so that a null is judged as a value (an optional null is removed: rule optionalNull).
    const result = coerceArgs(args, deepFreeze({ type: 'object', properties: { n: schema }, required: ['n'] }), { lenient: true });
    expect(stringifyArgs(result.value)).toBe(`{"n":${expected}}`);
    expect(result.changes.map(({ path, rule, to }) => [path, rule, to])).toEqual(change === null ? [] : [['/n', ...change]]);
    expect(result.refusals.map(({ path, reason }) => [path, reason])).toEqual(refusal === null ? [] : [['/n', refusal]]);
  });

  test('plain numbers: written as text only where the text is exactly the number, never where it may have been rounded', () => {
    const names = ['n', 'h', 'm', 'k', 'f', 'i', 'b'] as const;
    const schema = { properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) };
    const result = coerceArgs({ n: 5, h: -2.25, m: NaN, k: 1e21, f: 0.1 + 0.2, i: -Infinity, b: 2 ** 53 }, schema, { lenient: true });
    expect(result.value).toEqual({ n: '5', h: '-2.25', m: NaN, k: 1e21, f: 0.1 + 0.2, i: -Infinity, b: 2 ** 53 });
    expect(result.changes.map(({ path, rule, to }) => [path, rule, to])).toEqual([['/n', 'number-to-string', '"5"'], ['/h', 'number-to-string', '"-2.25"']]);
    expect(result.refusals.map(({ path, reason }) => [path, reason])).toEqual([
      ['/m', 'unconvertible'], ['/k', 'out-of-range'], ['/f', 'unconvertible'], ['/i', 'out-of-range'], ['/b', 'out-of-range'],
    ]);
  });
});

describe('a rule set given as an object: every rule it does not switch off is on', () => {
  // One row per rule: the value at /n, the schema of /n, and what the rule makes of it. Each is run
  // with `lenient: {}` and with every other rule switched off, so a rule that only `lenient: true`
  // turns on, or one that reads another rule's switch, fails here.
  const RULES: readonly (readonly [string, string, unknown, string, string])[] = [
    ['strings', '"7"', { type: 'integer' }, '7', 'string-to-integer'],
    ['booleans', '"true"', { type: 'boolean' }, 'true', 'string-to-boolean'],
    ['arrays', '"a"', { type: 'array', items: { type: 'string' } }, '["a"]', 'wrap-in-array'],
    ['jsonText', '"{\\"a\\":1}"', { type: 'object' }, '{"a":1}', 'json-text'],
    ['nulls', '"null"', { type: 'null' }, 'null', 'string-to-null'],
    ['numbersToStrings', '4', { type: 'string' }, '"4"', 'number-to-string'],
    ['enumCase', '"Red"', { enum: ['red'] }, '"red"', 'enum-case'],
  ];
  const ALL = ['strings', 'booleans', 'arrays', 'jsonText', 'nulls', 'numbersToStrings', 'syntax', 'enumCase', 'optionalNull', 'unwrap', 'flattenedKey', 'markup', 'overEscaped', 'arrayToScalar'];
  const only = (rule: string) => Object.fromEntries(ALL.filter((other) => other !== rule).map((other) => [other, false]));

  test.each(RULES)('%s: %s under %j', (rule, value, schema, expected, changeRule) => {
    const args = deepFreeze(parseArgs(`{"n":${value}}`));
    const full = deepFreeze({ type: 'object', properties: { n: schema }, required: ['n'] });
    for (const lenient of [{}, only(rule)]) {
      const result = coerceArgs(args, full, { lenient });
      expect(stringifyArgs(result.value)).toBe(`{"n":${expected}}`);
      expect(result.changes.map((change) => change.rule)).toEqual([changeRule]);
    }
  });

  test('optionalNull: an optional null is removed under {} and with every other rule off', () => {
    const schema = deepFreeze({ type: 'object', properties: { n: { type: 'integer' }, m: { type: 'string' } } });
    for (const lenient of [{}, only('optionalNull')]) {
      const result = coerceArgs(parseArgs('{"n":null,"m":"x"}'), schema, { lenient });
      expect(stringifyArgs(result.value)).toBe('{"m":"x"}');
      expect(result.changes.map((change) => [change.path, change.rule])).toEqual([['/n', 'optional-null']]);
    }
  });

  test('arrayToScalar: a one-element array is read as its element under {} and with every other rule off, and left with the rule off', () => {
    const schema = deepFreeze({ type: 'object', properties: { n: { type: 'integer' } } });
    const args = deepFreeze(parseArgs('{"n":[5]}'));
    for (const lenient of [{}, only('arrayToScalar')]) {
      const result = coerceArgs(args, schema, { lenient });
      expect(stringifyArgs(result.value)).toBe('{"n":5}');
      expect(result.changes.map((change) => [change.path, change.rule])).toEqual([['/n', 'array-to-scalar']]);
    }
    const off = coerceArgs(args, schema, { lenient: { arrayToScalar: false } });
    expect(off.value).toBe(args);
    expect(off.changes).toEqual([]);
  });

  test('overEscaped: over-escaped arguments text is read under {}, and refused with the rule off', () => {
    const schema = deepFreeze({ type: 'object', properties: { path: { type: 'string' } } });
    const text = '{\\"path\\": \\"a.txt\\"}';
    expect(coerceArgsJson(text, schema, { lenient: {} })).toBe('{"path": "a.txt"}');
    expect(() => coerceArgsJson(text, schema, { lenient: { overEscaped: false } })).toThrow(ArgsParseError);
  });

  test('flattenedKey: a dotted key is rebuilt under {} and with every other rule off', () => {
    const schema = deepFreeze({ type: 'object', properties: { args: { type: 'object', properties: { path: { type: 'string' } } } } });
    for (const lenient of [{}, only('flattenedKey')]) {
      const result = coerceArgs(parseArgs('{"args.path":"a"}'), schema, { lenient });
      expect(stringifyArgs(result.value)).toBe('{"args":{"path":"a"}}');
      expect(result.changes.map((change) => [change.path, change.rule])).toEqual([['/args/path', 'flattened-key']]);
    }
  });
});

/** Coerces `{"n": value}` (value as JSON text) with `n` required under `schema`: /n's value, changes and refusals. */
function atN(value: string, schema: unknown, lenient: object | true = true) {
  const args = deepFreeze(parseArgs(`{"n":${value}}`));
  const result = coerceArgs(args, deepFreeze({ type: 'object', properties: { n: schema }, required: ['n'] }), { lenient });
  return {
    n: stringifyArgs((result.value as { n: unknown }).n),
    changes: result.changes.map(({ path, rule }) => [path, rule]),
    refusals: result.refusals.map(({ path, reason }) => [path, reason]),
  };
}

describe('an object where an array of objects is accepted: wrapped only when it is a valid item', () => {
  const item = (extra: object) => ({ type: 'array', items: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, additionalProperties: false, ...extra } });

  test('every key declared by the item schema and every required one given: the one item of the array', () => {
    expect(atN('{"a":1}', item({ required: ['a'] }))).toEqual({ n: '[{"a":1}]', changes: [['/n', 'wrap-in-array']], refusals: [] });
  });

  // Each is refused as sent: no item schema, an item open to any key, a key the item does not
  // declare beside one it does, a required key missing beside one given.
  test.each([
    ['no item schema', '{"a":1}', { type: 'array' }],
    ['an item open to other keys', '{"a":1}', item({ additionalProperties: true })],
    ['one key declared, one not', '{"a":1,"c":2}', item({})],
    ['one required key given, one missing', '{"a":1}', item({ required: ['a', 'b'] })],
  ])('%s: refused', (_name, value, schema) => {
    expect(atN(value, schema)).toEqual({ n: value, changes: [], refusals: [['/n', 'unconvertible']] });
  });

  test('with arrays off, a valid item is refused too', () => {
    expect(atN('{"a":1}', item({}), { arrays: false })).toEqual({ n: '{"a":1}', changes: [], refusals: [['/n', 'unconvertible']] });
  });

  test('the same object as JSON text is not wrapped: text that opens like an object is read only as one', () => {
    expect(atN('"{\\"a\\":1}"', item({}))).toEqual({ n: '"{\\"a\\":1}"', changes: [], refusals: [['/n', 'unconvertible']] });
  });

  test('where neither an object nor an array is accepted, the object is refused and its values are still walked', () => {
    const schema = { type: 'string', properties: { a: { type: 'integer' } } };
    expect(atN('{"a":"5"}', schema)).toEqual({ n: '{"a":"5"}', changes: [], refusals: [['/n', 'unconvertible'], ['/n/a', 'unconvertible']] });
  });
});

describe('a one-element array of a scalar, where the array is accepted', () => {
  test('under a node with no type (items only), its element is converted in the array, never read alone', () => {
    expect(atN('["5"]', { items: { type: 'integer' } })).toEqual({ n: '[5]', changes: [['/n/0', 'string-to-integer']], refusals: [] });
  });

  test('an element the array takes as it is: the array is kept, though the element alone is accepted too', () => {
    expect(atN('[5]', { anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] })).toEqual({ n: '[5]', changes: [], refusals: [] });
  });

  test('an element refused in the array, whose readings alone compete: refused in the array, the array kept', () => {
    // "1" alone is 1 or true (ambiguous); in the array, under items of null, it is refused.
    const schema = { anyOf: [{ type: 'integer' }, { type: 'boolean' }, { type: 'array', items: { type: 'null' } }] };
    expect(atN('["1"]', schema)).toEqual({ n: '["1"]', changes: [], refusals: [['/n/0', 'unconvertible']] });
  });
});
