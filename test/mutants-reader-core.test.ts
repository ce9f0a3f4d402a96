/**
 * The tolerant reader's tables and main loop (`src/json/tolerant/reader.ts`: its constants,
 * `readTolerant`, `read()` and `key()`) through the public entry points, by the rows of
 * `fixtures/reader`: number and literal spellings, code fences and blank text, layout and
 * comments, stray brackets, the tool-call markup of each serving engine's format, named, and the
 * reader's second half (`scalar()` on, `scalars.json`): where a number ends and where it is cut
 * off, bare words named in a refusal, what may follow the arguments, a root string's own rewriting
 * behind an envelope, characters between tokens that open no comment, and what a line comment
 * leaves of its line end; and, for every text of those rows and of `fixtures/wild` that reads, that the reading's edits
 * are what applying them assumes: in text order, none overlapping another.
 *
 * The reader's patterns and word lists are module constants, built once when the module loads,
 * so each table is also read by a package imported afresh (`vi.resetModules`): a table built
 * wrong reaches only a process's first load, which the other tests of the suite never see.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import * as api from '../src/index.js';
import { readTolerant } from '../src/json/tolerant/reader.js';
import { decodeOnce, opensOverEscaped } from '../src/json/tolerant/over-escaped.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

/** A row of `fixtures/reader`: a model's text, and its repaired text and rules, or its refusal. */
interface ReaderRow {
  readonly name: string;
  /** The tool's schema, when the row is about one; any value otherwise. */
  readonly schema?: unknown;
  readonly input: string;
  /** The repaired text, exactly as it is dispatched. */
  readonly json?: string;
  readonly changes?: readonly string[];
  readonly error?: { readonly truncated: boolean; readonly reason: string; readonly position: number };
}

type Entry = Pick<typeof api, 'ArgsParseError' | 'coerceArgsJson' | 'prepareToolCall'>;

/** Any value: the rows are about the syntax, not the schema. */
const ANY = {};

const files = loadFixtures<ReaderRow>('reader');
for (const { file, cases } of files) {
  for (const row of cases) {
    if ((row.json === undefined) === (row.error === undefined)) throw new Error(`${file}: row ${JSON.stringify(row.name)} needs "json" or "error", not both`);
  }
}

function check({ ArgsParseError, coerceArgsJson, prepareToolCall }: Entry, row: ReaderRow): void {
  const schema = deepFreeze(row.schema ?? ANY);
  const call = prepareToolCall(row.input, schema, { lenient: true });
  if (row.error !== undefined) {
    expect(call.ok, row.name).toBe(false);
    expect(call.args, row.name).toBeUndefined();
    expect(() => coerceArgsJson(row.input, schema, { lenient: true }), row.name).toThrow(ArgsParseError);
    const { truncated, reason, position } = call.parseError ?? {};
    expect({ truncated, position }, row.name).toEqual({ truncated: row.error.truncated, position: row.error.position });
    expect(reason, row.name).toContain(row.error.reason);
    return;
  }
  expect(call.ok, row.name).toBe(true);
  expect(call.json, row.name).toBe(row.json);
  expect(coerceArgsJson(row.input, schema, { lenient: true }), row.name).toBe(row.json);
  expect(call.changes.map((change) => change.rule), row.name).toEqual(row.changes);
}

describe.each(files)('$file', ({ cases }) => {
  test.each(cases)('$name', (row) => check(api, row));
});

describe('each table read by a package imported afresh', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  test.each(files)('$file', async ({ cases }) => {
    const fresh = (await import('../src/index.js')) as typeof api;
    for (const row of cases) check(fresh, row);
  });
});

describe('the edits of a reading are in text order and never overlap (what applying them assumes)', () => {
  // A wild row that reads has its `expected` text; a reader row, its `json`.
  type Row = { readonly name: string; readonly input: string; readonly json?: string; readonly expected?: string };
  const tables: { file: string; cases: readonly Row[] }[] = [...files, ...loadFixtures('wild')];
  const rows = tables
    .flatMap(({ file, cases }) => cases.map((row) => ({ ...row, file })))
    .filter((row) => row.json !== undefined || row.expected !== undefined);

  test.each(rows)('$file: $name', ({ input }) => {
    let copied = 0;
    // Over-escaped arguments are read once decoded (rule `over-escaped`): the reader reads that text.
    const text = opensOverEscaped(input) ? decodeOnce(input)! : input;
    for (const { start, end } of readTolerant(text).edits) {
      expect(start).toBeGreaterThanOrEqual(copied);
      expect(end).toBeGreaterThanOrEqual(start);
      copied = end;
    }
  });
});
