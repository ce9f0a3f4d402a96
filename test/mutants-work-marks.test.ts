/**
 * Work marking asked directly: which schemas of a document carry which work bit, from the schemas
 * that declare `integer` (integer work) or any `type`, `enum` or `const` (lenient work), up every
 * in-place and positional edge to the root, and no further: a sibling with nothing below stays unmarked.
 */
import { expect, test } from 'vitest';
import { Applicators } from '../src/schema/applicators.js';
import { SchemaDocument, type SchemaObject } from '../src/schema/document.js';
import { WORK_INTEGER, WORK_LENIENT, markWork } from '../src/schema/work-marks.js';
import { deepFreeze } from './_helpers/fixtures.js';

const marksOf = (root: SchemaObject) => {
  const doc = new SchemaDocument(root);
  return markWork(doc, new Applicators(doc));
};
const BOTH = WORK_INTEGER | WORK_LENIENT;

test('an integer deep down marks every schema on the way up, through positional and in-place edges', () => {
  const int = { type: 'integer' };
  const via = { anyOf: [{ items: int }] };
  const idle = { description: 'nothing here' };
  const root = deepFreeze({ properties: { a: { properties: { b: via } }, idle } });
  const marks = marksOf(root);
  expect([marks.get(root), marks.get(root.properties.a), marks.get(via), marks.get(via.anyOf[0]!), marks.get(int)]).toEqual([BOTH, BOTH, BOTH, BOTH, BOTH]);
  expect(marks.has(idle)).toBe(false);
});

test.each([
  ['a type', { type: 'string' }, WORK_LENIENT],
  ['an integer among types', { type: ['null', 'integer'] }, BOTH],
  ['"number" is no integer', { type: 'number' }, WORK_LENIENT],
  ['an enum', { enum: ['a'] }, WORK_LENIENT],
  ['a const', { const: 1 }, WORK_LENIENT],
  ['a malformed type', { type: 'bogus' }, undefined],
  ['nothing typed', { minimum: 1 }, undefined],
])('%s', (_name, schema, bits) => {
  const root = deepFreeze({ properties: { p: schema } });
  const marks = marksOf(root);
  expect(marks.get(root.properties.p)).toBe(bits);
  expect(marks.get(root)).toBe(bits);
});

test('a ref target marks the schema that refers to it, and a cycle of refs terminates', () => {
  const root = deepFreeze({ properties: { a: { $ref: '#/$defs/loop' } }, $defs: { loop: { properties: { next: { $ref: '#/$defs/loop' }, n: { type: 'integer' } } } } });
  const marks = marksOf(root);
  expect([marks.get(root), marks.get(root.properties.a), marks.get(root.$defs.loop)]).toEqual([BOTH, BOTH, BOTH]);
});

test('two bits from two seeds: an integer in one branch, a string in another', () => {
  const left = { properties: { n: { type: 'integer' } } };
  const right = { properties: { s: { type: 'string' } } };
  const root = deepFreeze({ anyOf: [left, right] });
  const marks = marksOf(root);
  expect([marks.get(root), marks.get(left), marks.get(right)]).toEqual([BOTH, BOTH, WORK_LENIENT]);
});
