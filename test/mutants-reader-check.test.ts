/**
 * The token check stands between the tolerant reader and what is dispatched: a reading whose edits
 * would change a string's value is refused, never dispatched, however it came about. The reader is
 * made to lie here (one test at a time), since a correct reader gives the check nothing to refuse.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ArgsParseError, coerceArgsJson, prepareToolCall } from '../src/index.js';
import type { Reading } from '../src/json/tolerant/reader.js';
import * as reader from '../src/json/tolerant/reader.js';

vi.mock('../src/json/tolerant/reader.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/json/tolerant/reader.js')>();
  return { ...actual, readTolerant: vi.fn(actual.readTolerant) };
});

const { readTolerant: honest } = await vi.importActual<typeof import('../src/json/tolerant/reader.js')>('../src/json/tolerant/reader.js');

/** From now on the reader writes `to` in place of every string it requotes. */
function lyingReader(to: string): void {
  vi.mocked(reader.readTolerant).mockImplementation((text: string): Reading => {
    const reading = honest(text);
    return { ...reading, edits: reading.edits.map((edit) => (edit.rule === 'quotes' ? { ...edit, to } : edit)) };
  });
}

afterEach(() => {
  vi.mocked(reader.readTolerant).mockImplementation(honest);
});

const schema = { type: 'object', properties: { path: { type: 'string' } } };

describe('a repair whose rewritten string means another value is refused', () => {
  test('the honest reader repairs the text', () => {
    expect(coerceArgsJson("{'path': 'a.txt'}", schema, { lenient: true })).toBe('{"path": "a.txt"}');
  });

  test('a reader that writes another string: the text is refused as not kept, nothing is dispatched', () => {
    lyingReader('"b.txt"');
    expect(() => coerceArgsJson("{'path': 'a.txt'}", schema, { lenient: true })).toThrow(ArgsParseError);
    expect(() => coerceArgsJson("{'path': 'a.txt'}", schema, { lenient: true })).toThrow(
      '[schema-coerce] invalid JSON: the repair would not keep every string and number of the text; refused',
    );
    const call = prepareToolCall("{'path': 'a.txt'}", schema, { lenient: true });
    expect(call.ok).toBe(false);
    expect(call.args).toBeUndefined();
  });

  test('a reader that writes another string inside double-encoded arguments: the string stays a string', () => {
    const text = JSON.stringify("{'path': 'a.txt'}");
    expect(prepareToolCall(text, schema, { lenient: true }).args).toEqual({ path: 'a.txt' });
    lyingReader('"b.txt"');
    const call = prepareToolCall(text, schema, { lenient: true });
    expect(call.args).toBe("{'path': 'a.txt'}");
    expect(call.changes).toEqual([]);
  });
});
