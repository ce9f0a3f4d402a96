/**
 * Real MCP servers from npm (pinned dev dependencies: the reference filesystem and everything
 * servers) behind the built proxy, called by the official SDK client with the arguments models
 * really send: numbers and booleans as strings, arrays as JSON text. Each call is first made
 * directly, where the server refuses it, then through `schema-coerce proxy --lenient`.
 */
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIN } from './_helpers/run.js';

const require = createRequire(import.meta.url);
const serverMain = (name: string): string => join(dirname(require.resolve(`${name}/package.json`)), 'dist', 'index.js');
const FILESYSTEM = serverMain('@modelcontextprotocol/server-filesystem');
const EVERYTHING = serverMain('@modelcontextprotocol/server-everything');

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

/** An SDK client on `server`, directly or through the proxy. */
async function connect(server: string[], proxied: boolean): Promise<Client> {
  const args = proxied ? [BIN, 'proxy', '--lenient', '--', process.execPath, ...server] : server;
  const client = new Client({ name: 'proxy-servers-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const texts = (result: unknown): string[] => (result as { content: { type: string; text?: string }[] }).content.map((part) => part.text ?? `<${part.type}>`);

let root = '';
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'schema-coerce-fs-')));
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(root, 'b.txt'), 'bee\n');
});

describe('@modelcontextprotocol/server-filesystem', () => {
  const server = (): string[] => [FILESYSTEM, root];

  test('read_text_file with head: "2"', async () => {
    const call = { name: 'read_text_file', arguments: { path: join(root, 'a.txt'), head: '2' } };
    expect((await (await connect(server(), false)).callTool(call)).isError).toBe(true);
    const result = await (await connect(server(), true)).callTool(call);
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toEqual(['one\ntwo']);
  }, 30_000);

  test('read_multiple_files with paths as JSON text', async () => {
    const call = { name: 'read_multiple_files', arguments: { paths: JSON.stringify([join(root, 'a.txt'), join(root, 'b.txt')]) } };
    expect((await (await connect(server(), false)).callTool(call)).isError).toBe(true);
    const result = await (await connect(server(), true)).callTool(call);
    expect(result.isError).toBeFalsy();
    expect(texts(result)[0]).toContain('bee');
    expect(texts(result)[0]).toContain('three');
  }, 30_000);

  test('edit_file with edits as JSON text and dryRun: "true": a diff, and the file unchanged', async () => {
    const call = { name: 'edit_file', arguments: { path: join(root, 'b.txt'), edits: '[{"oldText":"bee","newText":"wasp"}]', dryRun: 'true' } };
    expect((await (await connect(server(), false)).callTool(call)).isError).toBe(true);
    const result = await (await connect(server(), true)).callTool(call);
    expect(result.isError).toBeFalsy();
    expect(texts(result)[0]).toContain('+wasp');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('bee\n');
  }, 30_000);
});

describe('@modelcontextprotocol/server-everything', () => {
  const server = [EVERYTHING, 'stdio'];

  test('get-sum with a: "2", b: "3"', async () => {
    const call = { name: 'get-sum', arguments: { a: '2', b: '3' } };
    expect((await (await connect(server, false)).callTool(call)).isError).toBe(true);
    const result = await (await connect(server, true)).callTool(call);
    expect(result.isError).toBeFalsy();
    expect(texts(result).join(' ')).toContain('5');
  }, 30_000);

  test('get-annotated-message with includeImage: "true"', async () => {
    const call = { name: 'get-annotated-message', arguments: { messageType: 'success', includeImage: 'true' } };
    expect((await (await connect(server, false)).callTool(call)).isError).toBe(true);
    const result = await (await connect(server, true)).callTool(call);
    expect(result.isError).toBeFalsy();
    expect(texts(result)).toContain('<image>');
  }, 30_000);
});
