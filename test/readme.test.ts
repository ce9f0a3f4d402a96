import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from 'vitest';
import { DOC, END, START, peerTable } from '../scripts/peer-table.js';
import { BIN, ROOT } from './_helpers/run.js';
import { fences } from './_helpers/snippets.js';

// The README's and docs' code snippets are run by test/snippets.test.ts.
test('the peer table (docs/REPAIRS.md) is what the real packages do today', () => {
  const doc = readFileSync(DOC, 'utf8');
  const block = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
  expect(block).toBe(peerTable());
});

const FILESYSTEM = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist', 'index.js');

/** One server entry of a client configuration, as the README shows it. */
interface Entry { readonly command: string; readonly args: readonly string[] }

/** The README's client configurations ("Use it with your MCP client"), each server entry by its fence's line. */
function configurations(): { line: number; entry: Entry }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const start = readme.indexOf('## Use it with your MCP client') + 1;
  const end = readme.findIndex((line, i) => i >= start && line.startsWith('## '));
  return fences(ROOT, 'README.md')
    .filter((fence) => fence.lang === 'json' && fence.line > start && fence.line < end)
    .flatMap((fence) => {
      const config = JSON.parse(fence.lines.join('\n')) as { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry> };
      return Object.values(config.mcpServers ?? config.servers ?? {}).map((entry) => ({ line: fence.line, entry }));
    });
}

/**
 * `npx -y <package> args…` as this checkout runs it: schema-coerce is the built bin, the
 * filesystem server the pinned dev dependency, and the server command after `--` is resolved too.
 */
function resolveNpx(args: readonly string[], project: string): string[] {
  const [name, ...rest] = args[0] === '-y' ? args.slice(1) : args;
  const place = (arg: string) => (arg === '/path/to/project' || arg === '${workspaceFolder}' ? project : arg);
  if (name === '@modelcontextprotocol/server-filesystem') return [FILESYSTEM, ...rest.map(place)];
  if (name !== 'schema-coerce') throw new Error(`the README's configuration runs npx ${name}, which this test cannot resolve`);
  const split = rest.indexOf('--');
  const server = rest.slice(split + 1);
  if (split === -1 || server[0] !== 'npx') throw new Error('the proxy configuration should end in -- npx <server>');
  return [BIN, ...rest.slice(0, split + 1), process.execPath, ...resolveNpx(server.slice(1), project)];
}

test('the README\'s client configurations run: the server alone refuses {"head": "2"}, behind the proxy it reads two lines', async () => {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'schema-coerce-readme-')));
  writeFileSync(join(project, 'a.txt'), 'one\ntwo\nthree\n');
  const found = configurations();
  expect(found.map(({ entry }) => entry.args.includes('proxy'))).toEqual([false, true, true]);
  for (const { line, entry } of found) {
    expect(entry.command, `README.md:${line}`).toBe('npx');
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: resolveNpx(entry.args, project), stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'read_text_file', arguments: { path: join(project, 'a.txt'), head: '2' } });
      if (entry.args.includes('proxy')) expect(result, `README.md:${line}`).toMatchObject({ content: [{ type: 'text', text: 'one\ntwo' }] });
      else expect(result.isError, `README.md:${line}`).toBe(true);
    } finally {
      await client.close();
    }
  }
}, 120_000);
