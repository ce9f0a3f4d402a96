import { describe, expect, test } from 'vitest';
import { LosslessNumber, coerceArgs, coerceIntegerArgs, parseArgs, stringifyArgs } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

const INT = { type: 'integer' };

describe('pure core', () => {
  test('builds new containers only on the path to a change', () => {
    const schema = deepFreeze({ properties: { a: { properties: { n: INT } }, b: { properties: { n: INT } } } });
    const args = deepFreeze(parseArgs('{"a":{"n":1.0},"b":{"n":2},"c":[1.0]}')) as Record<string, unknown>;
    const out = coerceIntegerArgs(args, schema) as Record<string, unknown>;
    expect(out).not.toBe(args);
    expect(out['a']).not.toBe(args['a']);
    expect(out['b']).toBe(args['b']);
    expect(out['c']).toBe(args['c']);
    expect(stringifyArgs(out)).toBe('{"a":{"n":1},"b":{"n":2},"c":[1.0]}');
  });

  test('returns the same reference when nothing changed, for every kind of input', () => {
    const schema = { properties: { n: INT } };
    for (const args of [parseArgs('{"n":5}'), { n: 5 }, [1.0], 'text', 5.0, null, undefined, true]) {
      expect(coerceIntegerArgs(args, schema)).toBe(args);
    }
  });

  test.each([
    ['undefined', undefined], ['null', null], ['a number', 42], ['a string', 'integer'], ['an array', []],
    ['true', true], ['false', false], ['a function', () => 1], ['a Date', new Date(0)],
  ])('a schema that is %s is a no-op', (_name, schema) => {
    const args = deepFreeze(parseArgs('{"n":1.0}'));
    expect(coerceArgs(args, schema)).toEqual({ value: args, changes: [], refusals: [] });
  });

  test('cyclic JS schema objects terminate', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { n: INT } };
    (node['properties'] as Record<string, unknown>)['child'] = node;
    node['allOf'] = [node];
    const out = coerceIntegerArgs(parseArgs('{"n":1.0,"child":{"n":2.0,"child":{"n":3.0}}}'), node);
    expect(stringifyArgs(out)).toBe('{"n":1,"child":{"n":2,"child":{"n":3}}}');
  });

  test('plain numbers and bigints have no spelling to fix and stay as they are', () => {
    const args = { a: 5, b: 5.5, c: 12345678901234567890n };
    const result = coerceArgs(args, { properties: { a: INT, b: INT, c: INT } });
    expect(result.value).toBe(args);
    expect(result.refusals.map((r) => [r.path, r.reason])).toEqual([['/b', 'not-whole']]);
  });

  test('values that are not JSON are left as they are', () => {
    class Point { x = 1.0; }
    const date = new Date(0);
    const map = new Map([['n', new LosslessNumber('1.0')]]);
    const fn = (): number => 1;
    const args = { d: date, m: map, f: fn, p: new Point(), u: undefined, s: Symbol.for('x') };
    const schema = { additionalProperties: INT };
    const result = coerceArgs(args, schema, { lenient: true });
    expect(result.value).toBe(args);
    expect(result.refusals).toEqual([]);
  });

  test('cyclic arguments are reported, not followed forever', () => {
    const args: Record<string, unknown> = { n: new LosslessNumber('1.0') };
    let inner = args;
    for (let i = 0; i < 300; i++) inner = inner['next'] = { n: new LosslessNumber('2.0') };
    inner['next'] = args;
    const schema: Record<string, unknown> = { properties: { n: INT } };
    (schema['properties'] as Record<string, unknown>)['next'] = { $ref: '#' };
    const result = coerceArgs(args, schema);
    expect(result.refusals.map((r) => r.reason)).toEqual(['cycle']);
    expect(result.changes).toHaveLength(301);
    expect((result.value as Record<string, LosslessNumber>)['n']!.value).toBe('1');
    expect((args['n'] as LosslessNumber).value).toBe('1.0');
  });

  test('a schema whose getters throw leaves the arguments as they are and says why', () => {
    const everyTrapThrows = new Proxy({}, { get: () => () => { throw new Error('boom'); } });
    const hostile = new Proxy({}, everyTrapThrows);
    const args = parseArgs('{"n":1.0}');
    const result = coerceArgs(args, hostile);
    expect(result.value).toBe(args);
    expect(result.refusals[0]).toMatchObject({ path: '', reason: 'unreadable' });
  });

  test('output objects keep __proto__ as own data and never touch Object.prototype', () => {
    const args = deepFreeze(parseArgs('{"__proto__":{"n":1.0},"constructor":{"prototype":{"n":2.0}}}'));
    const anyObject = { properties: { n: INT }, additionalProperties: { $ref: '#' } };
    const out = coerceIntegerArgs(args, anyObject) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor']);
    expect(stringifyArgs(out)).toBe('{"__proto__":{"n":1},"constructor":{"prototype":{"n":2}}}');
    expect(Object.prototype).not.toHaveProperty('n');
  });

  test('an object with a null prototype is walked and copied with all its keys', () => {
    const args = Object.assign(Object.create(null) as Record<string, unknown>, { n: new LosslessNumber('3.0'), s: 'x' });
    const out = coerceIntegerArgs(args, { properties: { n: INT } }) as Record<string, unknown>;
    expect(stringifyArgs(out)).toBe('{"n":3,"s":"x"}');
  });

  test('100,000 levels of nested objects neither overflow the stack nor are lost', () => {
    const depth = 100_000;
    const args: Record<string, unknown> = {};
    let cursor = args;
    for (let i = 0; i < depth; i++) cursor = cursor['c'] = {};
    cursor['n'] = new LosslessNumber('7.0');
    const schema = { properties: { n: INT, c: { $ref: '#' } } };
    const out = coerceIntegerArgs(args, schema) as Record<string, unknown>;
    let walker = out;
    for (let i = 0; i < depth; i++) walker = walker['c'] as Record<string, unknown>;
    expect((walker['n'] as LosslessNumber).value).toBe('7');
  });
});
