/**
 * Limits of rule `optionalNull` seen through `prepareToolCall` (the fixture rows in
 * fixtures/lenient/optional-null.json hold the coerceArgsJson / coerceArgs outcomes): a null the
 * schema accepts, or one whose removal would hide or drop something, is never removed.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';
import { validateArgs } from '../src/validate.js';
import { planFor } from '../src/schema/plan.js';

describe('a null the schema accepts through OpenAPI nullable: true is a value', () => {
  const schema = {
    type: 'object',
    properties: { id: { type: 'string' }, due: { type: 'string', nullable: true } },
    required: ['id'],
  };
  const text = '{"id":"1","due":null}';

  test('the validator accepts the call as sent', () => {
    expect(prepareToolCall(text, schema, { validate: validateArgs }).ok).toBe(true);
  });

  test('lenient mode with the validator dispatches it unchanged, with no change and no refusal', () => {
    const call = prepareToolCall(text, schema, { lenient: true, validate: validateArgs });
    expect(call.ok).toBe(true);
    expect(call.json).toBe(text);
    expect(call.changes).toEqual([]);
    expect(call.refusals).toEqual([]);
  });

  test('nullable: false (or absent) still lets the optional null go', () => {
    const closed = { type: 'object', properties: { due: { type: 'string', nullable: false } } };
    expect(coerceArgsJson('{"due":null}', closed, { lenient: true })).toBe('{}');
  });
});

describe('an optional null never hides the value of a key that means the same name', () => {
  const schema = { type: 'object', properties: { thoughtNumber: { type: 'integer' } } };
  const text = '{"thought_number":1,"thoughtNumber":null}';

  test('renameUnambiguous + lenient: the call is refused, naming thought_number and thoughtNumber', () => {
    const call = prepareToolCall(text, schema, { lenient: true, renameUnambiguous: true });
    expect(call.ok).toBe(false);
    expect(call.json).toBe(text);
    expect(call.changes).toEqual([]);
    expect(call.undeclared).toEqual([{ path: '/thought_number', key: 'thought_number', suggestion: 'thoughtNumber' }]);
    expect(call.refusals.map((refusal) => refusal.path)).toEqual(['/thoughtNumber']);
    expect(call.message).toContain('thought_number (did you mean thoughtNumber?)');
  });

  test('a declared key with a value is not a conflict: the undeclared twin is left, as before', () => {
    const call = prepareToolCall('{"thought_number":1,"thoughtNumber":2}', schema, { lenient: true, renameUnambiguous: true });
    expect(call.ok).toBe(true);
    expect(call.json).toBe('{"thought_number":1,"thoughtNumber":2}');
  });

  test('with no declared twin sent, the rename still happens', () => {
    const call = prepareToolCall('{"thought_number":1}', schema, { lenient: true, renameUnambiguous: true });
    expect(call.ok).toBe(true);
    expect(call.json).toBe('{"thoughtNumber":1}');
  });
});

describe('a key required once another key is present keeps its null', () => {
  test.each([
    ['dependentRequired', { dependentRequired: { b: ['a'] } }],
    ['draft-07 dependencies', { dependencies: { b: ['a'] } }],
  ])('%s: {"b":"x","a":null} is left and /a refused', (_name, extra) => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, ...extra };
    const call = prepareToolCall('{"b":"x","a":null}', schema, { lenient: true });
    expect(call.json).toBe('{"b":"x","a":null}');
    expect(call.changes).toEqual([]);
    expect(call.refusals.map((refusal) => refusal.path)).toEqual(['/a']);
  });
});

describe('a null beside a flattened key under its name', () => {
  test('{"args":null,"args.path":"x"} is left as sent and args.path reported undeclared', () => {
    const schema = { type: 'object', properties: { args: { type: 'object', properties: { path: { type: 'string' } } } } };
    const call = prepareToolCall('{"args":null,"args.path":"x"}', schema, { lenient: true, rejectUndeclared: true });
    expect(call.ok).toBe(false);
    expect(call.json).toBe('{"args":null,"args.path":"x"}');
    expect(call.changes).toEqual([]);
    expect(call.undeclared.map((key) => key.key)).toEqual(['args.path']);
  });
});

describe('PlanNode.required() is computed once per node', () => {
  test('the same list each call, with each name once', () => {
    const node = planFor({ type: 'object', required: ['a', 'b'], allOf: [{ required: ['b', 'c'] }] })!;
    expect(node.required()).toEqual(['a', 'b', 'c']);
    expect(node.required()).toBe(node.required());
  });
});
