/**
 * The plan's answers, asked directly: the integer flag, the accepted-type mask and the work bits
 * of a node, which node a key or an index leads to, an object's shape (declared names in schema
 * order, open or closed), pattern-declared keys, required names, tuples and their rest, and the
 * caches (the same node for the same question; a plan per schema object).
 */
import { describe, expect, test } from 'vitest';
import { ALL_TYPES, TYPE_BITS } from '../src/schema/keywords.js';
import { WORK_INTEGER, WORK_LENIENT, compilePlan, hasWork, planFor, planOrNull, type PlanNode } from '../src/schema/plan.js';
import { deepFreeze } from './_helpers/fixtures.js';

const plan = (schema: unknown): PlanNode => {
  const node = compilePlan(deepFreeze(schema));
  if (node === null) throw new Error('no plan');
  return node;
};

describe('a node: integer, accepted types, work', () => {
  test.each([
    ['type integer', { type: 'integer' }, true, TYPE_BITS.integer, WORK_INTEGER | WORK_LENIENT],
    ['type number', { type: 'number' }, false, TYPE_BITS.integer | TYPE_BITS.number, WORK_LENIENT],
    ['integer among types', { type: ['string', 'integer'] }, true, TYPE_BITS.integer | TYPE_BITS.string, WORK_INTEGER | WORK_LENIENT],
    ['integer in one branch', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, true, TYPE_BITS.integer | TYPE_BITS.string, WORK_INTEGER | WORK_LENIENT],
    ['no type at all', { description: 'x' }, false, ALL_TYPES, 0],
    ['an integer below, none here', { type: 'object', properties: { n: { type: 'integer' } } }, false, TYPE_BITS.object, WORK_INTEGER | WORK_LENIENT],
  ])('%s', (_name, schema, integer, accept, work) => {
    const node = plan(schema);
    expect({ integer: node.integer, accept: node.accept, work: node.work }).toEqual({ integer, accept, work });
  });

  test('hasWork: a node with a bit of the mask', () => {
    const typed = plan({ type: 'string' });
    expect([hasWork(typed, WORK_LENIENT), hasWork(typed, WORK_INTEGER), hasWork(null, WORK_LENIENT)]).toEqual([true, false, false]);
    expect(hasWork(plan({ type: 'integer' }), WORK_INTEGER)).toBe(true);
  });
});

describe('children', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'string' } },
    patternProperties: { '^x-': { type: 'boolean' } },
    additionalProperties: { type: 'null' },
  };

  test('a key leads to its property, a pattern, or the additional schema', () => {
    const root = plan(schema);
    expect(root.child('a')?.integer).toBe(true);
    expect(root.child('b')?.accept).toBe(TYPE_BITS.string);
    expect(root.child('x-flag')?.accept).toBe(TYPE_BITS.boolean);
    expect(root.child('other')?.accept).toBe(TYPE_BITS.null);
    expect(root.at('a')).toBe(root.child('a'));
    expect(root.child('a')).toBe(root.child('a'));
  });

  test('no schema for a key: null, asked again: null', () => {
    const root = plan({ properties: { a: {} } });
    expect(root.child('b')).toBeNull();
    expect(root.child('b')).toBeNull();
    expect(plan({ type: 'string' }).child('a')).toBeNull();
  });

  test('a property of a non-object type: the entry type still bounds the child', () => {
    const root = plan({ properties: { a: { type: 'integer' } }, allOf: [{ properties: { a: { type: ['integer', 'string'] } } }] });
    expect(root.child('a')?.accept).toBe(TYPE_BITS.integer);
  });

  test('a number token is an index: tuples, then the rest', () => {
    const root = plan({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: { type: 'boolean' } });
    expect([0, 1, 2, 7].map((index) => root.at(index)?.accept)).toEqual([TYPE_BITS.integer, TYPE_BITS.string, TYPE_BITS.boolean, TYPE_BITS.boolean]);
    expect(root.item(5)).toBe(root.item(9));
    expect(root.item(0)).toBe(root.at(0));
    expect(root.at('0')).toBeNull();
  });

  test('draft-07 tuples: items as an array, then additionalItems', () => {
    const root = plan({ items: [{ type: 'integer' }], additionalItems: { type: 'string' } });
    expect([root.item(0)?.accept, root.item(1)?.accept, root.item(3)?.accept]).toEqual([TYPE_BITS.integer, TYPE_BITS.string, TYPE_BITS.string]);
    expect(plan({ items: [{ type: 'integer' }] }).item(1)).toBeNull();
    expect(plan({ type: 'array' }).item(0)).toBeNull();
  });

  test('the longest tuple of several schemas', () => {
    const root = plan({ allOf: [{ prefixItems: [{ type: 'integer' }] }, { prefixItems: [{}, {}, { type: 'integer' }] }] });
    expect([0, 1, 2, 3].map((index) => root.item(index)?.integer ?? null)).toEqual([true, false, true, null]);
  });
});

describe('shape, declares, required', () => {
  test.each([
    ['declared names in schema order, once each', { properties: { b: {}, a: {} }, allOf: [{ properties: { a: {}, c: {} } }] }, ['b', 'a', 'c'], false],
    ['additionalProperties true opens it', { properties: { a: {} }, additionalProperties: true }, ['a'], true],
    ['an additionalProperties schema opens it', { properties: { a: {} }, additionalProperties: { type: 'string' } }, ['a'], true],
    ['unevaluatedProperties opens it', { properties: { a: {} }, unevaluatedProperties: {} }, ['a'], true],
    ['additionalProperties false keeps it closed', { properties: { a: {} }, additionalProperties: false }, ['a'], false],
    ['no declared property: open', { type: 'object' }, [], true],
    ['properties that are not an object declare nothing', { properties: ['a'] }, [], true],
  ])('%s', (_name, schema, declared, open) => {
    expect(plan(schema).shape()).toEqual({ declared, open });
  });

  test('the shape is computed once', () => {
    const root = plan({ properties: { a: {} } });
    expect(root.shape()).toBe(root.shape());
  });

  test('declares: declared names and keys a pattern matches', () => {
    const root = plan({ properties: { a: {} }, anyOf: [{ patternProperties: { '^x-': {} } }] });
    expect(['a', 'x-y', 'b', 'y-x'].map((key) => root.declares(key))).toEqual([true, true, false, false]);
  });

  test('required: the names of every schema, once each, strings only', () => {
    const root = plan({ required: ['a', 'b', 3], allOf: [{ required: ['b', 'c'] }, { required: 'd' }] });
    expect(root.required()).toEqual(['a', 'b', 'c']);
    expect(plan({ properties: { a: {} } }).required()).toEqual([]);
  });
});

describe('plans and their cache', () => {
  test('planFor caches by schema object; compilePlan does not', () => {
    const schema = deepFreeze({ type: 'integer' });
    expect(planFor(schema)).toBe(planFor(schema));
    expect(compilePlan(schema)).not.toBe(compilePlan(schema));
  });

  test.each([true, false, null, 'x', 3, [{ type: 'integer' }]])('a schema that is not an object has no plan: %j', (schema) => {
    expect(planFor(schema)).toBeNull();
    expect(compilePlan(schema)).toBeNull();
    expect(planOrNull(schema)).toBeNull();
  });

  test('planOrNull: a schema whose reading throws has no plan', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('no'); }, ownKeys: () => { throw new Error('no'); }, getOwnPropertyDescriptor: () => { throw new Error('no'); } });
    expect(() => planFor(hostile)).toThrow();
    expect(planOrNull(hostile)).toBeNull();
    expect(planOrNull({ type: 'integer' })?.integer).toBe(true);
  });

  test('the same set of schemas at two places is one node', () => {
    const shared = { type: 'integer' };
    const root = plan({ properties: { a: shared, b: shared, c: { type: 'integer' } } });
    expect(root.child('a')).toBe(root.child('b'));
    expect(root.child('c')).not.toBe(root.child('a'));
  });

  test('one node per set of schemas: a schema reached twice counts once, and order does not matter', () => {
    const [s1, s2] = [{ type: 'integer', title: 's1' }, { type: 'integer', title: 's2' }];
    const root = plan({ properties: { a: s1, b: s1, x: s1, y: s2 }, patternProperties: { '^a$': s1, '^x$': s2, '^y$': s1 } });
    expect(root.child('a')).toBe(root.child('b'));
    expect(root.child('x')).toBe(root.child('y'));
    expect(root.child('x')).not.toBe(root.child('a'));
  });

  test('sets whose schema numbers run together stay apart ({1, 2, 3} and {1, 23})', () => {
    const schemas = Array.from({ length: 24 }, (_, i) => ({ type: 'integer', title: `s${i}` }));
    const properties = Object.fromEntries(schemas.map((schema, i) => [`p${i}`, schema]));
    const root = plan({ properties, patternProperties: { '^[xy]$': schemas[1], '^x$': schemas[2], '^x$|^z$': schemas[3], '^y$': schemas[23] } });
    // The root is schema 0 of its plan; visiting p1 to p23 in order numbers their schemas 1 to 23.
    for (let i = 1; i < 24; i++) root.child(`p${i}`);
    expect(root.child('x')!.members.map((member) => member['title'])).toEqual(['s1', 's2', 's3']);
    expect(root.child('y')!.members.map((member) => member['title'])).toEqual(['s1', 's23']);
  });

  test('a set and its accepted types stay apart from another set and types that run together ({1, 2} string, {1, 21} boolean or integer)', () => {
    const schemas: Record<string, unknown>[] = Array.from({ length: 22 }, (_, i) => ({ type: 'integer', title: `s${i}` }));
    schemas[1] = { type: ['string', 'boolean', 'integer'], title: 's1' };
    schemas[2] = { type: 'string', title: 's2' };
    schemas[21] = { type: ['boolean', 'integer'], title: 's21' };
    const properties = Object.fromEntries(schemas.map((schema, i) => [`p${i}`, schema]));
    const root = plan({ properties, patternProperties: { '^[xy]$': schemas[1], '^x$': schemas[2], '^y$': schemas[21] } });
    for (let i = 1; i < 22; i++) root.child(`p${i}`);
    expect([root.child('x')!.accept, root.child('y')!.accept]).toEqual([TYPE_BITS.string, TYPE_BITS.boolean | TYPE_BITS.integer]);
    expect(root.child('y')!.members.map((member) => member['title'])).toEqual(['s1', 's21']);
  });

  test('past 4,096 undeclared keys a node still answers, uncached', () => {
    const root = plan({ additionalProperties: { type: 'integer' } });
    for (let i = 0; i < 4100; i++) root.child(`k${i}`);
    expect(root.child('k4099')?.integer).toBe(true);
    expect(root.child('k0')).toBe(root.child('k0'));
  });
});
