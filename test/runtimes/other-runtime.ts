/**
 * The checks Deno and Bun each pass, in that runtime, against the built package imported by name:
 * the fixture tables (each row's outcome equal to Node's), the MCP adapters and the proxy with
 * the real SDK over stdio, and the CLI. The binaries are the official ones from the npm registry
 * (`deno`, `bun` devDependencies).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { loadTables, nodeOutcomes, ROOT, type RowOutcome } from './tables.js';

const run = promisify(execFile);

/** How to run a script in one runtime: the binary, then the arguments before the script's path. */
export interface Runtime {
  readonly name: string;
  /** The runtime's own version line, e.g. `deno 2.9.6`. */
  readonly version: string;
  /** The library as a user runs it there (the README's command), e.g. `['deno', 'run']`. */
  readonly library: readonly string[];
  /** The CLI, the proxy and the MCP scripts (which start processes), e.g. `['deno', 'run', '-A']`. */
  readonly all: readonly string[];
}

const here = (name: string) => join(import.meta.dirname, name);
const CLI = join(ROOT, 'dist', 'cli.js');
const QUICK_START = ['--schema', join(ROOT, 'examples', 'get_symbol_info.schema.json'), '{"line":5.0,"column":1.0,"filePath":"server.go"}'];

/** The runtime's binary in `node_modules/.bin`. */
export const binary = (name: string): string => join(ROOT, 'node_modules', '.bin', name);

/** The runtime suite for `runtime`: the fixture tables, MCP over stdio with the proxy, the CLI. */
export function describeRuntime(runtime: Runtime): void {
  const [command, ...prefix] = runtime.library;
  const [allCommand, ...allPrefix] = runtime.all;

  describe(runtime.name, () => {
    test('is the runtime named, not Node', async () => {
      const { stdout } = await run(command!, ['--version']);
      expect(stdout).toContain(runtime.version);
    });

    test('every fixture row has the same outcome as in Node', async () => {
      const tables = loadTables();
      const child = run(command!, [...prefix, here('fixture-check.mjs')], { cwd: ROOT, maxBuffer: 64 << 20 });
      child.child.stdin!.end(JSON.stringify(tables));
      const rows = JSON.parse((await child).stdout) as RowOutcome[];
      const inNode = await nodeOutcomes(tables);
      expect(rows.length).toBe(inNode.length);
      inNode.forEach((row, i) => expect(rows[i], `${row.file}: ${row.name}`).toStrictEqual(row));
    });

    test('MCP: the server and client adapters and the proxy repair "7" to 7 for a strict server', async () => {
      const { stdout } = await run(allCommand!, [...allPrefix, here('mcp-check.mjs'), JSON.stringify(runtime.all)], { cwd: ROOT });
      const calls = Object.fromEntries(stdout.trim().split('\n').map((line) => {
        const { name, ...result } = JSON.parse(line) as { name: string; isError: boolean; text: string };
        return [name, result];
      }));
      const repaired = { isError: false, text: '{"line":7,"filePath":"a.go"}' };
      expect(calls).toEqual({
        server: repaired,
        client: repaired,
        proxy: repaired,
        unrepaired: { isError: true, text: expect.stringContaining('expected number, received string') },
      });
    });

    test('CLI: the quick start prints the repaired arguments', async () => {
      const { stdout } = await run(allCommand!, [...allPrefix, CLI, ...QUICK_START], { cwd: ROOT });
      expect(stdout.trim()).toBe('{"line":5,"column":1,"filePath":"server.go"}');
    });

    test('CLI: text that is not JSON exits 2 with the position named, no stack trace', async () => {
      const failed = await run(allCommand!, [...allPrefix, CLI, '--schema', '{"type":"object"}', '{"line":5.0,'], { cwd: ROOT }).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(2);
      expect(failed?.stdout).toBe('');
      expect(failed?.stderr).toMatch(/cut off|position|column/);
      expect(failed?.stderr).not.toMatch(/\n\s+at /);
    });
  });
}
