/**
 * The applicator lookups asked directly: what applies in place and what applies to child values
 * is only ever schema objects (a boolean, string or array a keyword holds is no schema to walk),
 * in the order the keywords are read.
 */
import { describe, expect, test } from 'vitest';
import { Applicators } from '../src/schema/applicators.js';
import { SchemaDocument, type SchemaObject } from '../src/schema/document.js';
import { deepFreeze } from './_helpers/fixtures.js';

const lookups = (root: SchemaObject): Applicators => new Applicators(new SchemaDocument(root));
const A = { type: 'integer' };
const B = { type: 'string' };

describe('in place', () => {
  test('combinator branches, then/else, dependent schemas and ref targets; objects only', () => {
    const root = deepFreeze({
      allOf: [true, A, 'x'], anyOf: [false, [B]], oneOf: [B], then: true, else: A,
      dependentSchemas: { k: B, j: true }, $ref: '#/$defs/a', $defs: { a: A },
    });
    expect(lookups(root).inPlace(root)).toEqual([A, B, A, B, A]);
  });

  test('a schema with none of them applies nothing else in place', () => {
    const root = deepFreeze({ properties: { a: A } });
    expect(lookups(root).inPlace(root)).toEqual([]);
    expect(lookups(root).closure(root)).toEqual([root]);
  });
});

describe('positional', () => {
  test('properties, patterns, additional properties and items; objects only', () => {
    const root = deepFreeze({ properties: { a: A, b: true }, patternProperties: { '^x': false }, additionalProperties: B, items: [A, true, [B]], prefixItems: [B] });
    expect(lookups(root).positional(root)).toEqual([A, B, A, B]);
  });

  test('a schema with no child keyword has no positional subschema', () => {
    const root = deepFreeze({ type: 'integer', additionalProperties: true, items: false });
    expect(lookups(root).positional(root)).toEqual([]);
  });
});
