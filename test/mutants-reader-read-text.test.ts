/**
 * Reading a tool's argument text under the `syntax` rule: which schemas let blank text and a
 * root `null` stand for "no arguments", and what the change says when they do.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

describe('a root null read as no arguments', () => {
  test('the change names the null as written and the {} dispatched', () => {
    const call = prepareToolCall('null', { type: 'object', properties: { verbose: { type: 'boolean' } } }, { lenient: true });
    expect(call.ok).toBe(true);
    expect(call.json).toBe('{}');
    expect(call.changes).toEqual([{ path: '', from: 'null', to: '{}', rule: 'null-arguments' }]);
  });

  test('a root that accepts no object keeps its null (left as it is and reported, never turned into {})', () => {
    const call = prepareToolCall('null', { type: 'string' }, { lenient: true });
    expect(call.json).toBe('null');
    expect(call.changes).toEqual([]);
    expect(call.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '', reason: 'unconvertible' }]);
    expect(coerceArgsJson('null', { type: ['string', 'integer'] }, { lenient: true })).toBe('null');
  });
});

describe('a schema the planner cannot describe accepts every type at the root', () => {
  // `true` (and `{}`) accept anything: blank text then reads as {} (the root accepts an object).
  test.each([[true], [{}]])('blank text under %j reads as {}', (schema) => {
    expect(coerceArgsJson('', schema, { lenient: true })).toBe('{}');
    expect(coerceArgsJson('  \n', schema, { lenient: true })).toBe('{}');
    const call = prepareToolCall('', schema, { lenient: true });
    expect(call.ok).toBe(true);
    expect(call.changes.map((change) => change.rule)).toEqual(['empty-arguments']);
  });

  test.each([[true], [false]])('a root null under %j stays null (the planner cannot say the root requires nothing)', (schema) => {
    expect(coerceArgsJson('null', schema, { lenient: true })).toBe('null');
    expect(prepareToolCall('null', schema, { lenient: true }).changes).toEqual([]);
  });
});
