/**
 * The readings of an extra closing bracket (`src/json/tolerant/readings.ts`, and the chain the
 * reader keeps for it): every reading as the strict JSON text it would be, the other bracket's
 * deletion placed among the reader's other edits, the position and the message, the cap past
 * which no reading is listed, and an argument text double-encoded around such a text, which is
 * left a string.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, prepareToolCall } from '../src/index.js';
import { AmbiguousTextError, MAX_READINGS } from '../src/json/tolerant/readings.js';
import { repairJsonText } from '../src/json/tolerant/repair.js';

/** The error `repairJsonText` throws on `text`, which must be an `AmbiguousTextError`. */
function ambiguity(text: string): AmbiguousTextError {
  try {
    repairJsonText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AmbiguousTextError);
    return error as AmbiguousTextError;
  }
  throw new Error(`${text} was repaired`);
}

describe('every reading, as the strict JSON it would be', () => {
  test('the last bracket dropped, then the inner one', () => {
    const error = ambiguity('{"a": {"b": 1}, "c": 2}}');
    expect(error.readings).toEqual(['{"a": {"b": 1}, "c": 2}', '{"a": {"b": 1, "c": 2}}']);
    expect(error).toBeInstanceOf(ArgsParseError);
    expect(error.name).toBe('AmbiguousTextError');
    expect({ position: error.position, line: error.line, column: error.column, truncated: error.truncated }).toEqual({ position: 23, line: 1, column: 24, truncated: false });
    expect(error.reason).toBe('one "}" too many: the last one, or the one at line 1 column 14 (what follows it then moves into what it closes)?: refused. Send the arguments with each bracket closing one container');
  });

  test("the other bracket's deletion goes among the reader's edits in text order (a comment before it, others after)", () => {
    const error = ambiguity("/* a */ {'a': {'b': 1}, /* x */ 'c': True} // y\n}");
    expect(error.readings).toEqual([' {"a": {"b": 1},  "c": true} \n', ' {"a": {"b": 1,  "c": true} \n}']);
  });

  test('a bracket with edits before it and none after: its deletion goes after them', () => {
    expect(ambiguity("{'a': {'b': 1}, \"c\": 2}}").readings).toEqual(['{"a": {"b": 1}, "c": 2}', '{"a": {"b": 1, "c": 2}}']);
  });

  test('a bracket with one edit before it and one after: its deletion goes between them', () => {
    expect(ambiguity("{'a': {\"b\": 1}, 'c': 2}}").readings).toEqual(['{"a": {"b": 1}, "c": 2}', '{"a": {"b": 1, "c": 2}}']);
  });

  test('a bracket with no edit after it: its deletion goes last', () => {
    expect(ambiguity('[[1], 2]]').readings).toEqual(['[[1], 2]', '[[1, 2]]']);
  });

  test('three readings: each other bracket once, in text order, and the message counts them', () => {
    const error = ambiguity('{"a": {"a": {"a": 0}, "b": {}}, "b": {}}}');
    expect(error.readings).toEqual([
      '{"a": {"a": {"a": 0}, "b": {}}, "b": {}}',
      '{"a": {"a": {"a": 0, "b": {}}, "b": {}}}',
      '{"a": {"a": {"a": 0}, "b": {}, "b": {}}}',
    ]);
    expect(error.reason).toContain('or the one at line 1 column 20, and 1 more (');
  });

  test('brackets on later lines are named by their line and column', () => {
    expect(ambiguity('{\n  "a": {"b": 1},\n  "c": 2\n}\n}').reason).toContain('or the one at line 2 column 15 (');
  });
});

describe('past the cap, no reading is listed', () => {
  const list = (n: number): string => `[${Array.from({ length: n }, () => '[1]').join(', ')}]]`;

  test(`${MAX_READINGS} readings are listed, every one`, () => {
    const error = ambiguity(list(MAX_READINGS));
    expect(error.readings).toHaveLength(MAX_READINGS);
    expect(error.reason).toContain(`, and ${MAX_READINGS - 2} more (`);
  });

  test(`${MAX_READINGS + 1} readings and more: none listed, the message says there are more`, () => {
    for (const n of [MAX_READINGS + 1, 50]) {
      const error = ambiguity(list(n));
      expect(error.readings).toEqual([]);
      expect(error.reason).toContain('column 4, and more (');
    }
  });
});

describe('where the reader sees no second reading', () => {
  test.each([
    ['the root of the other kind', '{"a": {"b": 1}, "c": 2}]'],
    ['a container of the other kind inside', '{"a": [1], "b": 2}}'],
    ['a container of the root kind inside one of the other kind', '[{"a": {"b": 1}, "c": 2}]]'],
    ['no member after the inner container', '{"a": {"b": {"c": 1}}}}'],
    ['the inner container closed after a trailing comma', '{"a": {"b": 1,}, "c": 2}}'],
  ])('%s: dropped', (_name, text) => {
    expect(() => repairJsonText(text)).not.toThrow();
  });
});

test('a double-encoded object whose text has two readings stays a string (at an object root, refused); with one, it is unwrapped', () => {
  const text = JSON.stringify('{"a": {"b": 1}, "c": 2}}');
  expect(repairJsonText(text)).toEqual({ text, changes: [] });
  const call = prepareToolCall(text, { type: 'object' }, { lenient: true });
  expect(call.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual([{ path: '', reason: 'unconvertible' }]);
  expect(repairJsonText(JSON.stringify('{"a": {"b": 1}}}')).text).toBe('{"a": {"b": 1}}');
});
