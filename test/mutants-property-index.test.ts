/**
 * The property index (`src/schema/property-index.ts`): the schemas asked about a key come in
 * schema order, whether a schema names the key or matches it by pattern, so the names a nested
 * object declares are listed in the order the schema gives them.
 */
import { describe, expect, test } from 'vitest';
import { prepareToolCall } from '../src/index.js';
import { Applicators, UNCHECKED } from '../src/schema/applicators.js';
import { SchemaDocument, type SchemaObject } from '../src/schema/document.js';
import { PropertyIndex } from '../src/schema/property-index.js';
import { deepFreeze } from './_helpers/fixtures.js';

const named = (name: string) => ({ properties: { x: { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] } } });
const matched = (name: string) => ({ patternProperties: { '^x$': { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] } } });

describe('the schemas of a key, named and matched, in schema order', () => {
  test.each([
    ['a pattern before the name', [matched('pa'), named('qa')], 'pa (string, required), qa (string, required)'],
    ['the name before a pattern', [named('qa'), matched('pa')], 'qa (string, required), pa (string, required)'],
  ])('%s', (_, allOf, expected) => {
    const call = prepareToolCall('{"x":{"zz":1}}', { type: 'object', allOf }, { lenient: true, rejectUndeclared: true });
    expect(call.message).toBe(`Invalid parameters: the parameter names do not match the tool schema.\nAt /x, expected parameters: ${expected}. You sent undeclared key(s): zz.\nCorrect the parameters and call the tool again.`);
  });
});

/** Applicators that record which schemas a lookup asked, in order (the lookups themselves unchanged). */
class Recording extends Applicators {
  readonly asked: SchemaObject[] = [];

  override propertySchemas(schema: SchemaObject, key: string): unknown[] {
    this.asked.push(schema);
    return super.propertySchemas(schema, key);
  }
}

/** The index of `members` (the subschemas of `root`), and the lookups it asks. */
function indexOf(root: SchemaObject, members: readonly SchemaObject[]): { index: PropertyIndex; lookups: Recording } {
  const lookups = new Recording(new SchemaDocument(root));
  return { index: new PropertyIndex(members, lookups), lookups };
}

describe('the index asked directly', () => {
  const INTEGER = { type: 'integer' };
  const STRING = { type: 'string' };

  test('a key is looked up only in the schemas that name it, match it by pattern, or give extra keys a schema', () => {
    const names = { properties: { a: INTEGER } };
    const other = { properties: { b: STRING }, additionalProperties: false };
    const patterned = { patternProperties: { '^a': STRING } };
    const extra = { additionalProperties: STRING };
    const root = deepFreeze({ allOf: [other, names, patterned, extra] });
    const { index, lookups } = indexOf(root, root.allOf);
    expect(index.schemasFor('a')).toEqual([INTEGER, STRING, STRING]);
    // `other` names `b` only and gives extra keys no schema: it is never asked about `a`.
    expect(lookups.asked).toEqual([names, patterned, extra]);
    lookups.asked.length = 0;
    // `patterned` does not match `zz`: it gives its `additionalProperties`, none (`undefined`, which applies nothing).
    expect(index.schemasFor('zz')).toEqual([undefined, STRING]);
    expect(lookups.asked).toEqual([patterned, extra]);
  });

  test('a schema that both names a key and has patterns is asked once, and gives each subschema once', () => {
    const both = { properties: { a: INTEGER }, patternProperties: { '^a': STRING } };
    const root = deepFreeze({ allOf: [both] });
    const { index, lookups } = indexOf(root, root.allOf);
    expect(index.schemasFor('a')).toEqual([INTEGER, STRING]);
    expect(lookups.asked).toEqual([both]);
  });

  test('the subschemas of a key are exactly those that apply: nothing added to the list', () => {
    const root = deepFreeze({ allOf: [{ properties: { a: INTEGER } }] });
    expect(indexOf(root, root.allOf).index.schemasFor('a')).toEqual([INTEGER]);
    expect(indexOf(root, root.allOf).index.schemasFor('b')).toEqual([]);
  });

  test('a pattern that cannot be checked against a key makes the key unchecked, alone, whichever schema comes first', () => {
    const names = { properties: { aa: INTEGER } };
    const unchecked = { patternProperties: { '^(a)\\1$': STRING } };
    for (const members of [[names, unchecked], [unchecked, names]]) {
      const root = deepFreeze({ allOf: members });
      const { index } = indexOf(root, root.allOf);
      const schemas = index.schemasFor('aa');
      expect(schemas).toHaveLength(1);
      expect(schemas[0]).toBe(UNCHECKED);
      expect(index.declares('aa')).toBe(true);
    }
  });
});
