/**
 * The numbers handed to JavaScript code, asked for each part: which literals a plain number holds
 * (`plainNumberOf`), what `JSON.stringify` makes of a `LosslessNumber` and an `ExactNumber` with
 * and without `JSON.rawJSON` (each branch on a fresh import, the runtime's `JSON.rawJSON` set or
 * taken away for it), what `structuredClone` does, `toPlainNumbers` in both modes, the paths it
 * names, and `prepareToolCall`'s `args` on every way out of it. fixtures/dispatch/values.json
 * (test/dispatch.test.ts) has the same values through every route a caller takes.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { LosslessNumber as LosslessJsonNumber } from 'lossless-json';
import { ExactNumber, LosslessNumber, NumberPrecisionError, isLosslessNumber, parseArgs, prepareToolCall, stringifyArgs, toPlainNumbers } from '../src/index.js';
import { mapLosslessNumbers, plainNumberOf } from '../src/json/lossless.js';
import { deepFreeze } from './_helpers/fixtures.js';

describe('plainNumberOf: the plain number a literal may be handed out as', () => {
  test.each([
    ['0', 0], ['-0', -0], ['0.000', 0], ['-0.0', -0], ['0e5', 0], ['0.0E-10', 0], ['0e+400', 0], ['0.00e-12', 0], ['0E7', 0],
    ['42', 42], ['-7', -7], ['1.0', 1], ['1e3', 1000], ['1.5', 1.5], ['0.1', 0.1], ['-2.5e-3', -0.0025],
    ['3.14159265358979323846', 3.141592653589793], ['5e-324', 5e-324], ['4503599627370495.5', 4503599627370495.5],
    ['9007199254740991', 9007199254740991], ['-9007199254740991', -9007199254740991], ['9007199254740990.0', 9007199254740990],
  ])('%s → %d', (literal, expected) => {
    expect(Object.is(plainNumberOf(literal), expected)).toBe(true);
  });

  test.each([
    // Whole numbers beyond ±(2^53−1), however written.
    '9007199254740992', '-9007199254740992', '9007199254740993', '12345678901234567890', '1e300', '1.5e17', '9007199254740993.0', '-1e20', '1.7976931348623157e308',
    // Beyond float64, and non-zero numbers float64 rounds to zero.
    '1e400', '-1e400', '1e-400', '-1e-400', '0.5e-400', '10e-401', '0.1e-330', '20e-400', '0.01e-400', '-0.01e-400', '0.0001e-399',
    // Not a number at all.
    'abc', '',
  ])('%s has none', (literal) => {
    expect(plainNumberOf(literal)).toBeUndefined();
  });
});

/** The lossless-number module as a fresh import would see `rawJSON` (a function, or none). */
async function freshWith(rawJSON: ((text: string) => unknown) | undefined): Promise<typeof import('../src/json/lossless-number.js')> {
  const json = JSON as { rawJSON?: unknown };
  const had = Object.getOwnPropertyDescriptor(JSON, 'rawJSON');
  if (rawJSON === undefined) delete json.rawJSON;
  else json.rawJSON = rawJSON;
  vi.resetModules();
  try {
    return await import('../src/json/lossless-number.js');
  } finally {
    if (had === undefined) delete json.rawJSON;
    else Object.defineProperty(JSON, 'rawJSON', had);
  }
}

/** A number's `toJSON` (the type is lossless-json's, which declares none). */
const toJSONOf = (number: object): unknown => (number as { toJSON(): unknown }).toJSON();

afterEach(() => {
  vi.resetModules();
});

describe('JSON.stringify of a LosslessNumber', () => {
  test('with JSON.rawJSON: the literal as spelled, through rawJSON', async () => {
    const seen: string[] = [];
    const fresh = await freshWith((text) => (seen.push(text), { raw: text }));
    expect(toJSONOf(new fresh.LosslessNumber('1.0'))).toEqual({ raw: '1.0' });
    expect(toJSONOf(new fresh.ExactNumber('9007199254740993', '/v'))).toEqual({ raw: '9007199254740993' });
    expect(seen).toEqual(['1.0', '9007199254740993']);
  });

  test('without it: the plain number where one is exact, else a NumberPrecisionError naming the path', async () => {
    const fresh = await freshWith(undefined);
    expect(JSON.stringify([new fresh.LosslessNumber('1.0'), new fresh.LosslessNumber('-2.50')])).toBe('[1,-2.5]');
    let thrown: unknown;
    try {
      JSON.stringify({ v: new fresh.ExactNumber('9007199254740993', '/v') });
    } catch (error) {
      thrown = error;
    }
    // The fresh import's own class: the same name and fields.
    expect(thrown).toMatchObject({ name: 'NumberPrecisionError', literal: '9007199254740993', path: '/v' });
    expect((thrown as Error).message).toBe(
      '[schema-coerce] the number 9007199254740993 at /v is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): ' +
        "run on Node 22 or later, or send the exact JSON text yourself (a prepared call's json, or stringifyArgs(value)); toPlainNumbers(value, { lossy: true }) rounds it, where that is what you want",
    );
    expect(() => JSON.stringify(new fresh.LosslessNumber('1e400'))).toThrow(expect.objectContaining({ literal: '1e400', path: undefined }));
    expect(() => JSON.stringify(new fresh.LosslessNumber('-1e400'))).toThrow(/^\[schema-coerce\] the number -1e400 is beyond /);
    expect(() => JSON.stringify(new fresh.ExactNumber('1e400', ''))).toThrow(/^\[schema-coerce\] the number 1e400 at the root is beyond /);
  });

  test('this runtime: never a wrapper object, never a rounded digit', () => {
    const value = parseArgs('{"a":1.0,"b":[0.5,-3]}');
    const hasRawJSON = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';
    expect(JSON.stringify(value)).toBe(hasRawJSON ? '{"a":1.0,"b":[0.5,-3]}' : '{"a":1,"b":[0.5,-3]}');
    const big = parseArgs('{"id":12345678901234567890}');
    if (hasRawJSON) expect(JSON.stringify(big)).toBe('{"id":12345678901234567890}');
    else expect(() => JSON.stringify(big)).toThrow(NumberPrecisionError);
  });
});

describe('LosslessNumber and ExactNumber as objects', () => {
  test('a LosslessNumber is lossless-json\'s, with an own, shared toJSON that structuredClone refuses', () => {
    const one = new LosslessNumber('1.0');
    expect(one).toBeInstanceOf(LosslessJsonNumber);
    expect(isLosslessNumber(one)).toBe(true);
    expect(Object.keys(one)).toEqual(['value', 'isLosslessNumber', 'toJSON']);
    expect(Object.getOwnPropertyDescriptor(one, 'toJSON')?.value).toBe(Object.getOwnPropertyDescriptor(new LosslessNumber('2'), 'toJSON')?.value);
    expect(() => structuredClone({ one })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    expect(() => new LosslessNumber('1.0.0')).toThrow('Invalid number');
  });

  test('an ExactNumber is a frozen LosslessNumber that knows where it was, read as its literal or a bigint', () => {
    const id = new ExactNumber('12345678901234567890', '/ids/0');
    expect(id).toBeInstanceOf(LosslessNumber);
    expect(isLosslessNumber(id)).toBe(true);
    expect(id).toMatchObject({ value: '12345678901234567890', path: '/ids/0' });
    expect(Object.isFrozen(id)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(id, 'toJSON')).toMatchObject({ enumerable: true });
    expect(String(id)).toBe('12345678901234567890');
    expect(id.valueOf()).toBe(12345678901234567890n);
    expect(stringifyArgs([id])).toBe('[12345678901234567890]');
    expect(() => structuredClone(id)).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
  });
});

describe('toPlainNumbers', () => {
  test('plain numbers where exact, ExactNumbers where not, each with its path; the input untouched', () => {
    const input = deepFreeze(parseArgs('{"a":1.0,"b":[9007199254740993,{"c/d~e":1e400}],"__proto__":-0}'));
    const plain = toPlainNumbers(input) as { a: unknown; b: [unknown, Record<string, unknown>]; ['__proto__']: unknown };
    expect(plain.a).toBe(1);
    expect(plain.b[0]).toEqual(new ExactNumber('9007199254740993', '/b/0'));
    expect(plain.b[0]).toBeInstanceOf(ExactNumber);
    expect(plain.b[1]['c/d~e']).toEqual(new ExactNumber('1e400', '/b/1/c~1d~0e'));
    expect(Object.is(Object.getOwnPropertyDescriptor(plain, '__proto__')?.value, -0)).toBe(true);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(toPlainNumbers(new LosslessNumber('9007199254740993'))).toEqual(new ExactNumber('9007199254740993', ''));
  });

  test('plain values come back as they are, ExactNumbers included', () => {
    const exact = new ExactNumber('9007199254740993', '/x');
    const value = deepFreeze({ a: [1, 'x', exact], b: null });
    expect(toPlainNumbers(value)).toBe(value);
    const again = toPlainNumbers(toPlainNumbers(parseArgs('[1,9007199254740993]')));
    expect(toPlainNumbers(again)).toBe(again);
  });

  test('lossy: every number the nearest plain number, ExactNumbers too', () => {
    const value = [new LosslessNumber('9007199254740993'), new LosslessNumber('1e400'), new ExactNumber('12345678901234567890', '/2'), 2];
    expect(toPlainNumbers(value, { lossy: true })).toEqual([9007199254740992, Infinity, 12345678901234567000, 2]);
    expect(toPlainNumbers(value, { lossy: false })).toEqual([new ExactNumber('9007199254740993', '/0'), new ExactNumber('1e400', '/1'), value[2], 2]);
  });

  test('mapLosslessNumbers hands the conversion the literal, the pointer and the number itself', () => {
    const number = new LosslessNumber('5');
    const calls: unknown[] = [];
    mapLosslessNumbers({ a: [number] }, (literal, pointer, original) => calls.push([literal, pointer(), original]));
    expect(calls).toEqual([['5', '/a/0', number]]);
    expect((calls[0] as unknown[])[2]).toBe(number);
  });
});

describe("prepareToolCall's args: plain values on every way out", () => {
  const SCHEMA = { type: 'object', properties: { id: { type: 'integer' } } };

  test('coerced, repaired, unchanged, and with no schema', () => {
    for (const [text, schema, options] of [
      ['{"id": 9007199254740993.0}', SCHEMA, {}],
      ["{'id': 9007199254740993}", SCHEMA, { lenient: true }],
      ['{"id": 9007199254740993}', SCHEMA, {}],
      ['{"id": 9007199254740993}', undefined, {}],
    ] as const) {
      const call = prepareToolCall(text, schema, options);
      expect(call.args, text).toEqual({ id: new ExactNumber('9007199254740993', '/id') });
      expect(call.json, text).toContain('9007199254740993');
    }
  });

  test('a validator is still handed the lossless value, and a refused call keeps it too', () => {
    const handed: unknown[] = [];
    const call = prepareToolCall('{"id": 5.0, "n": 1.5}', SCHEMA, { validate: (args) => (handed.push(args), { ok: false, message: 'no' }) });
    expect(handed).toEqual([{ id: new LosslessNumber('5'), n: new LosslessNumber('1.5') }]);
    expect(call).toMatchObject({ ok: false, args: { id: 5, n: 1.5 } });
  });

  test('plain arguments with nothing to change are the same reference; text that is not JSON has none', () => {
    const args = deepFreeze({ id: 5, tags: ['a'] });
    expect(prepareToolCall(args, SCHEMA).args).toBe(args);
    expect(prepareToolCall('{"id":', SCHEMA).args).toBeUndefined();
  });
});
