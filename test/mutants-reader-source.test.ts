/**
 * The reader's errors name their place in the text the caller gave, not in the part inside a
 * code fence: a model that is told "line 2 column 10" must find the problem there in what it sent.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, prepareToolCall } from '../src/index.js';

const schema = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } } };

function refusal(text: string): ArgsParseError {
  try {
    coerceArgsJson(text, schema, { lenient: true });
  } catch (error) {
    if (error instanceof ArgsParseError) return error;
    throw error;
  }
  throw new Error('the text was accepted');
}

describe('an error inside a code fence is located in the whole text', () => {
  test('a bad character after the fence line: its position counts the fence', () => {
    // "```json\n" is 8 characters; the stray "@" is at position 14 of the fenced body.
    const text = '```json\n{"path": "a", @: 1}\n```';
    const error = refusal(text);
    expect(text[error.position!]).toBe('@');
    expect(error.position).toBe(22);
    expect(error.line).toBe(2);
    expect(error.column).toBe(15);
    expect(error.truncated).toBe(false);
    expect(error.message).toBe('[schema-coerce] invalid JSON at line 2 column 15 (position 22): Expected an object key but got "@"');
  });

  test('a fence never closed is a cut-off at the end of the whole text', () => {
    const text = '```\n{"limit": 5, "path": "a.txt"';
    const call = prepareToolCall(text, schema, { lenient: true });
    expect(call.ok).toBe(false);
    expect(call.parseError?.truncated).toBe(true);
    expect(call.parseError?.position).toBe(text.length);
    expect(call.parseError?.reason).toBe('the text ends inside a code fence');
  });

  test('two values back to back inside a fence: the second one is named where it starts', () => {
    const text = '```json\n{"limit": 5} {"limit": 6}\n```';
    const error = refusal(text);
    expect(error.position).toBe(21);
    expect(text[error.position!]).toBe('{');
    expect(error.reason).toBe('a second value follows the first one (two values back to back)');
  });
});
