import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../src/index.js';
import type { CoerceOptions } from '../src/index.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

/** A row of `fixtures/wild`: a model's text, and the repaired text or the refusal expected. */
interface WildCase {
  readonly name: string;
  readonly source?: string;
  readonly schema: unknown;
  readonly input: string;
  readonly expected?: string;
  readonly error?: { readonly truncated: boolean; readonly reason: string };
  readonly changes?: readonly string[];
  readonly refusals?: readonly { path: string; reason: string; expected?: readonly string[] }[];
  readonly options?: CoerceOptions;
}

const files = loadFixtures<WildCase>('wild');
const compact = (text: string): string => stringifyArgs(parseArgs(text));

test('the wild table has at least 60 rows', () => {
  expect(files.reduce((n, file) => n + file.cases.length, 0)).toBeGreaterThanOrEqual(60);
});

describe.each(files)('$file', ({ cases }) => {
  test.each(cases)('$name', (row) => {
    const schema = deepFreeze(row.schema);
    const options = row.options ?? { lenient: true };
    const call = prepareToolCall(row.input, schema, { ...options, toolName: 'tool' });

    if (row.error !== undefined) {
      let thrown: unknown;
      try {
        coerceArgsJson(row.input, schema, options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ArgsParseError);
      const error = thrown as ArgsParseError;
      expect(error.truncated).toBe(row.error.truncated);
      expect(error.message).toContain(row.error.reason);
      expect(error.message).toContain(row.error.truncated ? 'the arguments were cut off' : 'invalid JSON');
      expect(call.ok).toBe(false);
      expect(call.args).toBeUndefined();
      expect(call.message).toContain(row.error.truncated ? 'output-token limit' : 'not valid JSON');
      return;
    }

    const text = coerceArgsJson(row.input, schema, options);
    if (row.expected === row.input) expect(text).toBe(row.input);
    else expect(compact(text)).toBe(row.expected);
    expect(call.ok).toBe(true);
    expect(compact(call.json)).toBe(compact(row.expected!));
    expect(call.changes.map((change) => change.rule)).toEqual(row.changes);
    for (const change of call.changes.filter((c) => !c.path.startsWith('/'))) expect(change.path).toBe('');
    const refusals = call.refusals.map(({ path, reason, expected }) => ({ path, reason, expected }));
    expect(refusals).toEqual(
      (row.refusals ?? []).map((r) => ({ path: r.path, reason: r.reason, expected: r.expected ?? refusals.find((g) => g.path === r.path)?.expected })),
    );
  });
});

describe('model-facing messages', () => {
  test('a cut-off call asks for shorter arguments or smaller steps, and names the spot', () => {
    const call = prepareToolCall('{"path": "a.txt", "content": "abc', { type: 'object' }, { toolName: 'write_file', lenient: true });
    expect(call.message).toBe(
      'Invalid parameters for tool "write_file": the arguments were cut off before they were complete ' +
        '(they end at line 1 column 34: the text ends inside a string), most likely at the output-token limit.\n' +
        'Nothing was run. Send shorter arguments, or do the work in smaller steps (for example, write a large file in several calls), and call the tool again.',
    );
  });

  test('strict mode names a truncation too, and never repairs', () => {
    expect(() => coerceArgsJson('{"limit": 100', { type: 'object' })).toThrow(/the arguments were cut off at line 1 column 14 \(position 13\): Unexpected end of input/);
    expect(() => coerceArgsJson("{'a': 1}", { type: 'object' })).toThrow(/invalid JSON/);
    expect(prepareToolCall('{"limit": 100', { type: 'object' }).message).toContain('output-token limit');
  });

  test('syntax off: lenient conversions without syntax repair', () => {
    expect(() => coerceArgsJson("{'a': '1'}", { type: 'object' }, { lenient: { syntax: false } })).toThrow(ArgsParseError);
  });

  test('a refused enum value lists the allowed values in its message', () => {
    const call = prepareToolCall('{"format": "pdf"}', { properties: { format: { enum: ['markdown', 'html'] } } }, { lenient: true });
    expect(call.refusals[0]!.message).toBe('"pdf" at /format was left as it is: no safe conversion applies; expected one of "markdown", "html"');
  });

  test('parseArgs repairs when asked, and only then', () => {
    expect(stringifyArgs(parseArgs("{'line': 5.0, 'x': None}", { repair: true }))).toBe('{"line":5.0,"x":null}');
    expect(() => parseArgs("{'line': 5.0}")).toThrow(ArgsParseError);
    expect(parseArgs('', { repair: true })).toEqual({});
  });
});
