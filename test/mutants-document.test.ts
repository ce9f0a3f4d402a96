/**
 * The schema document asked directly: which values it indexes as subschemas (objects only, never
 * a boolean, string or array a keyword holds), and the stand-in a `$ref` is read as under the
 * drafts whose `$ref` overrides its siblings. The resources and anchors it resolves are rows of
 * `fixtures/schema/id-resources.json` and `applicability.json`.
 */
import { describe, expect, test } from 'vitest';
import { SchemaDocument } from '../src/schema/document.js';
import { deepFreeze } from './_helpers/fixtures.js';

describe('the subschemas indexed', () => {
  test('every object a keyword holds, and nothing else: booleans, strings and arrays are no schema objects', () => {
    const integer = { type: 'integer' };
    const root = deepFreeze({
      allOf: [true, 'x', [integer], integer],
      properties: { a: false, b: 'y', c: integer, d: { items: [false, integer] } },
      not: true,
    });
    const doc = new SchemaDocument(root);
    expect(doc.schemas.every((schema) => typeof schema === 'object' && schema !== null && !Array.isArray(schema))).toBe(true);
    expect(doc.schemas).toHaveLength(3);
    expect(doc.schemas[0]).toBe(root);
    expect(doc.has(root.properties.d)).toBe(true);
    expect(doc.has({ type: 'integer' })).toBe(false);
  });
});

describe('a $ref under draft-07', () => {
  const root = deepFreeze({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { a: { $ref: '#/definitions/n', type: 'string' } }, definitions: { n: { type: 'integer' } } });

  test('is read as a stand-in holding the reference alone, the same one every time, which is its own view', () => {
    const doc = new SchemaDocument(root);
    const alone = doc.view(root.properties.a);
    expect(alone).toEqual({ $ref: '#/definitions/n' });
    expect(doc.view(root.properties.a)).toBe(alone);
    expect(doc.view(alone)).toBe(alone);
    expect(doc.resolve(alone.$ref as string, alone)).toBe(root.definitions.n);
  });

  test('under 2020-12 the schema is its own view, siblings and all', () => {
    const { $schema: _dropped, ...modern } = root;
    const doc = new SchemaDocument(modern);
    expect(doc.view(modern.properties.a)).toBe(modern.properties.a);
  });
});

describe('a reference that cannot be decoded', () => {
  test('a fragment with a broken percent-escape points nowhere, into a resource the document holds', () => {
    const root = deepFreeze({ properties: { a: { $ref: '#/properties/%E0%A4%A' } } });
    const doc = new SchemaDocument(root);
    expect(doc.resolve('#/properties/%E0%A4%A', root.properties.a)).toBeUndefined();
    expect(doc.resolve('#/properties/a', root.properties.a)).toBe(root.properties.a);
  });
});
