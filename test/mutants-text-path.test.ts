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

// What the text path writes itself: every byte outside a rewritten token as it came. Each row
// here would come back compact from the object path, so a rule handing off more than it must
// (a flattened key, a wrapper, an optional null) shows.
describe('the text path keeps the text as it came', () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer' }, a: { type: 'array', items: { type: 'integer' } }, o: { type: 'object', properties: { m: { type: 'integer' } } } },
  };

  test.each([
    ['an undeclared key under a closed object', '{ "n" : 5.0, "extra": 1 }', '{ "n" : 5, "extra": 1 }'],
    ['an undeclared wrapper key below the root', '{ "n" : 5.0, "o": { "arguments": 1 } }', '{ "n" : 5, "o": { "arguments": 1 } }'],
    ['a null array item, not accepted', '{ "n" : 5.0, "a": [ null ] }', '{ "n" : 5, "a": [ null ] }'],
  ])('lenient, %s', async (_name, input, expected) => {
    const { coerceArgsJson } = await load();
    expect(coerceArgsJson(input, schema, { lenient: true })).toBe(expected);
  });

  test('lenient, a null array item where the array\'s schema also declares the key it is under (an untyped schema)', async () => {
    const { coerceArgsJson } = await load();
    // Only an object drops an optional null: this array's own `properties` name `a`, optional.
    const untyped = { type: 'object', properties: { n: { type: 'integer' }, a: { items: { type: 'integer' }, properties: { a: { type: 'string' } } } } };
    expect(coerceArgsJson('{ "n" : 5.0, "a": [ null ] }', untyped, { lenient: true })).toBe('{ "n" : 5, "a": [ null ] }');
  });

  test('a whole number not written `N.0…` loses only its tail: an edit of no new text', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const { listOf } = await import('./_helpers/text-edits.js');
    expect(listOf(coerceArgsJsonEdits('{"n":50e-1}', schema))).toEqual([{ start: 6, end: 10, text: '' }]);
    expect(listOf(coerceArgsJsonEdits('{"n":1.5e1}', schema))).toEqual([{ start: 5, end: 10, text: '15' }]);
  });

  test('an untouched span longer than a chunk, around a rewrite', async () => {
    const { coerceArgsJson } = await load();
    const long = 'x'.repeat(40_000);
    expect(coerceArgsJson(`{"s":"${long}","n":5.0,"t":"${long}"}`, schema)).toBe(`{"s":"${long}","n":5,"t":"${long}"}`);
  });
});

describe('a builder of the caller\'s (the CLI writes the spans as the text path finds them)', () => {
  const integers = { type: 'object', properties: { n: { type: 'integer' }, m: { type: 'integer' }, s: { type: 'string' } } };

  /** A builder that records what it is handed, and builds as the library's does. */
  async function recorder() {
    const { TextEditsBuilder } = await import('../src/coerce/coerce.js');
    return new (class extends TextEditsBuilder {
      readonly pushed: [number, number, string][] = [];
      builds = 0;
      override push(start: number, end: number, text: string): void {
        this.pushed.push([start, end, text]);
        super.push(start, end, text);
      }
      override build() {
        this.builds++;
        return super.build();
      }
    })();
  }

  test('gets every span in order as it is found, and what comes back is its build()', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const { listOf } = await import('./_helpers/text-edits.js');
    const builder = await recorder();
    const edits = coerceArgsJsonEdits('{"n": 5.0, "s": "x", "m": 1e1}', integers, {}, undefined, builder);
    expect(builder.pushed).toEqual([[7, 9, ''], [26, 29, '10']]);
    expect(builder.builds).toBe(1);
    expect(listOf(edits)).toEqual([{ start: 7, end: 9, text: '' }, { start: 26, end: 29, text: '10' }]);
  });

  test('nothing to rewrite: nothing pushed, built once, no edit', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const builder = await recorder();
    expect(coerceArgsJsonEdits('{"n": 5}', integers, {}, undefined, builder).length).toBe(0);
    expect([builder.pushed, builder.builds]).toEqual([[], 1]);
  });

  test('a repeated key: what was pushed is void, build() is not called, the edits come back as without a builder', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const { listOf } = await import('./_helpers/text-edits.js');
    const text = '{"n": 5.0, "n": 5.0}';
    const builder = await recorder();
    const edits = listOf(coerceArgsJsonEdits(text, integers, {}, undefined, builder));
    expect(builder.builds).toBe(0);
    expect(edits).toEqual(listOf(coerceArgsJsonEdits(text, integers)));
    expect(edits).toEqual([{ start: 7, end: 9, text: '' }, { start: 17, end: 19, text: '' }]);
  });

  test('syntax repair writes the output: build() is not called, one edit spans the text', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const { listOf } = await import('./_helpers/text-edits.js');
    const builder = await recorder();
    const edits = coerceArgsJsonEdits("{'n': 5.0,}", integers, { lenient: true }, undefined, builder);
    expect(builder.builds).toBe(0);
    expect(listOf(edits)).toEqual([{ start: 0, end: 11, text: '{"n":5}' }]);
  });

  test('text that is not JSON throws, and build() is not called', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const builder = await recorder();
    expect(() => coerceArgsJsonEdits('{"n": 5.0, "m": 2.0', integers, {}, undefined, builder)).toThrow(/cut off/);
    expect([builder.pushed.length, builder.builds]).toEqual([2, 0]);
  });

  test('the next call without a builder does not use the last one', async () => {
    const { coerceArgsJsonEdits } = await import('../src/coerce/coerce.js');
    const builder = await recorder();
    coerceArgsJsonEdits('{"n": 5.0}', integers, {}, undefined, builder);
    expect(coerceArgsJsonEdits('{"n": 6.0}', integers).length).toBe(1);
    expect(builder.pushed).toEqual([[7, 9, '']]);
  });
});
