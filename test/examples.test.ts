import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';

const EXAMPLES = join(ROOT, 'examples');
/** Every example with a recorded output runs, against the built package, and prints exactly that. */
const recorded = readdirSync(join(EXAMPLES, 'expected')).map((name) => name.replace(/\.txt$/, ''));

test('every runnable example has its output recorded', () => {
  const runnable = readdirSync(EXAMPLES).filter((name) => name.endsWith('.ts') && !name.endsWith('-server.ts')).map((name) => name.replace(/\.ts$/, ''));
  expect(recorded.sort()).toEqual(runnable.sort());
});

test.each(recorded)('examples/%s.ts prints what it promises', (name) => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(EXAMPLES, `${name}.ts`)], { cwd: ROOT, encoding: 'utf8' });
  expect(out).toBe(readFileSync(join(EXAMPLES, 'expected', `${name}.txt`), 'utf8'));
}, 30_000);
