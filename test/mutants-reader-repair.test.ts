/**
 * The syntax repair's entry points: which root strings are read as an object's text
 * (double-encoded arguments), and how a strict refusal is marked as a cut-off or not.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../src/index.js';

const schema = { type: 'object', properties: { a: { type: 'integer' } } };
const rules = (text: string): string[] => prepareToolCall(text, schema, { lenient: true }).changes.map((change) => change.rule);

describe('a root string is unwrapped only when its content, trimmed, is an object text', () => {
  test('white space around the object text is allowed', () => {
    const text = JSON.stringify(' {"a": 1} \n');
    expect(coerceArgsJson(text, schema, { lenient: true })).toBe(' {"a": 1} \n');
    expect(rules(text)).toEqual(['double-encoded']);
  });

  test.each([
    ['an array text', '[1, 2]'],
    ['an object text after a comment', '/* the id */ {"a": 1}'],
    ['braces around no JSON', '{a b}'],
  ])('%s stays the string it is', (_name, content) => {
    const text = JSON.stringify(content);
    const call = prepareToolCall(text, schema, { lenient: true });
    expect(call.json).toBe(text);
    expect(call.changes).toEqual([]);
    expect(call.args).toBe(content);
  });
});

describe('the syntax repair unwraps only a string whose content ends with the object', () => {
  // parseArgs with `repair`, so that no lenient rule reads the string after the repair has.
  test.each([
    ['a comment', '{"a": 1} // the id'],
    ['a stray bracket', '{"a": 1}]'],
  ])('an object text before %s stays the string it is', (_name, content) => {
    expect(parseArgs(JSON.stringify(content), { repair: true })).toBe(content);
  });

  test('the same object text alone is unwrapped', () => {
    expect(stringifyArgs(parseArgs(JSON.stringify('{"a": 1}'), { repair: true }))).toBe('{"a":1}');
  });
});

describe('a strict refusal is marked as a cut-off only when the text was cut off', () => {
  function strictError(text: string): ArgsParseError {
    try {
      coerceArgsJson(text, { type: 'object' });
    } catch (error) {
      if (error instanceof ArgsParseError) return error;
      throw error;
    }
    throw new Error('the text was accepted');
  }

  test('a text with a wrong character is invalid, not cut off', () => {
    const error = strictError('{"a": 1,, "b": 2}');
    expect(error.truncated).toBe(false);
    expect(error.message).toMatch(/^\[schema-coerce\] invalid JSON at line 1 column 9 \(position 8\)/);
  });

  test('a text that ends inside an object is cut off, with the strict reason and place kept', () => {
    const error = strictError('{"a": 1, "b"');
    expect(error.truncated).toBe(true);
    expect(error.position).toBe(12);
    expect(error.line).toBe(1);
    expect(error.column).toBe(13);
    expect(error.message).toMatch(/^\[schema-coerce\] the arguments were cut off at line 1 column 13 \(position 12\): /);
  });

  test('a literal cut off on a later line is named where the strict parser stopped, not at the end', () => {
    const text = '{"a": 1,\n "b": tru';
    const error = strictError(text);
    expect(error.truncated).toBe(true);
    expect(error.position).toBe(15);
    expect(text[15]).toBe('t');
    expect(error.line).toBe(2);
    expect(error.column).toBe(7);
    expect(error.message).toBe('[schema-coerce] the arguments were cut off at line 2 column 7 (position 15): Unexpected character "t"');
  });
});

describe('a syntax change names the first place its rule fired, as written, and what that became', () => {
  test('quotes, an unquoted key and a Python literal', () => {
    const call = prepareToolCall("{'path': 'a.py', recursive: True}", { type: 'object' }, { lenient: true });
    expect(call.changes).toEqual([
      { path: '', from: "'path'", to: '"path"', rule: 'quotes' },
      { path: '', from: 'recursive', to: '"recursive"', rule: 'unquoted-key' },
      { path: '', from: 'True', to: 'true', rule: 'python-literal' },
    ]);
  });
});
