/**
 * What the schema's caches keep of the arguments they read: a key read from arguments that are a
 * slice of a larger text (the proxy reads each line as a slice of the text of the chunk it came
 * in) must not keep that text alive, and arguments keyed by ids must not grow a cache without bound.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson } from '../src/index.js';
import { AcceptedTypes } from '../src/schema/accepted-types.js';
import { Applicators } from '../src/schema/applicators.js';
import { SchemaDocument, type SchemaObject } from '../src/schema/document.js';
import { TYPE_BITS } from '../src/schema/keywords.js';
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

describe('the accepted-types memo past its bound', () => {
  /** A chain of `levels` schemas, each applying the next twice (two refs in an `allOf`): the last allows integers at any key. */
  function diamond(levels: number): SchemaObject {
    const $defs: Record<string, unknown> = { [`L${levels}`]: { additionalProperties: { type: 'integer' } } };
    for (let i = 0; i < levels; i++) $defs[`L${i}`] = { allOf: [{ $ref: `#/$defs/L${i + 1}` }, { $ref: `#/$defs/L${i + 1}` }] };
    return { type: 'object', $defs, allOf: [{ $ref: '#/$defs/L0' }] };
  }

  test('each query still works each slot out once: the work per key stays linear in the depth of shared schemas', () => {
    const root = diamond(12);
    const doc = new SchemaDocument(root);
    const applicators = new Applicators(doc);
    let lookups = 0;
    const refTargets = applicators.refTargets.bind(applicators);
    applicators.refTargets = (schema) => (lookups++, refTargets(schema));
    const types = new AcceptedTypes(doc, applicators);
    for (let n = 0; n < 6_000; n++) expect(types.atProperty(doc.view(root), `key-${n}`)).toBe(TYPE_BITS.integer);
    // About 40 ref lookups a key (each level once, the memo dropped every 4,096 slots); over 5,000
    // with a memo that refuses entries past its bound, when every path to a shared level repeats it.
    expect(lookups / 6_000).toBeLessThan(100);
  });
});
