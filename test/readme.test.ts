import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { DOC, END, START, peerTable } from '../scripts/peer-table.js';
import * as root from '../src/index.js';
import * as render from '../src/render.js';
import * as validate from '../src/validate.js';
import { extractExamples, readExpected, runExample } from './_helpers/readme.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const examples = extractExamples(readme);

/** The entries README examples import, by package path. */
const MODULES = { 'schema-coerce': root, 'schema-coerce/render': render, 'schema-coerce/validate': validate } as Record<string, Record<string, unknown>>;
/**
 * What an example uses without declaring it: the root entry's exports (the README imports them
 * once, at the top), the first screen's `schema`, and the `tool` its rendered output shows.
 */
const GIVEN: Record<string, unknown> = {
  ...root,
  schema: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' }, ratio: { type: 'number' } } },
  tool: { name: 'search', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
};

describe('README', () => {
  test('the peer table (docs/REPAIRS.md) is what the real packages do today', () => {
    const doc = readFileSync(DOC, 'utf8');
    const block = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
    expect(block).toBe(peerTable());
  });

  test('the examples that state a result are found (first screen, literal form, pipeline, lenient)', () => {
    expect(examples.map((example) => example.claims.length)).toEqual([1, 3, 2, 2]);
  });

  test.each(examples.map((example) => [example.line, example] as const))('the example at line %i prints what it states', (_line, example) => {
    const results = runExample(example, MODULES, GIVEN);
    for (const claim of example.claims) {
      const expected = readExpected(claim.expected);
      const actual = results.get(claim.line);
      if ('value' in expected) expect(actual, `README line ${claim.line}`).toEqual(expected.value);
      else expect(actual, `README line ${claim.line}`).toBe(expected.text);
    }
  });
});
