/**
 * `foldsEnumCase` asked directly: whether a position restricts strings to `enum`/`const` members,
 * which the text path and the walk ask before they decode a string. Its answer is otherwise seen
 * only in how much work they do (a fold where nothing can fold leaves the value), so it is asked here.
 */
import { expect, test } from 'vitest';
import { foldsEnumCase } from '../src/coerce/enum-case.js';
import { compilePlan, type PlanNode } from '../src/schema/plan.js';

const node = (schema: unknown): PlanNode => {
  const plan = compilePlan(schema);
  if (plan === null) throw new Error('no plan');
  return plan;
};

test.each([
  ['an enum of strings', { enum: ['a', 'b'] }, true],
  ['a const string', { const: 'File' }, true],
  ['an enum beside a string type', { type: 'string', enum: ['a'] }, true],
  ['any string', { type: 'string' }, false],
  ['no constraint', {}, false],
  ['an enum of numbers', { enum: [1, 2] }, false],
  ['strings open in another branch', { anyOf: [{ enum: ['a'] }, { type: 'string' }] }, false],
])('%s: %s', (_name, schema, folds) => {
  expect(foldsEnumCase(node(schema))).toBe(folds);
});
