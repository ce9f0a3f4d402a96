/**
 * The accepted-types analysis on its own (lenient mode converts a value only into a type some
 * applicable schema accepts): boolean schemas, the exact depth bound, slots that never answer for
 * one another, and the memo: each slot worked out once, dropped whole once 4,096 slots are kept.
 */
import { describe, expect, test } from 'vitest';
import { AcceptedTypes } from '../src/schema/accepted-types.js';
import { Applicators } from '../src/schema/applicators.js';
import { SchemaDocument, type SchemaObject } from '../src/schema/document.js';
import { ALL_TYPES, TYPE_BITS } from '../src/schema/keywords.js';

/** The analysis of `root`, with a count of the property lookups and ref lookups it makes. */
function analyse(root: SchemaObject) {
  const doc = new SchemaDocument(root);
  const applicators = new Applicators(doc);
  const counts = { properties: 0, refs: 0 };
  const propertySchemas = applicators.propertySchemas.bind(applicators);
  applicators.propertySchemas = (schema, key) => (counts.properties++, propertySchemas(schema, key));
  const refTargets = applicators.refTargets.bind(applicators);
  applicators.refTargets = (schema) => (counts.refs++, refTargets(schema));
  return { types: new AcceptedTypes(doc, applicators), root: doc.view(root), counts };
}

/** `levels` nested `allOf`s around `{ type: 'integer' }`. */
function nestedAllOf(levels: number): SchemaObject {
  let schema: SchemaObject = { type: 'integer' };
  for (let i = 0; i < levels; i++) schema = { allOf: [schema] };
  return schema;
}

describe('accepted types of a schema', () => {
  test('the schema false lets nothing through, true and {} everything', () => {
    const { types } = analyse({});
    expect(types.of(false)).toBe(0);
    expect(types.of(true)).toBe(ALL_TYPES);
    expect(types.of({})).toBe(ALL_TYPES);
    expect(types.of({ type: 'string' })).toBe(TYPE_BITS.string);
  });

  test('nesting is followed to 64 levels; past that the answer is every type', () => {
    expect(analyse({}).types.of(nestedAllOf(64))).toBe(TYPE_BITS.integer);
    expect(analyse({}).types.of(nestedAllOf(65))).toBe(ALL_TYPES);
  });

  test("a property's slot never answers for the value itself or for an item", () => {
    const root = { type: ['object', 'array'], properties: { '': { type: 'string' }, i0: { type: 'boolean' } }, items: { type: 'integer' } };
    for (const order of [['own', 'empty', 'i0', 'item'], ['empty', 'own', 'item', 'i0'], ['item', 'i0', 'empty', 'own']]) {
      const { types, root: view } = analyse(root);
      const answers: Record<string, number> = {};
      for (const query of order) {
        if (query === 'own') answers[query] = types.of(view);
        else if (query === 'empty') answers[query] = types.atProperty(view, '');
        else if (query === 'i0') answers[query] = types.atProperty(view, 'i0');
        else answers[query] = types.atItem(view, 0);
      }
      expect(answers).toEqual({ own: TYPE_BITS.object | TYPE_BITS.array, empty: TYPE_BITS.string, i0: TYPE_BITS.boolean, item: TYPE_BITS.integer });
    }
  });
});

describe('the accepted-types memo', () => {
  const dictionary = { type: 'object', additionalProperties: { type: 'integer' } };

  test('a slot asked again is answered from the memo', () => {
    const { types, root, counts } = analyse(dictionary);
    expect(types.atProperty(root, 'a')).toBe(TYPE_BITS.integer);
    const after = counts.properties;
    expect(after).toBeGreaterThan(0);
    expect(types.atProperty(root, 'a')).toBe(TYPE_BITS.integer);
    expect(types.of(root)).toBe(TYPE_BITS.object);
    expect(types.of(root)).toBe(TYPE_BITS.object);
    expect(counts.properties).toBe(after);
  });

  test('the memo is dropped whole once it holds 4,096 slots, and not before', () => {
    // The first key fills three slots (the key's, the object's own, the value schema's own); each
    // fresh key one more: 4,096 after 4,093 others, and the next query starts afresh.
    const ask = (others: number) => {
      const { types, root, counts } = analyse(dictionary);
      types.atProperty(root, 'first');
      for (let n = 0; n < others; n++) types.atProperty(root, `key-${n}`);
      const before = counts.properties;
      expect(types.atProperty(root, 'first')).toBe(TYPE_BITS.integer);
      return counts.properties - before;
    };
    expect(ask(4_092)).toBe(0);
    expect(ask(4_093)).toBe(1);
  });

  /** A chain of `levels` schemas, each applying the next twice (two refs in an `allOf`): the last allows integers at any key. */
  function diamond(levels: number): SchemaObject {
    const $defs: Record<string, unknown> = { [`L${levels}`]: { additionalProperties: { type: 'integer' } } };
    for (let i = 0; i < levels; i++) $defs[`L${i}`] = { allOf: [{ $ref: `#/$defs/L${i + 1}` }, { $ref: `#/$defs/L${i + 1}` }] };
    return { type: 'object', $defs, allOf: [{ $ref: '#/$defs/L0' }] };
  }

  test('dropped, it is never dropped during a query: the work per key stays linear in the depth of shared schemas', () => {
    const { types, root, counts } = analyse(diamond(12));
    // About 13 slots a key: the memo is full every 300 keys or so.
    for (let n = 0; n < 1_500; n++) expect(types.atProperty(root, `key-${n}`)).toBe(TYPE_BITS.integer);
    // About 40 ref lookups a key (each level once); thousands with a memo dropped or refused mid-query.
    expect(counts.refs / 1_500).toBeLessThan(100);
  });
});
