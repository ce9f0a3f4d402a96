/**
 * Plain JavaScript numbers (what a framework hands on after `JSON.parse`): their literal text is
 * unknown, so a number is written as a string only where its shortest decimal is exactly it and it
 * could not have been rounded (`fixtures/plain`: each row's `input` is read with `JSON.parse`).
 */
import { describe, expect, test } from 'vitest';
import { coerceArgs, prepareToolCall } from '../src/index.js';
import { deepFreeze, loadCases } from './_helpers/fixtures.js';

describe.each(loadCases('plain'))('$file', ({ cases }) => {
  test.each(cases)('$name', (row) => {
    const args = deepFreeze(JSON.parse(row.input) as unknown);
    const result = coerceArgs(args, deepFreeze(row.schema), row.options);
    expect(JSON.stringify(result.value)).toBe(JSON.stringify(JSON.parse(row.expected)));
    if (row.expected === row.input) expect(result.value).toBe(args);
    expect(result.changes.map(({ path, rule }) => ({ path, rule }))).toEqual(row.changes ?? []);
    expect(result.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual(row.refusals);
    // prepareToolCall with the parsed object gives the same verdict.
    const call = prepareToolCall(args, row.schema, row.options);
    expect(call.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual(row.refusals);
    expect(JSON.stringify(JSON.parse(call.json))).toBe(JSON.stringify(JSON.parse(row.expected)));
  });
});
