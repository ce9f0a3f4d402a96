import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { END, README, START, repairTable } from '../scripts/repair-table.js';

// The examples around the table (README.md, docs/REPAIRS.md) are run by test/snippets.test.ts.
test('README: the table of what models send is what the real packages do with fixtures/wild today', () => {
  const readme = readFileSync(README, 'utf8');
  const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
  expect(block).toBe(repairTable());
});
