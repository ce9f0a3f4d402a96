/**
 * `coerceArgs` and the text path answer for a hostile getter or Proxy in the arguments or the
 * schema (the value left as it is, refused as unreadable), and for nothing else: an error of the
 * library's own is thrown as it is, never passed off as the caller's. The library's errors are
 * made here by a switch in the scanner and the walk (`fail`): on, the next scan or walk throws,
 * and turns it off (a later read of the text, after the error, is its true self).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ArgsParseError, coerceArgs, coerceArgsJson, formatToolCall, parseArgs, stringifyArgs } from '../src/index.js';
import { listOf } from './_helpers/text-edits.js';
import type { TextEdits } from '../src/coerce/text-edits.js';
import { coerceArgsJsonEdits } from '../src/coerce/coerce.js';

const fail = vi.hoisted(() => ({ on: false }));
const internal = (): never => {
  fail.on = false;
  throw new TypeError('an internal error');
};

vi.mock('../src/json/scanner.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/json/scanner.js')>();
  return { ...actual, scanJson: (...args: Parameters<typeof actual.scanJson>) => (fail.on ? internal() : actual.scanJson(...args)) };
});
vi.mock('../src/coerce/walk.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/coerce/walk.js')>();
  return { ...actual, walk: (...args: Parameters<typeof actual.walk>) => (fail.on ? internal() : actual.walk(...args)) };
});

/** `text` with `edits` applied, from the last one back. */
const applyEdits = (text: string, edits: TextEdits): string => listOf(edits)!.reduceRight((output, { start, end, text: to }) => output.slice(0, start) + to + output.slice(end), text);

afterEach(() => {
  fail.on = false;
});

const throwing = (): never => {
  throw new Error('hostile');
};
/** A Proxy every read of which throws. */
const hostileProxy = (): object => new Proxy({}, { get: throwing, ownKeys: throwing, getOwnPropertyDescriptor: throwing });
const integerN = { type: 'object', properties: { n: { type: 'integer' } } };
/** A schema whose `required` throws, read only when a null may be dropped (lenient rule `optionalNull`). */
const hostileRequired = (): object => ({ type: 'object', properties: { a: { type: 'string' } }, get required(): never { return throwing(); } });
/** A readable schema that contains itself, and one that holds a bigint. */
const cyclic = (): object => {
  const schema: Record<string, unknown> = { type: 'object', properties: { n: { type: 'integer' } } };
  schema['properties'] = { n: { type: 'integer' }, self: schema };
  return schema;
};
const withBigint = { type: 'object', properties: { n: { type: 'integer', maximum: 10n } } };

describe('the text path', () => {
  test('a schema whose reading throws on the way leaves the text as it is (text and edits)', () => {
    expect(coerceArgsJson('{"a": null}', hostileRequired(), { lenient: true })).toBe('{"a": null}');
    expect(coerceArgsJsonEdits('{"a": null}', hostileRequired(), { lenient: true }).length).toBe(0);
  });

  test('an error of its own is thrown as it is, whatever the readable schema holds', () => {
    for (const schema of [integerN, cyclic(), withBigint]) {
      fail.on = true;
      expect(() => coerceArgsJson('{"n": 1.0}', schema)).toThrow('an internal error');
      fail.on = false;
      expect(coerceArgsJson('{"n": 1.0}', schema)).toBe('{"n": 1}');
    }
  });
});

describe('coerceArgs', () => {
  test('arguments whose reading throws are left as they are, refused as unreadable', () => {
    const args = { get n(): never { return throwing(); } };
    const result = coerceArgs(args, integerN);
    expect(result.value).toBe(args);
    expect(result.changes).toEqual([]);
    expect(result.refusals).toMatchObject([{ path: '', reason: 'unreadable', expected: [], message: 'the arguments were left as they are: reading them or the schema threw (hostile)' }]);
  });

  test('so is a schema whose reading throws, at once or on the way', () => {
    for (const schema of [hostileProxy(), hostileRequired()]) {
      const args = parseArgs('{"a": null}');
      const result = coerceArgs(args, schema, { lenient: true });
      expect(result.value).toBe(args);
      expect(result.refusals.map(({ reason }) => reason)).toEqual(['unreadable']);
    }
  });

  test('an error of its own is thrown as it is, whatever the readable arguments and schema hold', () => {
    for (const [args, schema] of [[parseArgs('{"n": 1.0}'), integerN], [{ n: 1, big: 2n }, integerN], [parseArgs('{"n": 1.0}'), cyclic()], [parseArgs('{"n": 1.0}'), withBigint]] as const) {
      fail.on = true;
      expect(() => coerceArgs(args, schema)).toThrow('an internal error');
      fail.on = false;
      expect(coerceArgs(args, schema).refusals).toEqual([]);
    }
  });
});

describe('the options and edges of the coercion functions', () => {
  const integer = { type: 'object', properties: { n: { type: 'integer' } } };

  test.each([
    // 2^53 + 1: within int64, past the safe integers; 10^20: past int64.
    ['{"n":9007199254740993.0}', undefined, '{"n":9007199254740993}'],
    ['{"n":9007199254740993.0}', 'int64', '{"n":9007199254740993}'],
    ['{"n":9007199254740993.0}', 'safe', '{"n":9007199254740993.0}'],
    ['{"n":100000000000000000000.0}', 'int64', '{"n":100000000000000000000.0}'],
    ['{"n":100000000000000000000.0}', 'unbounded', '{"n":100000000000000000000}'],
    ['{"n":100000000000000000000.0}', 'no such range', '{"n":100000000000000000000.0}'],
  ] as const)('%s with integerRange %s gives %s, from text and from values', (input, integerRange, expected) => {
    const options = integerRange === undefined ? undefined : { integerRange: integerRange as 'int64' };
    expect(coerceArgsJson(input, integer, options)).toBe(expected);
    expect(stringifyArgs(coerceArgs(parseArgs(input), integer, options).value)).toBe(expected);
  });

  test('a schema with nothing to do gives the arguments back, with no change and no refusal', () => {
    const args = parseArgs('{"n":1.0}');
    for (const schema of [{}, { type: 'object', properties: { n: { type: 'number' } } }, true, undefined]) {
      const result = coerceArgs(args, schema);
      expect(result).toEqual({ value: args, changes: [], refusals: [] });
      expect(result.value).toBe(args);
    }
  });

  test.each([
    [null, 'expected a string, got null'],
    [42, 'expected a string, got number'],
    [undefined, 'expected a string, got undefined'],
  ])('text that is no string (%s) is refused: %s', (text, message) => {
    expect(() => coerceArgsJson(text as unknown as string, integer)).toThrow(ArgsParseError);
    expect(() => coerceArgsJson(text as unknown as string, integer)).toThrow(message);
  });

  test('under a schema whose reading throws, text that is not JSON still throws, repairable or not', () => {
    expect(() => coerceArgsJson('{"a": null, \'b\': 1}', hostileRequired(), { lenient: true })).toThrow(ArgsParseError);
  });

  test('arguments the object path reads and leaves as they are: no edit, and the text itself', () => {
    // A key that may spell a path, under a closed object: the object path decides, and changes nothing.
    const text = '{"x.y": 1}';
    expect(coerceArgsJson(text, integer, { lenient: true })).toBe(text);
    expect(coerceArgsJsonEdits(text, integer, { lenient: true }).length).toBe(0);
  });

  test('text the syntax rule repairs: one edit of the whole text, what coerceArgsJson returns', () => {
    const text = "{'n': 5.0}";
    expect(coerceArgsJson(text, integer, { lenient: true })).toBe('{"n":5}');
    expect(listOf(coerceArgsJsonEdits(text, integer, { lenient: true }))).toEqual([{ start: 0, end: text.length, text: '{"n":5}' }]);
  });

  test('an optional null the object path removes: the edits give what coerceArgsJson returns', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' }, a: { type: 'string' } }, required: ['n'] };
    const text = '{"n": 1.0, "a": null}';
    expect(coerceArgsJson(text, schema, { lenient: true })).toBe('{"n":1}');
    expect(applyEdits(text, coerceArgsJsonEdits(text, schema, { lenient: true }))).toBe('{"n":1}');
  });

  test('formatToolCall: arguments that cannot be written as JSON are shown as String gives them', () => {
    const args = { get a(): never { return throwing(); } };
    expect(formatToolCall('f', args)).toBe('f([object Object])');
    expect(formatToolCall('f', parseArgs('{"n":1.0}'))).toBe('f({"n":1.0})');
    expect(formatToolCall('f', parseArgs('{"n":1.0}'), integer)).toBe('f({"n":1})');
  });
});
