/**
 * The tolerant reader's second half (`src/json/repair/reader.ts`, from `scalar()` on) through the
 * public entry points, by the rows of `fixtures/reader`: where a number ends and where it is cut
 * off, bare words named in a refusal, what may follow the arguments, a root string's own rewriting
 * found behind an envelope, characters between tokens that open no comment, and what a line
 * comment leaves of its line end. Each row states the repaired text exactly (layout included),
 * the rules reported, or the refusal.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, prepareToolCall } from '../src/index.js';
import type { CoerceOptions } from '../src/index.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

/** A row of `fixtures/reader`: a text, and the repaired text (exactly) or the refusal expected. */
interface ReaderCase {
  readonly name: string;
  readonly schema: unknown;
  readonly input: string;
  readonly options: CoerceOptions;
  readonly expected?: string;
  readonly changes?: readonly string[];
  readonly error?: { readonly truncated: boolean; readonly reason: string };
}

describe.each(loadFixtures<ReaderCase>('reader'))('$file', ({ cases }) => {
  test.each(cases)('$name', (row) => {
    const schema = deepFreeze(row.schema);
    const call = prepareToolCall(row.input, schema, row.options);
    if (row.error !== undefined) {
      expect(call.ok).toBe(false);
      expect(call.args).toBeUndefined();
      expect(call.parseError?.truncated).toBe(row.error.truncated);
      expect(call.parseError?.reason).toContain(row.error.reason);
      expect(() => coerceArgsJson(row.input, schema, row.options)).toThrow(ArgsParseError);
      return;
    }
    expect(call.ok).toBe(true);
    expect(call.json).toBe(row.expected);
    expect(call.changes.map((change) => change.rule)).toEqual(row.changes);
    expect(coerceArgsJson(row.input, schema, row.options)).toBe(row.expected);
  });
});
