import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { DOC, END, START, peerTable } from '../scripts/peer-table.js';

// The README's and docs' code snippets are run by test/snippets.test.ts.
test('the peer table (docs/REPAIRS.md) is what the real packages do today', () => {
  const doc = readFileSync(DOC, 'utf8');
  const block = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
  expect(block).toBe(peerTable());
});
