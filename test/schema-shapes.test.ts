/**
 * The schema-level rules of what models send: separator text is never wrapped, optional nulls,
 * wrappers and flattened keys. The rows of `fixtures/lenient` and `fixtures/wild` carry most
 * cases as data; these tests check what a row cannot: bytes kept, messages, every entry point.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, prepareToolCall } from '../src/index.js';

const tags = { type: 'object', properties: { note_types: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer' } } };

describe('separator text is never wrapped', () => {
  test('the refusal names the position and asks for an array', () => {
    const { refusals } = coerceArgs(parseArgs('{"note_types":"note,task"}'), tags, { lenient: true });
    expect(refusals.map(({ path, reason, expected, message }) => ({ path, reason, expected, message }))).toEqual([
      {
        path: '/note_types',
        reason: 'ambiguous',
        expected: ['array'],
        message: '"note,task" at /note_types was left as it is: the applicable schemas would convert it to different values; expected array',
      },
    ]);
  });

  test('the text path keeps every byte but the span that converts', () => {
    expect(coerceArgsJson('{ "note_types" : "note, task",\n  "limit": "5" }', tags, { lenient: true })).toBe('{ "note_types" : "note, task",\n  "limit": 5 }');
  });

  test('prepareToolCall with rejectRefused asks the model for an array', () => {
    const call = prepareToolCall('{"note_types":"note;task"}', tags, { lenient: true, rejectRefused: true, toolName: 'search_notes' });
    expect(call.ok).toBe(false);
    expect(call.json).toBe('{"note_types":"note;task"}');
    expect(call.message).toContain('/note_types: must be array; you sent "note;task".');
  });
});
