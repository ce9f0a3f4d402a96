/**
 * A root `null` under a schema whose `required` cannot be read (review finding 4): the question
 * "does the root require nothing?" has no answer, so the `null` is left as it is and refused,
 * never read as `{}` and never a throw.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

const hostile = {
  type: 'object',
  properties: { a: { type: 'string' } },
  get required(): string[] {
    throw new Error('hostile getter');
  },
};

describe('a root null under a schema whose required getter throws', () => {
  test.each(['null', ' null\n'])('coerceArgsJson(%j) leaves the text as it is', (text) => {
    expect(coerceArgsJson(text, hostile, { lenient: true })).toBe(text);
  });

  test('prepareToolCall("null") answers with the null unchanged and a refusal at the root', () => {
    const call = prepareToolCall('null', hostile, { lenient: true });
    expect(call.json).toBe('null');
    expect(call.changes).toEqual([]);
    expect(call.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '', reason: 'unconvertible' }]);
  });

  test('the same schema with a readable required still reads a root null as {}', () => {
    const readable = { type: 'object', properties: { a: { type: 'string' } }, required: [] };
    expect(coerceArgsJson('null', readable, { lenient: true })).toBe('{}');
    expect(prepareToolCall('null', readable, { lenient: true }).changes.map((change) => change.rule)).toEqual(['null-arguments']);
  });
});
