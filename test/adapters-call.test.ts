/**
 * The calls the framework and MCP adapters share, run directly: which validator each `validate`
 * setting picks (Ajv's loaded on `true`, none on `false`, the adapter's default when unset, a
 * custom one as given), that the chosen validator decides whether the call goes on, the errors'
 * own names, and the MCP client's `toWire` with and without `JSON.rawJSON` (a fresh import each).
 */
import { describe, expect, test, vi } from 'vitest';
import { prepareFrameworkCall, resolveValidator } from '../src/adapters/frameworks/framework-call.js';
import { prepare } from '../src/adapters/mcp/options.js';
import { NumberPrecisionError } from '../src/adapters/mcp/wire.js';
import { InvalidToolArgumentsError } from '../src/adapters/mcp/client.js';
import type { ArgsValidator } from '../src/index.js';

/** A schema that repair leaves alone but validation refuses for `{ n: 0 }`. */
const SCHEMA = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } };
const refuseAll: ArgsValidator = () => ({ valid: false, errors: [{ path: '/n', message: 'refused by the custom validator' }] }) as never;

describe('which validator an adapter uses', () => {
  test('true loads the built-in one, false and an unset default mean none, a custom one is used as it is', async () => {
    expect(typeof (await resolveValidator(true, false))).toBe('function');
    expect(typeof (await resolveValidator(undefined, true))).toBe('function');
    expect(await resolveValidator(false, true)).toBeUndefined();
    expect(await resolveValidator(undefined, false)).toBeUndefined();
    expect(await resolveValidator(refuseAll, false)).toBe(refuseAll);
  });

  test('the framework call is refused by the validator it is given, and goes on without one', async () => {
    const validated = prepareFrameworkCall({ n: 0 }, SCHEMA, 't', {}, await resolveValidator(true, false));
    expect(validated.ok).toBe(false);
    const unvalidated = prepareFrameworkCall({ n: 0 }, SCHEMA, 't', {}, await resolveValidator(false, true));
    expect(unvalidated.ok).toBe(true);
  });

  test('the MCP adapters validate with Ajv on true, not at all on false or unset, and with a custom validator as given', async () => {
    expect((await prepare({ n: 0 }, SCHEMA, 't', { validate: true })).ok).toBe(false);
    expect((await prepare({ n: 0 }, SCHEMA, 't', { validate: false })).ok).toBe(true);
    expect((await prepare({ n: 0 }, SCHEMA, 't', {})).ok).toBe(true);
    expect((await prepare({ n: 5 }, SCHEMA, 't', { validate: refuseAll })).ok).toBe(false);
  });
});

describe('the adapters\' errors carry their own names', () => {
  test('NumberPrecisionError names the literal, where it is, and the way out', () => {
    const error = new NumberPrecisionError('12345678901234567890', '/ids/0', 'pass lossyNumbers: true to send it rounded');
    expect(error.name).toBe('NumberPrecisionError');
    expect(error.literal).toBe('12345678901234567890');
    expect(error.path).toBe('/ids/0');
    expect(error.message).toBe('[schema-coerce] the number 12345678901234567890 at /ids/0 is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): pass lossyNumbers: true to send it rounded');
    expect(new NumberPrecisionError('1e400', '', 'x').detail).toBe('the number 1e400 at the root is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): x');
    expect(new NumberPrecisionError('1e400', undefined, 'x').detail).toBe('the number 1e400 is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): x');
  });

  test('InvalidToolArgumentsError is the MCP name of an invalid call', async () => {
    const call = await prepare({ n: 0 }, SCHEMA, 't', { validate: true });
    expect(new InvalidToolArgumentsError(call).name).toBe('InvalidToolArgumentsError');
  });
});

/** `toWire` as a fresh import sees the runtime: with `JSON.rawJSON` (a stand-in when the runtime has none) or without. */
async function wireWith(rawJSON: boolean): Promise<{ wire: typeof import('../src/adapters/mcp/wire.js'); lossless: typeof import('../src/json/lossless.js') }> {
  const json = JSON as { rawJSON?: unknown };
  const had = Object.getOwnPropertyDescriptor(JSON, 'rawJSON');
  if (rawJSON) json.rawJSON ??= (text: string) => ({ raw: text });
  else delete json.rawJSON;
  vi.resetModules();
  try {
    return { wire: await import('../src/adapters/mcp/wire.js'), lossless: await import('../src/json/lossless.js') };
  } finally {
    if (had === undefined) delete json.rawJSON;
    else Object.defineProperty(JSON, 'rawJSON', had);
    vi.resetModules();
  }
}

describe("toWire, the MCP client's conversion, on either runtime", () => {
  test('with JSON.rawJSON: plain numbers where exact, an ExactNumber (written raw) where none is, lossy or not', async () => {
    const { wire, lossless } = await wireWith(true);
    const args = lossless.parseArgs('{"a":1.0,"b":[9007199254740993]}');
    for (const lossy of [false, true]) {
      const sent = wire.toWire(args, lossy) as { a: unknown; b: unknown[] };
      expect(sent.a).toBe(1);
      expect(sent.b[0]).toBeInstanceOf(lossless.ExactNumber);
      expect(sent.b[0]).toMatchObject({ value: '9007199254740993', path: '/b/0' });
    }
    const prepared = new lossless.ExactNumber('12345678901234567890', '/id');
    expect((wire.toWire({ id: prepared }, false) as { id: unknown }).id).toBe(prepared);
  });

  test('without it: a NumberPrecisionError naming the path before anything is sent, or the nearest number when lossy', async () => {
    const { wire, lossless } = await wireWith(false);
    const args = lossless.parseArgs('{"a":1.0,"b":[9007199254740993]}');
    expect(() => wire.toWire(args, false)).toThrow(wire.NumberPrecisionError);
    expect(() => wire.toWire(args, false)).toThrow('[schema-coerce] the number 9007199254740993 at /b/0 is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): pass lossyNumbers: true to send it rounded');
    expect(wire.toWire(args, true)).toEqual({ a: 1, b: [9007199254740992] });
    expect(wire.toWire(lossless.parseArgs('{"a":2.50}'), false)).toEqual({ a: 2.5 });
  });
});
