import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { END, README, START, repairTable } from '../scripts/repair-table.js';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

const readme = readFileSync(README, 'utf8');
const repairs = readFileSync(join(import.meta.dirname, '..', 'docs', 'REPAIRS.md'), 'utf8');

describe('README: what models send', () => {
  test('the table is what the real packages do with fixtures/wild today', () => {
    const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(block).toBe(repairTable());
  });

  test('the example of docs/REPAIRS.md', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' }, recursive: { type: 'boolean' }, depth: { type: 'integer' } } };
    const out = coerceArgsJson("```json\n{'path': 'src', 'recursive': True, 'depth': 2.0, // all\n}\n```", schema, { lenient: true });
    expect(out).toBe('{"path":"src","recursive":true,"depth":2}');
    expect(repairs).toContain(`// → '${out}'`);
    const message = prepareToolCall('{"commands": ["npm install", "npm test"', schema, { lenient: true }).message!;
    expect(message).toContain('the arguments were cut off before they were complete');
    expect(message).toContain('most likely at the output-token\n//    limit.'.replace('\n//    ', ' '));
    expect(message).toContain('Nothing was run. Send shorter arguments, or do the work in smaller steps');
  });
});
