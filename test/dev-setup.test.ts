import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';

// semver ships no types (and knip.json lists it, as it cannot see this require).
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

interface Locked { readonly engines?: { readonly node?: string } | readonly string[]; readonly optional?: boolean }
interface Manifest { readonly devDependencies: Record<string, string>; readonly dependencies?: Record<string, string> }

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const light = readJson<Manifest>('package.json');
const full = readJson<Manifest>('full/package.json');

/** The packages `npm ci` would warn about on Node `version` (EBADENGINE), by name, from the lockfile at `lockfile`. */
function warnedOn(lockfile: string, version: string): string[] {
  const { packages } = readJson<{ packages: Record<string, Locked> }>(lockfile);
  return Object.entries(packages)
    .filter(([, locked]) => locked.optional !== true && !Array.isArray(locked.engines))
    .filter(([, locked]) => {
      const range = (locked.engines as { node?: string } | undefined)?.node;
      return range !== undefined && !semver.satisfies(version, range);
    })
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
}

// The README's text with each run of white space as one space, as it reads.
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');

describe('the light install (npm ci): what npm test, the typecheck and the build need', () => {
  test('installs without engine warnings on each Node the README names for it (and .nvmrc names the first)', () => {
    const named = /`npm ci`[^]*?without engine warnings on Node (\d+)\.(\d+), (\d+)\.(\d+) or (\d+)/.exec(readme);
    expect(named, 'README.md names the Node versions the light install is clean on').not.toBeNull();
    const [, major, minor, major2, minor2, major3] = named!;
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(major);
    for (const version of [`${major}.${minor}.0`, `${major2}.${minor2}.0`, `${major3}.0.0`]) expect(warnedOn('package-lock.json', version), `Node ${version}`).toEqual([]);
  });

  test('holds none of the full install: the two manifests share no package, and every pin is exact', () => {
    const lightNames = new Set(Object.keys({ ...light.dependencies, ...light.devDependencies }));
    expect(Object.keys(full.devDependencies).filter((name) => lightNames.has(name))).toEqual([]);
    const { packages } = readJson<{ packages: Record<string, unknown> }>('package-lock.json');
    expect(Object.keys(full.devDependencies).filter((name) => `node_modules/${name}` in packages)).toEqual([]);
    for (const [name, range] of Object.entries({ ...light.dependencies, ...light.devDependencies, ...full.devDependencies })) {
      expect(range, name).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});

describe('the full install (npm run setup:full, full/): the rest', () => {
  test('installs without engine warnings on the Node the README names for it', () => {
    const named = /`npm run setup:full`[^]*?wants Node (\d+)\.(\d+) or later, or (\d+)/.exec(readme);
    expect(named, 'README.md names the Node the full install is clean on').not.toBeNull();
    const [, major, minor, next] = named!;
    expect(warnedOn('full/package-lock.json', `${major}.${minor}.0`)).toEqual([]);
    expect(warnedOn('full/package-lock.json', `${next}.0.0`)).toEqual([]);
  });

  test('on Node 20.20 the warnings are the ones the README names: the Mastra and OpenAI packages, the MCP conformance suite, and what they bring', () => {
    expect(readme).toMatch(/on Node 20 npm warns about the Mastra and OpenAI packages and the MCP conformance suite/);
    // content-type 3 comes with the conformance suite (through @octokit/request) and wants Node 22.
    expect(new Set(warnedOn('full/package-lock.json', '20.20.0').map((name) => name.split('/')[0]!.replace(/-v\d+$/, '')))).toEqual(new Set(['@ai-sdk', '@mastra', 'openai', 'content-type']));
  });
});
