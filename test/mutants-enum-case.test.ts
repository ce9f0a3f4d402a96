/**
 * `foldsEnumCase` asked directly: whether a position restricts strings to `enum`/`const` members,
 * which the text path and the walk ask before they decode a string. Its answer is otherwise seen
 * only in how much work they do (a fold where nothing can fold leaves the value), so it is asked here.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgs } from '../src/index.js';
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

describe('foldEnumCase through the walk: one lookup per value, whatever the enum', () => {
  const schema = { type: 'object', properties: { c: { enum: ['Red', 'Blue', 'blue', ...Array.from({ length: 100_000 }, (_, i) => `Extra${i}`)] } } };

  test.each([
    ['a case-folded member', 'red', 'Red', []],
    ['a member with white space around it', ' RED\t', 'Red', []],
    ['a member itself', 'Red', 'Red', []],
    ['two members folding alike', 'BLUE', 'BLUE', ['ambiguous']],
    ['no member', 'green', 'green', ['unconvertible']],
    ['white space inside is kept', 'R ed', 'R ed', ['unconvertible']],
  ])('%s: %j becomes %j', (_name, sent, expected, reasons) => {
    const result = coerceArgs({ c: sent }, schema, { lenient: true });
    expect((result.value as { c: string }).c).toBe(expected);
    expect(result.refusals.map((refusal) => refusal.reason)).toEqual(reasons);
  });

  test('a refusal lists the first 100 members and says how many there are', () => {
    const [refusal] = coerceArgs({ c: 'green' }, schema, { lenient: true }).refusals;
    expect(refusal!.expected).toEqual(['"Red"', '"Blue"', '"blue"', ...Array.from({ length: 97 }, (_, i) => `"Extra${i}"`)]);
    expect(refusal!.message).toBe(`"green" at /c was left as it is: no safe conversion applies; expected one of ${refusal!.expected.join(', ')}, … (100,003 in all)`);
  });

  test('an enum of exactly 100 members is listed whole, with no count', () => {
    const members = Array.from({ length: 100 }, (_, i) => `m${i}`);
    const [refusal] = coerceArgs({ c: 'x' }, { properties: { c: { enum: members } } }, { lenient: true }).refusals;
    expect(refusal!.expected).toHaveLength(100);
    expect(refusal!.message.endsWith(`expected one of ${members.map((m) => JSON.stringify(m)).join(', ')}`)).toBe(true);
  });
});
