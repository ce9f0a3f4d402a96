#!/usr/bin/env node
/**
 * The full dev install (`npm run setup:full`; `npm run test:all` and CI run it first). `npm ci`
 * installs what `npm test`, the typecheck and the build need; the rest (other runtimes, the
 * frameworks that need Node 22, real MCP servers and clients, Stryker, attw) has its own manifest
 * and lockfile in full/. This installs full/ from its lockfile (`npm ci`, only when the lockfile
 * changed since the last install, or with --force) and links each package it names, and its bins,
 * into ./node_modules, so the tests, examples and tools import them as if installed at the root.
 * full/.npmrc sets `legacy-peer-deps`, so their peers (zod, vitest) are the root's own copies;
 * and a package full/ installs at the very version the root has (the MCP SDK under LangChain's
 * MCP adapters, say) is removed from full/, so Node and TypeScript, walking up from full/, find
 * the root's: one copy of each is loaded (two copies of a class are two types to TypeScript).
 * `npm ci` at the root removes the links; running this again puts them back without
 * reinstalling, unless either lockfile changed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const FULL = join(ROOT, 'full');
const MODULES = join(ROOT, 'node_modules');
const STAMP = join(FULL, 'node_modules', '.installed-from');

/** @param {string} path */
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

if (!existsSync(join(MODULES, '.package-lock.json'))) {
  console.error('install-full: run `npm ci` at the root first (the full install goes beside it)');
  process.exit(1);
}

// Both lockfiles: which of full/'s packages the root holds too depends on the root's.
const hash = createHash('sha256').update(readFileSync(join(FULL, 'package-lock.json'))).update(readFileSync(join(ROOT, 'package-lock.json'))).digest('hex');
const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash;
if (!current || process.argv.includes('--force')) {
  console.log('install-full: npm ci in full/ (the heavy half of the dev install; a few minutes the first time)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: FULL, stdio: 'inherit' });
  const shared = dedupe();
  console.log(`install-full: ${shared} packages full/ holds at the root's very version left to the root's copy`);
  writeFileSync(STAMP, hash);
}

/** The version of the package installed at `dir`, or undefined when there is none (or it is one of our links). */
function versionAt(dir) {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || stat.isSymbolicLink() || !existsSync(join(dir, 'package.json'))) return undefined;
  return readJson(join(dir, 'package.json')).version;
}

/** Removes from full/node_modules each package the root holds at the same version; returns how many. */
function dedupe() {
  const installed = join(FULL, 'node_modules');
  const names = readdirSync(installed).filter((name) => !name.startsWith('.')).flatMap((name) => (name.startsWith('@') ? readdirSync(join(installed, name)).map((inner) => `${name}/${inner}`) : [name]));
  let removed = 0;
  for (const name of names) {
    const version = versionAt(join(installed, name));
    if (version !== undefined && version === versionAt(join(MODULES, name))) {
      rmSync(join(installed, name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/** Makes `path` a symbolic link to `target`, replacing a link that was there. */
function link(target, path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isSymbolicLink()) {
    throw new Error(`install-full: ${relative(ROOT, path)} is installed at the root too; a package belongs to one manifest`);
  }
  if (stat !== undefined) rmSync(path);
  mkdirSync(dirname(path), { recursive: true });
  // A junction on Windows takes an absolute target; elsewhere the link is relative, so the tree can move.
  if (process.platform === 'win32') symlinkSync(target, path, 'junction');
  else symlinkSync(relative(dirname(path), target), path);
}

const names = Object.keys(readJson(join(FULL, 'package.json')).devDependencies);
let bins = 0;
for (const name of names) {
  const installed = join(FULL, 'node_modules', name);
  link(installed, join(MODULES, name));
  const { bin } = readJson(join(installed, 'package.json'));
  const entries = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : (bin ?? {});
  for (const [command, file] of Object.entries(entries)) {
    const binLink = join(MODULES, '.bin', command);
    if (process.platform === 'win32') continue; // npm's .cmd shims are not made here: run the tools through npx in full/.
    // A root package's command of the same name stays the root's.
    if (lstatSync(binLink, { throwIfNoEntry: false }) !== undefined && !realpathSync(binLink).startsWith(FULL)) continue;
    link(join(installed, file), binLink);
    bins++;
  }
}
console.log(`install-full: ${names.length} packages and ${bins} commands of full/ linked into node_modules`);
