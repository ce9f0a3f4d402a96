/**
 * The gate and a key's readings, branch by branch (`src/coerce/gate.ts`, `key-readings.ts`,
 * `separators.ts`, `exact-text.ts`): which tier wins, what is named and how, how many readings a
 * refusal names, the bounds on a key's enumeration, the first names a key may start with, where a
 * step lands, and the rename among the readings. Each row states the value, changes and refusals
 * it must give.
 */
import { describe, expect, test, vi } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../src/index.js';
import { validateArgs } from '../src/validate.js';
import { describeReadings, fitOf, judge, previewOf, settle, textOf, type GateContext, type Proposal } from '../src/coerce/gate.js';
import { declaredHeads } from '../src/coerce/key-readings.js';
import { exactText } from '../src/coerce/exact-text.js';
import { planFor } from '../src/schema/plan.js';
import { deepFreeze } from './_helpers/fixtures.js';

const LENIENT = { lenient: true } as const;
const STRING = { type: 'string' };
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const run = (text: string, schema: unknown, options: object = LENIENT) => {
  const result = coerceArgs(deepFreeze(parseArgs(text)), deepFreeze(schema), options);
  return { value: stringifyArgs(result.value), changes: result.changes.map(({ path, rule }) => `${rule} ${path}`), refusals: result.refusals };
};
const proposal = (rule: Proposal['rule'], value: unknown, fit: Proposal['fit'], path = '/n'): Proposal => ({ rule, path, value, fit });

describe('judge', () => {
  test('readings the schema takes whole win over readings whose shape alone it takes', () => {
    const verdict = judge([proposal('flattened-key', 1, 'shape', '/a/b'), proposal('rename-key', 2, 'whole', '/ab')]);
    expect(verdict).toEqual({ kind: 'take', proposal: proposal('rename-key', 2, 'whole', '/ab') });
  });

  test('with none whole, the one reading whose shape is taken is taken; two are ambiguous, named in order', () => {
    expect(judge([proposal('flattened-key', 1, 'shape', '/a/b'), proposal('as-sent', 1, 'none', '/a.b')])).toMatchObject({ kind: 'take', proposal: { path: '/a/b' } });
    expect(judge([proposal('flattened-key', 1, 'shape', '/a/b'), proposal('flattened-key', 1, 'shape', '/a.b')])).toEqual({
      kind: 'ambiguous',
      readings: [{ rule: 'flattened-key', path: '/a/b', to: '1' }, { rule: 'flattened-key', path: '/a.b', to: '1' }],
    });
  });

  test('none that fits is no verdict to take', () => {
    expect(judge([proposal('wrap-in-array', [1], 'none')])).toEqual({ kind: 'none' });
    expect(judge([])).toEqual({ kind: 'none' });
  });

  test('two proposals of one place and value are one reading: the first that a rule writes is taken', () => {
    expect(judge([proposal('list-split', [1], 'whole'), proposal('wrap-in-array', [1], 'whole'), proposal('json-text', [1], 'whole')])).toMatchObject({ kind: 'take', proposal: { rule: 'wrap-in-array' } });
  });

  test('one reading that no rule writes (a list split) is never taken: ambiguous, named', () => {
    expect(judge([proposal('list-split', ['a', 'b'], 'whole')])).toEqual({ kind: 'ambiguous', readings: [{ rule: 'list-split', path: '/n', to: '["a","b"]' }] });
  });

  test('the same value at two places is two readings', () => {
    expect(judge([proposal('as-sent', 'v', 'whole', '/a.b'), proposal('flattened-key', 'v', 'whole', '/a/b')]).kind).toBe('ambiguous');
  });
});

describe('describeReadings', () => {
  test('a reading at the refusal\'s own place shows its value; elsewhere, its place too; the root by name', () => {
    expect(describeReadings([{ rule: 'string-to-integer', path: '/n', to: '5' }, { rule: 'rename-key', path: '/m', to: '5' }, { rule: 'unwrap', path: '', to: '{}' }], '/n')).toBe(
      '5 (string-to-integer), /m = 5 (rename-key), the root = {} (unwrap)',
    );
  });

  test('a long value is cut at 80 characters, the last one an ellipsis', () => {
    const long = `"${'x'.repeat(100)}"`;
    const shown = describeReadings([{ rule: 'wrap-in-array', path: '/n', to: long }], '/n');
    expect(shown).toBe(`${long.slice(0, 79)}… (wrap-in-array)`);
    const exact = `"${'x'.repeat(78)}"`;
    expect(describeReadings([{ rule: 'wrap-in-array', path: '/n', to: exact }], '/n')).toBe(`${exact} (wrap-in-array)`);
  });
});

describe('the first names a key may start with', () => {
  const node = planFor(object({ a: STRING, 'a.b': STRING, 'a.b[0]': STRING, long_name: STRING, '': STRING }))!;
  test.each([
    ['a.b.c', ['a', 'a.b']],
    ['a[0].x', ['a']],
    ['a.b[0].c', ['a', 'a.b', 'a.b[0]']],
    ['a.b', []], // a declared name is the schema's own
    ['ab.c', []],
    ['long_name.x', ['long_name']],
    ['long_name', []],
    ['.x', []], // a key that opens with a dot has no first name
    ['a', []],
    ['x.a', []],
  ])('%j: %j', (key, heads) => {
    expect(declaredHeads(node, key)).toEqual(heads);
  });
});

describe('a refusal names the readings, at most four of each fit from each place', () => {
  test('a key with three dots inside an open map has eight readings: four named', () => {
    const { refusals } = run('{"m.a.b.c.d":1}', object({ m: { type: 'object' } }));
    expect(refusals.map((refusal) => refusal.readings!.map((reading) => reading.path))).toEqual([['/m/a.b.c.d', '/m/a.b.c/d', '/m/a.b/c.d', '/m/a.b/c/d']]);
    expect(refusals[0]!.message).toBe(
      '1 at /m.a.b.c.d was left as it is: its key has more than one reading the schema accepts: /m/a.b.c.d = 1 (flattened-key), /m/a.b.c/d = 1 (flattened-key), /m/a.b/c.d = 1 (flattened-key), /m/a.b/c/d = 1 (flattened-key); send the value under the key you mean, nested as the schema declares it',
    );
    expect(refusals[0]).toMatchObject({ path: '/m.a.b.c.d', value: expect.anything(), reason: 'ambiguous', expected: [] });
  });

  test('a key with 32 boundaries is read every way; with 33, only as sent (here, no reading: left, nothing refused)', () => {
    const schema = object({ m: { type: 'object', properties: { x: STRING } } });
    const key32 = `m.x${'.'.repeat(0)}`;
    expect(run(JSON.stringify({ [key32]: 'v' }), schema).value).toBe('{"m":{"x":"v"}}');
    const thirtyOne = Array.from({ length: 31 }, () => 'y').join('.');
    // m.<31 names joined by dots>: 31 boundaries, read as m / "y.y…" (undeclared in m): no reading.
    const schemaOpen = object({ m: { type: 'object' } });
    const key = `m.${thirtyOne}`;
    expect(run(JSON.stringify({ [key]: 'v' }), schemaOpen).refusals.map((r) => r.reason)).toEqual(['ambiguous']);
    const key33 = `m.${thirtyOne}.y.y`;
    expect(run(JSON.stringify({ [key33]: 'v' }), schemaOpen)).toEqual({ value: JSON.stringify({ [key33]: 'v' }), changes: [], refusals: [] });
    const key32b = `m.${thirtyOne}.y`;
    expect(run(JSON.stringify({ [key32b]: 'v' }), schemaOpen).refusals.map((r) => r.reason)).toEqual(['ambiguous']);
  });

  test('a key of 32 dots under nested open maps is settled in milliseconds (the enumeration is memoised)', () => {
    const key = `m.${Array.from({ length: 31 }, (_, i) => `k${i}`).join('.')}`;
    const started = performance.now();
    const { refusals } = run(JSON.stringify({ [key]: 'v' }), object({ m: { type: 'object' } }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(refusals[0]!.readings).toHaveLength(4);
  });
});

describe('where a step lands', () => {
  test('a name declared with the schema true takes any value below it', () => {
    expect(run('{"a.b.c":"v"}', object({ a: true })).refusals.map((r) => r.reason)).toEqual(['ambiguous']);
  });

  test('additionalProperties false with no property shuts a name out; unevaluatedProperties false too', () => {
    for (const extra of [{ additionalProperties: false }, { unevaluatedProperties: false }]) {
      const schema = object({ a: { type: 'object', patternProperties: { '^b$': STRING }, ...extra } }, { additionalProperties: STRING });
      // a/b.c is shut out, a/b takes no object: as sent is the one reading (a string under additionalProperties).
      expect(run('{"a.b.c":"v"}', schema)).toEqual({ value: '{"a.b.c":"v"}', changes: [], refusals: [] });
    }
  });

  test('a name step into a value that takes no object is no reading, nor an index into one that takes no array', () => {
    expect(run('{"a.b":"v"}', object({ a: { type: 'array' } }))).toEqual({ value: '{"a.b":"v"}', changes: [], refusals: [] });
    expect(run('{"a[0].b":"v"}', object({ a: { type: 'object' } }))).toEqual({ value: '{"a[0].b":"v"}', changes: [], refusals: [] });
  });

  test('an index must be followed by a boundary at once, and the key must end in a name', () => {
    const schema = object({ a: { type: 'array', items: { type: 'object', properties: { b: STRING } } } });
    expect(run('{"a[0]b":"v"}', schema).value).toBe('{"a[0]b":"v"}');
    expect(run('{"a[0][0].b":"v"}', object({ a: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { b: STRING } } } } })).value).toBe('{"a":[[{"b":"v"}]]}');
    expect(run('{"a[0]":"v"}', schema).value).toBe('{"a[0]":"v"}');
  });

  test('an index under an array with items takes the items\' schema; without items, any value', () => {
    expect(run('{"a[0].b":"5"}', object({ a: { type: 'array', items: { type: 'object', properties: { b: { type: 'integer' } } } } })).value).toBe('{"a":[{"b":5}]}');
    expect(run('{"a[0].b":"5"}', object({ a: { type: 'array' } })).value).toBe('{"a":[{"b":"5"}]}');
  });

  test('a first name also sent as a key is no step; a deeper name may be sent beside the key', () => {
    expect(run('{"a":{},"a.b":"v"}', object({ a: object({ b: STRING }) })).value).toBe('{"a":{},"a.b":"v"}');
    expect(run('{"b":"w","a.b":"v"}', object({ a: object({ b: STRING }), b: STRING })).value).toBe('{"b":"w","a":{"b":"v"}}');
  });
});

describe('the rename among the readings', () => {
  const schema = object({ filePath: STRING, file: object({ path: STRING }) });

  test('the rename competes whether or not renameUnambiguous is on, and a key named as sent is no rename of itself', () => {
    for (const options of [LENIENT, { ...LENIENT, renameUnambiguous: true }]) {
      const call = prepareToolCall('{"file.path":"a"}', schema, options);
      expect(call.refusals.map((r) => r.readings!.map(({ rule, path }) => `${rule} ${path}`))).toEqual([['flattened-key /file/path', 'rename-key /filePath']]);
      expect(call.json).toBe('{"file.path":"a"}');
    }
  });

  test('a rename target sent already (not null) is no reading; sent as null it is, and renaming it is a conflict', () => {
    expect(run('{"file.path":"a","filePath":"b"}', schema).value).toBe('{"file":{"path":"a"},"filePath":"b"}');
    // The null is kept (the key's rename would name it) and refused first, as its object is left.
    expect(run('{"file.path":"a","filePath":null}', schema).refusals.map((r) => r.readings?.map(({ rule }) => rule))).toEqual([undefined, ['flattened-key', 'rename-key']]);
    const call = prepareToolCall('{"file_path":"a","filePath":null}', schema, { ...LENIENT, renameUnambiguous: true });
    expect(call.ok).toBe(false);
    expect(call.message).toContain('file_path (did you mean filePath?)');
  });

  test('renameUnambiguous renames the one reading that fits, judged with the coercion\'s options', () => {
    const typed = object({ filePath: { type: 'integer' }, file: object({ path: STRING }) });
    // "5" fits the integer only by a lenient conversion: in integer mode, the nesting and the rename both take it.
    expect(prepareToolCall('{"file.path":"5"}', typed, { renameUnambiguous: true }).json).toBe('{"file.path":"5"}');
    const typedPath = object({ filePath: STRING, file: object({ path: { type: 'integer' } }) });
    expect(prepareToolCall('{"file.path":"x"}', typedPath, { ...LENIENT, renameUnambiguous: true }).json).toBe('{"filePath":"x"}');
    expect(prepareToolCall('{"file.path":"x"}', typedPath, LENIENT).json).toBe('{"file.path":"x"}');
  });
});

describe('an ambiguous refusal in prepareToolCall', () => {
  const schema = object({ labels: { type: 'object' } }, { additionalProperties: true });

  test('a validated call fails on it, even valid as sent, its message naming the readings; an unchecked one goes on', () => {
    const text = '{"labels.app":"web"}';
    expect(validateArgs(parseArgs(text), schema).ok).toBe(true);
    const checked = prepareToolCall(text, schema, { ...LENIENT, validate: validateArgs, toolName: 't' });
    expect(checked.ok).toBe(false);
    expect(checked.errors).toEqual([{ path: '/labels.app', keyword: 'ambiguous', message: 'has more than one reading the schema accepts: "web" (as-sent), /labels/app = "web" (flattened-key); send exactly one' }]);
    expect(checked.message).toBe(
      'Invalid parameters for tool "t": the arguments do not match the tool schema.\n/labels.app: has more than one reading the schema accepts: "web" (as-sent), /labels/app = "web" (flattened-key); send exactly one; you sent "web".\nCorrect the parameters and call the tool again.',
    );
    expect(prepareToolCall(text, schema, { ...LENIENT, rejectRefused: true }).errors.map((e) => e.keyword)).toEqual(['ambiguous']);
    expect(prepareToolCall(text, schema, LENIENT).ok).toBe(true);
  });

  test('a validator\'s own errors are kept beside it', () => {
    const strict = object({ n: { oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] } });
    const call = prepareToolCall('{"n":"5"}', strict, { ...LENIENT, validate: validateArgs });
    expect(call.errors.map((error) => error.keyword)).toContain('ambiguous');
    expect(call.errors.length).toBeGreaterThan(1);
  });
});

describe('values: the readings proposed together', () => {
  test('a separated string names its wrap and its split; at an array of integers, the split alone', () => {
    expect(run('{"n":"a,b"}', object({ n: { type: 'array', items: STRING } })).refusals[0]!.readings).toEqual([
      { rule: 'wrap-in-array', path: '/n', to: '["a,b"]' },
      { rule: 'list-split', path: '/n', to: '["a","b"]' },
    ]);
    const ints = run('{"n":"1, 2"}', object({ n: { type: 'array', items: { type: 'integer' } } })).refusals[0]!;
    expect(ints.readings).toEqual([{ rule: 'list-split', path: '/n', to: '["1","2"]' }]);
    expect(ints.message).toBe('"1, 2" at /n was left as it is: it has more than one reading the schema accepts: ["1","2"] (list-split); expected array');
  });

  test('arrays off: no wrap and no split is proposed', () => {
    expect(run('{"n":"a,b"}', object({ n: { type: 'array', items: STRING } }), { lenient: { arrays: false } }).refusals.map((r) => [r.reason, r.readings])).toEqual([['unconvertible', undefined]]);
  });

  test('booleans and null are read on the text without its layout; a wrapped value keeps it', () => {
    expect(run('{"b":"\\u0085false "}', object({ b: { type: 'boolean' } })).value).toBe('{"b":false}');
    expect(run('{"b":" True"}', object({ b: { type: 'boolean' } })).value).toBe('{"b":true}');
    expect(run('{"b":"\\t0"}', object({ b: { type: 'boolean' } })).value).toBe('{"b":false}');
    expect(run('{"z":" null\\n"}', object({ z: { type: 'null' } })).value).toBe('{"z":null}');
    expect(run('{"n":" [1] "}', object({ n: { type: 'array', items: { type: 'integer' } } })).value).toBe('{"n":[1]}');
    expect(run('{"n":" {1 "}', object({ n: { type: 'array', items: STRING } })).refusals.map((r) => r.reason)).toEqual(['unconvertible']);
  });

  test('a number at a position that also takes an integer is never written as text, lossless or plain', () => {
    for (const args of [parseArgs('{"n":2.5}'), { n: 2.5 }]) {
      expect(coerceArgs(args, object({ n: { type: ['number', 'string'] } }), LENIENT).value).toBe(args);
      expect(coerceArgs(args, object({ n: { type: ['integer', 'string'] } }), LENIENT).refusals.map((r) => r.reason)).toEqual(['not-whole']);
    }
    expect(coerceArgs({ n: 3 }, object({ n: { type: ['boolean', 'string'] } }), LENIENT).value).toEqual({ n: '3' });
  });

  test('the exact text of plain numbers', () => {
    expect([1, -7, 0.5, 0.75, 2 ** -10, 2 ** -20, -0, 9007199254740991, -9007199254740991].map(exactText)).toEqual(['1', '-7', '0.5', '0.75', '0.0009765625', '9.5367431640625e-7', '-0', '9007199254740991', '-9007199254740991']);
    // 2^-30's shortest decimal, 9.313225746154785e-10, is not its value (…4785156…e-10).
    expect([0.1, 1 / 3, 2 ** -30, 9007199254740992, -9007199254740992, Infinity, NaN, 1e300, 5e-324].map(exactText)).toEqual(Array(9).fill(undefined));
  });

  test('the text path agrees on each of these', () => {
    const schema = object({ n: { type: 'array', items: STRING }, b: { type: 'boolean' } });
    expect(coerceArgsJson('{"n":"a،b","b":" true"}', schema, LENIENT)).toBe('{"n":"a،b","b":true}');
  });
});

describe('the gate, asked directly', () => {
  const node = planFor(STRING)!;
  /** A context that records what `settle` reports. */
  const recorder = () => {
    const seen: string[] = [];
    const context: GateContext = {
      change: (from, to, rule) => void seen.push(`change ${JSON.stringify(from)} -> ${JSON.stringify(to)} (${rule})`),
      refuse: (value, _node, reason, _values, readings) => void seen.push(`refuse ${JSON.stringify(value)} ${reason}${readings === undefined ? '' : ` ${readings.length}`}`),
      adopt: (inner) => void seen.push(`adopt ${inner.changes.length}`),
    };
    return { seen, context };
  };

  test('the value as sent, taken, is the value itself and no change', () => {
    const { seen, context } = recorder();
    const value = { sent: true };
    expect(settle(value, node, context, [proposal('as-sent', { other: true }, 'whole'), proposal('as-sent', { other: true }, 'none', '/m')])).toBe(value);
    expect(seen).toEqual([]);
  });

  test('a reading taken is written with its change; none that fits is refused with the failure given', () => {
    const { seen, context } = recorder();
    expect(settle('5', node, context, [proposal('string-to-integer', 5, 'whole')])).toBe(5);
    expect(settle('x', node, context, [proposal('string-to-integer', 5, 'none')], 'not-whole')).toBe('x');
    expect(seen).toEqual(['change "5" -> 5 (string-to-integer)', 'refuse "x" not-whole']);
  });

  test('a coercion with a refusal inside gives no fit; one without, the whole', () => {
    expect(fitOf({ value: 1, changes: [], refusals: [{ path: '', value: 1, reason: 'unconvertible', expected: [], message: '' }] })).toBe('none');
    expect(fitOf({ value: 1, changes: [], refusals: [] })).toBe('whole');
  });

  test('a reading of one place and value proposed twice is named by its first rule', () => {
    expect(judge([proposal('wrap-in-array', [1], 'whole'), proposal('json-text', [1], 'whole'), proposal('list-split', [2], 'whole')])).toEqual({
      kind: 'ambiguous',
      readings: [{ rule: 'wrap-in-array', path: '/n', to: '[1]' }, { rule: 'list-split', path: '/n', to: '[2]' }],
    });
  });

  test('a value that contains itself has no JSON text: its text and preview are String(value)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(textOf(cyclic)).toBe('[object Object]');
    expect(previewOf(cyclic)).toBe('[object Object]');
  });

  test('on a fresh import, no fitting reading is the verdict none', async () => {
    vi.resetModules();
    const fresh = await import('../src/coerce/gate.js');
    expect(fresh.judge([proposal('as-sent', 1, 'none')])).toEqual({ kind: 'none' });
  });
});

describe('key readings, boundary by boundary', () => {
  const closed = { additionalProperties: false };

  test('a dotted key whose first name is declared nowhere is no path: walked as sent, on both paths', () => {
    expect(run('{"x.y":1}', object({ a: STRING }))).toEqual({ value: '{"x.y":1}', changes: [], refusals: [] });
    const extra = object({ a: STRING }, { additionalProperties: { type: 'integer' } });
    expect(run('{"x.y":"5"}', extra)).toEqual({ value: '{"x.y":5}', changes: ['string-to-integer /x.y'], refusals: [] });
    expect(coerceArgsJson('{"x.y":"5"}', extra, LENIENT)).toBe('{"x.y":5}');
  });

  test('one schema reached at one position by two readings is not confused with another reached there first', () => {
    const INTEGER = { type: 'integer' };
    const c = object({ w: INTEGER }, closed);
    const schema = object({ 'a.b.c': object({ z: INTEGER }, closed), 'a.b': object({ c }, closed), a: object({ b: object({ c }, closed) }, closed) }, closed);
    expect(run('{"a.b.c.z":"1"}', schema)).toEqual({ value: '{"a.b.c":{"z":1}}', changes: ['flattened-key /a.b.c/z', 'string-to-integer /a.b.c/z'], refusals: [] });
  });

  test('one position reached through two declared names (a.b, and a then b) is read at each on its own', () => {
    const schema = object({ 'a.b': object({ c: object({ d: { type: 'integer' } }, closed) }, closed), a: object({ b: object({ x: STRING }, closed) }, closed) }, closed);
    expect(run('{"a.b.c.d":1}', schema)).toEqual({ value: '{"a.b":{"c":{"d":1}}}', changes: ['flattened-key /a.b/c/d'], refusals: [] });
  });

  test('two dots in a row are no empty name: the dot after them begins the name', () => {
    expect(run('{"a..b":1}', object({ a: { type: 'object' } }, closed))).toEqual({ value: '{"a":{".b":1}}', changes: ['flattened-key /a/.b'], refusals: [] });
  });

  test('an index below a free place is read as an index, with one digit or several', () => {
    expect(run('{"m.k[12].z":1}', object({ m: { type: 'object' } }, closed)).refusals.map((r) => r.readings!.map((reading) => reading.path))).toEqual([['/m/k[12].z', '/m/k[12]/z', '/m/k/12/z']]);
  });

  test('an index from 1 to 9 is a step', () => {
    const schema = object({ a: { type: 'array', items: object({ b: { type: 'integer' } }) } });
    expect(run('{"a[0].b":7,"a[1].b":"5"}', schema)).toEqual({ value: '{"a":[{"b":7},{"b":5}]}', changes: ['flattened-key /a/0/b', 'flattened-key /a/1/b', 'string-to-integer /a/1/b'], refusals: [] });
  });

  test('the readings are named with the value coerced where each would land', () => {
    const extra = { additionalProperties: { type: 'integer' } };
    const { refusals } = run('{"a.b.c":"5"}', object({ a: object({ b: object({}, extra) }, extra) }, closed));
    expect(refusals.map((r) => r.readings)).toEqual([[{ rule: 'flattened-key', path: '/a/b.c', to: '5' }, { rule: 'flattened-key', path: '/a/b/c', to: '5' }]]);
  });

  test('additionalProperties false in one member of allOf shuts a name out', () => {
    expect(run('{"a.x":"v"}', object({ a: { type: 'object', allOf: [closed] } }))).toEqual({ value: '{"a.x":"v"}', changes: [], refusals: [] });
  });
});

describe('the name a key spells, on a fresh import (the tag pattern is a module constant)', () => {
  const load = async () => {
    vi.resetModules();
    return import('../src/coerce/key-readings.js');
  };

  test('a parameter tag held whole as a key spells the name it tags, spaced any way, its brackets optional', async () => {
    const { spelledName } = await load();
    for (const key of ['parameter name="ops"', '<parameter name="ops">', '<parameter name="ops"', 'parameter name="ops">', 'parameter  name = "ops" >', 'parameter\tname=\t"ops"\t>', 'parameter name= "ops"']) {
      expect(spelledName(key), key).toBe('ops');
    }
  });

  test('a key that only holds such a tag among other text, or a malformed one, spells itself', async () => {
    const { spelledName } = await load();
    for (const key of ['xparameter name="ops"', 'parameter name="ops">x', 'parameter name="ops">>', 'parametername="ops"', 'parameter name="o<s"', 'parameter name=""', 'parameter nam="ops"', 'ops']) {
      expect(spelledName(key), key).toBe(key);
    }
  });

  test('renameTargets: the declared names a key spells, never the key itself', async () => {
    const { renameTargets } = await load();
    const { planFor } = await import('../src/schema/plan.js');
    const node = planFor({ type: 'object', properties: { ops: { type: 'array' }, filePath: { type: 'string' } } })!;
    expect(renameTargets(node, 'parameter name="ops"')).toEqual(['ops']);
    expect(renameTargets(node, 'ops')).toEqual([]);
    expect(renameTargets(node, 'file.path')).toEqual(['filePath']);
    expect(renameTargets(node, 'other')).toEqual([]);
  });
});
