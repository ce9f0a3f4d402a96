/**
 * The text path keeps one rewriter from call to call (its stacks keep their capacity): what a
 * rewriter starts with must be what every call resets it to. Each test here imports the package
 * afresh (`vi.resetModules`), so its first call is the first one a process makes, with a rewriter
 * made for it; the other tests of the suite meet a rewriter that earlier calls have used.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';

const load = async () => (await import('../src/index.js')) as typeof import('../src/index.js');

describe('the first call of a fresh process', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  test('restores integer literals at the root object, in nested objects and in arrays', async () => {
    const { coerceArgsJson } = await load();
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        o: { type: 'object', properties: { m: { type: 'integer' } } },
        a: { type: 'array', items: { type: 'integer' } },
      },
    };
    expect(coerceArgsJson('{"n":5.0,"o":{"m":2.0},"a":[1.0,2]}', schema)).toBe('{"n":5,"o":{"m":2},"a":[1,2]}');
  });

  test('restores an integer at the root array\'s first item', async () => {
    const { coerceArgsJson } = await load();
    expect(coerceArgsJson('[3.0]', { type: 'array', items: { type: 'integer' } })).toBe('[3]');
  });

  test('a lenient conversion', async () => {
    const { coerceArgsJson } = await load();
    const schema = { type: 'object', properties: { n: { type: 'integer' }, b: { type: 'boolean' } } };
    expect(coerceArgsJson('{"n":"7","b":"true"}', schema, { lenient: true })).toBe('{"n":7,"b":true}');
  });

  test('a key repeated with the same value goes to the object model, which writes it once', async () => {
    const { coerceArgsJson } = await load();
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(coerceArgsJson('{"n":1.0, "n":1.0}', schema)).toBe('{"n":1}');
  });

  test('so does one repeated past the first 16 keys of an object', async () => {
    const { coerceArgsJson } = await load();
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const keys = Array.from({ length: 20 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(coerceArgsJson(`{${keys}, "n":1.0, "k3":3}`, schema)).toBe(`{${keys},"n":1}`);
  });
});
