/**
 * What the schema's caches keep of the arguments they read: a key read from arguments that are a
 * slice of a larger text (the proxy reads each line as a slice of the text of the chunk it came
 * in) must not keep that text alive, and arguments keyed by ids must not grow a cache without bound.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson } from '../src/index.js';
import { heapGrowth } from './_helpers/heap.js';

const MB = 1 << 20;

describe('schema caches', () => {
  test('a key the caches keep holds none of the larger text its arguments were sliced from', () => {
    const schema = { type: 'object', additionalProperties: { type: 'integer' } };
    const grown = heapGrowth(() => {
      for (let n = 0; n < 40; n++) {
        // 1 MB of other lines around each call, and a key long enough for V8 to make its slice a view.
        const chunk = `${' '.repeat(MB)}{"key-of-a-dictionary-entry-${n}":5.0}${n}`;
        const args = chunk.slice(MB, chunk.lastIndexOf('}') + 1);
        expect(coerceArgsJson(args, schema)).toBe(`{"key-of-a-dictionary-entry-${n}":5}`);
      }
      return schema;
    });
    // Kept as views, the forty keys would keep forty 1 MB texts alive (both caches hold each key).
    expect(grown).toBeLessThan(4 * MB);
  });

  test('arguments keyed by ids: the caches stay bounded however many distinct keys arrive', () => {
    const schema = { type: 'object', additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }] } };
    const grown = heapGrowth(() => {
      for (let n = 0; n < 40_000; n++) {
        const key = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        expect(coerceArgsJson(`{"${key}":1.0}`, schema)).toBe(`{"${key}":1}`);
      }
      return schema;
    });
    // Unbounded, the accepted-types memo's entry per key came to about 6 MB for 40,000 keys.
    expect(grown).toBeLessThan(3 * MB);
  });
});
