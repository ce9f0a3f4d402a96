/**
 * package.json as npm and TypeScript read it: the fields the npm page shows, and `typesVersions`,
 * which gives each subpath its declarations under TypeScript's `node10` resolution (a project
 * still on `moduleResolution: node` reads no `exports`). `npm run test:package` checks the packed
 * tarball itself (arethetypeswrong under every profile, a consumer under each resolution).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';

interface Manifest {
  readonly repository: { readonly type: string; readonly url: string };
  readonly homepage: string;
  readonly bugs: { readonly url: string };
  readonly author: string;
  readonly keywords: readonly string[];
  readonly types: string;
  readonly exports: Record<string, string | { readonly require: { readonly types: string } }>;
  readonly typesVersions: Record<string, Record<string, readonly string[]>>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

test('the npm page has a repository, a homepage, an issue tracker, an author and keywords, all of one repository', () => {
  expect(manifest.repository.type).toBe('git');
  const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository.url)?.[1];
  expect(repo, 'repository.url is git+https://github.com/<owner>/<name>.git').toBeDefined();
  expect(manifest.homepage).toBe(`${repo}#readme`);
  expect(manifest.bugs.url).toBe(`${repo}/issues`);
  expect(manifest.author).not.toBe('');
  expect(manifest.keywords).toEqual(expect.arrayContaining(['json-schema', 'mcp', 'tool-calling']));
});

test('typesVersions gives every subpath of exports the declarations its require condition names, and nothing else', () => {
  const subpaths = Object.entries(manifest.exports)
    .filter(([path, target]) => path !== '.' && typeof target === 'object')
    .map(([path, target]) => [path.slice(2), [(target as { require: { types: string } }).require.types]] as const);
  expect(Object.keys(manifest.typesVersions)).toEqual(['*']);
  expect(manifest.typesVersions['*']).toEqual(Object.fromEntries(subpaths));
  expect(manifest.types).toBe((manifest.exports['.'] as { require: { types: string } }).require.types);
});
