import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';

// semver ships no types (and knip.json lists it, as it cannot see this require).
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

interface Locked { readonly engines?: { readonly node?: string } | readonly string[]; readonly optional?: boolean }

/** The packages `npm install` would warn about on Node `version` (EBADENGINE), by name. */
function warnedOn(version: string): string[] {
  const { packages } = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };
  return Object.entries(packages)
    .filter(([, locked]) => locked.optional !== true && !Array.isArray(locked.engines))
    .filter(([, locked]) => {
      const range = (locked.engines as { node?: string } | undefined)?.node;
      return range !== undefined && !semver.satisfies(version, range);
    })
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
}

test('the dev setup installs without engine warnings on the Node the README recommends for it (and .nvmrc names)', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const recommended = /Developing schema-coerce itself[^]*?use Node (\d+)\.(\d+) or later \(or (\d+)/.exec(readme);
  expect(recommended, 'README.md names the Node to develop on').not.toBeNull();
  const [, major, minor, next] = recommended!;
  expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(major);
  expect(warnedOn(`${major}.${minor}.0`)).toEqual([]);
  expect(warnedOn(`${next}.0.0`)).toEqual([]);
});

test('on Node 20.20 the warnings are the ones the README names: the Mastra and OpenAI packages and what they bring', () => {
  expect(new Set(warnedOn('20.20.0').map((name) => name.split('/')[0]!.replace(/-v\d+$/, '')))).toEqual(new Set(['@ai-sdk', '@mastra', 'openai']));
});
