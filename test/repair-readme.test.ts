import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { END, README, START, repairTable } from '../scripts/repair-table.js';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

const readme = readFileSync(README, 'utf8');

describe('README: what models really send', () => {
  test('the table is what the real packages do with fixtures/wild today', () => {
    const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(block).toBe(repairTable());
  });

  test('the example', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' }, recursive: { type: 'boolean' }, depth: { type: 'integer' } } };
    const out = coerceArgsJson("```json\n{'path': 'src', 'recursive': True, 'depth': 2.0, // all\n}\n```", schema, { lenient: true });
    expect(out).toBe('{"path":"src","recursive":true,"depth":2}');
    expect(readme).toContain(`// → '${out}'`);
    const message = prepareToolCall('{"commands": ["npm install", "npm test"', schema, { lenient: true }).message!;
    expect(message).toContain('the arguments were cut off before they were complete');
    expect(message).toContain('most likely at the output-token\n//    limit.'.replace('\n//    ', ' '));
    expect(message).toContain('Nothing was run. Send shorter arguments, or do the work in smaller steps');
  });
});
