import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';
import type { Job, Verdict } from './_helpers/snippet-runner.js';
import { documents, fences, kindOf, matchesText, moduleClaims, moduleSource, namedPackages, neededPackages, shellClaims, type Fence } from './_helpers/snippets.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

/**
 * Every fenced block of README.md and docs/*.md, as a test: ts/js blocks run as pasted in a
 * fresh ES module project (outside the repository, so nothing of it resolves there) with the
 * packed tarball and the packages the text before each block names, installed at the versions
 * this checkout pins (one child process per document, each block a module of its own), and their
 * stated results are compared; each must name every package it needs. sh blocks run in bash; json
 * blocks must parse; a block with no language fails. test/_helpers/snippets.ts says how results
 * are stated.
 */
const WORK = join(ROOT, 'test', '.snippets');
const BIN = join(WORK, 'bin');
/** What the stand-in server needs (`npx tsx examples/mcp-server.ts`) and the type check: the harness's, not a snippet's. */
const HARNESS = ['tsx', '@modelcontextprotocol/sdk', 'zod', '@types/node'];
const versionOf = (name: string): string => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
/** The fresh project the ts/js blocks run in. */
let project = '';

/**
 * What sh snippets find on PATH besides the system's: `schema-coerce` and `npx schema-coerce` are
 * the built bin, `npx tsx` the pinned tsx. `npm install`, `npm test` and `npm run` are the suite's
 * own setup and are checked, not run (the packages named must be this package or its declared
 * dependencies, the scripts must exist): CI installs and runs them itself.
 */
const SHIMS: Record<string, string> = {
  'schema-coerce': `exec node "$ROOT/dist/cli.js" "$@"`,
  npx: `while [ "\${1:-}" = "-y" ] || [ "\${1:-}" = "--yes" ]; do shift; done
case "\${1:-}" in
  schema-coerce) shift; exec node "$ROOT/dist/cli.js" "$@" ;;
  tsx) shift; exec "$ROOT/node_modules/.bin/tsx" "$@" ;;
  *) echo "snippets: npx \${1:-} is not available to snippets (schema-coerce and tsx are)" >&2; exit 127 ;;
esac`,
  npm: `check() { node -e '
const p = require(process.argv[1]); const [kind, name] = process.argv.slice(2);
const known = kind === "script" ? p.scripts : { [p.name]: 1, ...p.dependencies, ...p.devDependencies, ...p.peerDependencies };
if (!(name in known)) { console.error("snippets: npm: no " + kind + " " + name + " in package.json"); process.exit(1); }' "$ROOT/package.json" "$1" "$2"; }
case "\${1:-}" in
  install|i|ci) shift; for arg in "$@"; do case "$arg" in -*) ;; *) check package "$(echo "$arg" | sed -E 's/(.)@.*/\\1/')" || exit 1 ;; esac; done ;;
  test) check script test ;;
  run) check script "\${2:-}" ;;
  *) echo "snippets: npm \${1:-} is not available to snippets" >&2; exit 127 ;;
esac`,
};

const all = documents(ROOT).flatMap((file) => fences(ROOT, file));
const where = (fence: Fence, line = fence.line) => `${fence.file}:${line}`;

beforeAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(BIN, { recursive: true });
  for (const [name, body] of Object.entries(SHIMS)) {
    writeFileSync(join(BIN, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(BIN, name), 0o755);
  }
  // `npm pack` builds the package (its `prepare`), as publishing does; the sh blocks run that build.
  const work = makeTempDir('schema-coerce-snippets-');
  execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: ROOT, stdio: 'pipe' });
  const tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz'))!);
  project = join(work, 'project');
  mkdirSync(join(project, 'examples'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  copyFileSync(join(ROOT, 'examples', 'mcp-server.ts'), join(project, 'examples', 'mcp-server.ts'));
  const named = all.filter((fence) => kindOf(fence.lang) === 'module').flatMap((fence) => neededPackages(fence).filter((name) => namedPackages(ROOT, fence).has(name)));
  const packages = [...new Set([...named, ...HARNESS])].map((name) => `${name}@${versionOf(name)}`);
  execFileSync('npm', ['install', tarball, ...packages, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--silent'], { cwd: project, stdio: 'pipe' });
}, 600_000);
afterAll(() => rmSync(WORK, { recursive: true, force: true }));
// The project and its installed packages: removing them takes a while on a busy machine.
afterAll(removeTempDirs, 120_000);

test('README.md and docs/ have snippets, and README.md states results', () => {
  const modules = all.filter((fence) => fence.file === 'README.md' && kindOf(fence.lang) === 'module');
  expect(modules.length).toBeGreaterThan(3);
  expect(modules.flatMap(moduleClaims).length).toBeGreaterThan(5);
});

describe.each(documents(ROOT).filter((file) => all.some((fence) => fence.file === file)))('%s', (file) => {
  const mine = all.filter((fence) => fence.file === file);
  const modules = mine.filter((fence) => kindOf(fence.lang) === 'module');
  const verdicts = new Map<Fence, Verdict>();

  beforeAll(() => {
    if (modules.length === 0) return;
    const slug = file.replace(/[^\w]+/g, '-');
    const jobs: Job[] = modules.map((fence) => {
      const claims = moduleClaims(fence);
      const path = join(project, `${slug}-${fence.line}.${fence.lang.startsWith('j') ? 'js' : 'ts'}`);
      writeFileSync(path, moduleSource(fence, claims) + '\n');
      return { path, claims: claims.map(({ line, expected }) => ({ line, expected })) };
    });
    const jobFile = join(WORK, `${slug}.job.json`);
    const outFile = join(WORK, `${slug}.out.json`);
    writeFileSync(jobFile, JSON.stringify(jobs));
    // From the project: `--import tsx` and the blocks' imports resolve there, as they would for a user.
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test', '_helpers', 'snippet-runner.ts'), jobFile, outFile], { cwd: project, encoding: 'utf8', timeout: 240_000 });
    if (run.status !== 0) throw new Error(`${file}: the snippet runner failed (${run.status ?? run.signal}): ${run.stderr}`);
    (JSON.parse(readFileSync(outFile, 'utf8')) as Verdict[]).forEach((verdict, i) => verdicts.set(modules[i]!, verdict));
  }, 300_000);

  test.each(mine.map((fence) => [`${where(fence)} ${fence.lang || '(no language)'}`, fence] as const))('%s', (_name, fence) => {
    switch (kindOf(fence.lang)) {
      case 'unnamed':
        throw new Error(`${where(fence)}: the fence names no language: say ts, js or sh to run it, json to check it parses, or text (or another language) for a block that is not run`);
      case 'inert':
        return;
      case 'json':
        expect(() => JSON.parse(fence.lines.join('\n')), `${where(fence)}: a json block must parse (use jsonc for one with comments)`).not.toThrow();
        return;
      case 'module': {
        const named = namedPackages(ROOT, fence);
        const unnamed = neededPackages(fence).filter((name) => !named.has(name));
        expect(unnamed, `${where(fence)}: the snippet needs ${unnamed.join(', ')}, which the text before it (from its heading) does not name: say so, e.g. \`npm install schema-coerce ${unnamed.join(' ')}\``).toEqual([]);
        const verdict = verdicts.get(fence)!;
        // The module's lines are the block's: name them by their place in the Markdown file.
        const error = verdict.error?.replace(/[^\s(]*\/project\/[^\s:/]*-(\d+)\.[jt]s:(\d+)(?::\d+)?/g, (_all, open: string, line: string) => `${fence.file}:${Number(open) + Number(line)}`);
        expect(error, `${where(fence)}: the snippet threw`).toBeUndefined();
        const stated = new Map(moduleClaims(fence).map((claim) => [claim.line, claim]));
        for (const claim of verdict.claims) {
          expect.soft(claim.ok, `${fence.file}:${claim.line}: \`${stated.get(claim.line)!.expression}\` states ${stated.get(claim.line)!.expected}, but gives ${claim.actual}`).toBe(true);
        }
        return;
      }
      case 'shell':
        for (const claim of shellClaims(fence)) {
          const run = spawnSync('bash', ['-o', 'pipefail', '-c', claim.expression], {
            cwd: ROOT,
            encoding: 'utf8',
            timeout: 60_000,
            env: { ...process.env, ROOT, PATH: `${BIN}:${process.env['PATH'] ?? ''}` },
          });
          const output = (run.stdout + run.stderr).trimEnd();
          if (claim.expected === '') expect(run.status, `${where(fence, claim.line)}: \`${claim.expression}\` failed: ${output}`).toBe(0);
          else expect(matchesText(output, claim.expected), `${where(fence, claim.line)}: \`${claim.expression}\` states\n${claim.expected}\nbut printed\n${output}`).toBe(true);
        }
    }
  });
});

test('every ts snippet type-checks as written, in the same project (strict, against the packed declarations)', () => {
  const dir = join(project, 'types');
  mkdirSync(dir, { recursive: true });
  const files = all.filter((fence) => fence.lang === 'ts' || fence.lang === 'typescript').map((fence) => {
    const name = `${fence.file.replace(/[^\w]+/g, '-')}-${fence.line}.ts`;
    // `export {}` keeps a block without imports a module of its own, as it runs.
    writeFileSync(join(dir, name), `${fence.lines.join('\n')}\nexport {};\n`);
    return [name, fence] as const;
  });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', lib: ['ES2022'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], strict: true,
      exactOptionalPropertyTypes: true, skipLibCheck: true, noEmit: true,
    },
    files: files.map(([name]) => name),
  }));
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  // tsc names a snippet's file and line: name them by their place in the Markdown file instead.
  const byName = new Map(files);
  const errors = run.stdout.replace(/^(?:.*[\\/])?([\w-]+\.ts)\((\d+),\d+\)/gm, (all, name: string, line: string) => {
    const fence = byName.get(name);
    return fence === undefined ? all : `${fence.file}:${fence.line + Number(line)}`;
  });
  expect(errors.trim(), 'the snippets do not type-check').toBe('');
  expect(run.status).toBe(0);
}, 180_000);

describe('the harness', () => {
  const fence = (lang: string, lines: string[]): Fence => ({ file: 'doc.md', line: 10, lang, lines });

  test('a result is stated by an arrow, a value after a statement, or text after a bare read; prose is not', () => {
    const claims = moduleClaims(fence('ts', ['f(1); // → 2', 'g(); // does a thing', 'const a = f(2); // 3', 'x.y; // 4', 'h();', '// → one', '// two', 'k();', '// a note']));
    expect(claims).toEqual([
      { line: 11, expression: 'f(1)', expected: '2' },
      { line: 14, expression: 'x.y', expected: '4' },
      { line: 15, expression: 'h()', expected: 'one\ntwo' },
    ]);
  });

  test('sh output is stated after a $ prompt, or as # lines after a command', () => {
    expect(shellClaims(fence('sh', ['$ a', 'out', '$ b']))).toEqual([{ line: 11, expression: 'a', expected: 'out' }, { line: 13, expression: 'b', expected: '' }]);
    expect(shellClaims(fence('sh', ['a', '# out', 'b']))).toEqual([{ line: 11, expression: 'a', expected: 'out' }, { line: 13, expression: 'b', expected: '' }]);
  });

  test('… in a stated text stands for any run of characters, and nothing else is loose', () => {
    expect(matchesText('cut off at line 2 (x)', 'cut off at … (x)')).toBe(true);
    expect(matchesText('cut off at line 2 (y)', 'cut off at … (x)')).toBe(false);
    expect(matchesText('a.c', 'abc')).toBe(false);
  });

  test('a snippet that stops matching fails at its line, with what it gives', () => {
    const path = join(WORK, 'harness-self-test.ts');
    const claimed = fence('ts', ["import { coerceArgsJson } from 'schema-coerce';", "coerceArgsJson('{\"a\":5.0}', { properties: { a: { type: 'integer' } } }); // → '{\"a\":5.0}'"]);
    const claims = moduleClaims(claimed);
    writeFileSync(path, moduleSource(claimed, claims));
    const job = join(WORK, 'harness-self-test.json');
    writeFileSync(job, JSON.stringify([{ path, claims }]));
    const out = join(WORK, 'harness-self-test.out.json');
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test', '_helpers', 'snippet-runner.ts'), job, out], { cwd: ROOT });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([{ claims: [{ line: 12, ok: false, actual: '{"a":5}' }] }]);
  }, 60_000);
});
