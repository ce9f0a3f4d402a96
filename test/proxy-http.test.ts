/**
 * `schema-coerce proxy --url`: the official SDK client on stdio → the built proxy → a Streamable
 * HTTP server built with the SDK on loopback, answering with SSE streams and with JSON bodies;
 * and the proxy in front of the pinned `mcp-remote` in front of that server. The upstream's own tests,
 * run in this process, are in http-upstream.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, runCli } from './_helpers/run.js';
import { startHttpPeer, type HttpPeer } from './peers/http-server.js';

const peers: HttpPeer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(options: Parameters<typeof startHttpPeer>[0]): Promise<HttpPeer> {
  const started = await startHttpPeer(options);
  peers.push(started);
  return started;
}

async function connect(args: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'proxy', ...args], stderr: 'pipe' });
  const client = new Client({ name: 'proxy-http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe.each([
  ['SSE', false],
  ['JSON', true],
])('proxy --url, %s responses', (_kind, json) => {
  test('model-style arguments the server rejects directly succeed through the proxy', async () => {
    const server = await peer({ json });
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    clients.push(direct);
    await direct.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const refused = await direct.callTool({ name: 'echo', arguments: { count: '3', tags: '["a","b"]', flag: 'true' } });
    expect(refused.isError).toBe(true);
    const { client } = await connect(['--lenient', '--url', server.url]);
    const result = await client.callTool({ name: 'echo', arguments: { count: '3', tags: '["a","b"]', flag: 'true' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ count: 3, tags: ['a', 'b'], flag: true });
  }, 30_000);

  test('the session id is kept, server notifications arrive on the GET stream, and DELETE ends the session', async () => {
    const server = await peer({ json });
    const { client } = await connect(['--url', server.url]);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    const result = await client.callTool({ name: 'late', arguments: { n: 2.0 } });
    expect(JSON.parse(text(result))).toEqual({ n: 2 });
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.deletes).toHaveLength(1);
  }, 30_000);
});

describe('proxy --url, bytes and headers', () => {
  test('only the argument bytes of a repaired call change; headers are sent', async () => {
    const server = await peer({ json: true, header: ['authorization', 'Bearer t0k'] });
    const child = spawn(process.execPath, [BIN, 'proxy', '--url', server.url, '--header', 'Authorization: Bearer t0k']);
    const lines: string[] = [];
    let buffered = '';
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
      waiters.splice(0).forEach((wake) => wake());
    });
    const until = async (count: number): Promise<void> => {
      while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}\n');
    await until(1);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"echo","arguments":{ "count" : 7.0, "tags":["x"] }}}';
    child.stdin.write(call + '\n');
    await until(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 2, result: { content: [{ text: '{"count":7,"tags":["x"]}' }] } });
    const posted = server.bodies.map((body) => body.toString('utf8'));
    expect(posted).toContain(call.replace('7.0', '7'));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end();
    expect(await closed).toBe(0);
    expect(server.deletes).toHaveLength(1);
  }, 30_000);

  test('a server that refuses the header: the request is answered with a JSON-RPC error', async () => {
    const server = await peer({ header: ['authorization', 'Bearer right'] });
    const child = spawn(process.execPath, [BIN, 'proxy', '--url', server.url, '--header', 'Authorization: Bearer wrong']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}\n');
    expect(await closed).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: `schema-coerce proxy: ${server.url} answered HTTP 401 Unauthorized` } });
    expect(stderr).toBe(`schema-coerce proxy: ${server.url} answered HTTP 401 Unauthorized\n`);
  }, 30_000);
});

describe.each([
  ['SSE', false],
  ['JSON', true],
])('proxy chained with mcp-remote (pinned), %s responses', (_kind, json) => {
  test('model-style arguments repaired, the session kept, server notifications relayed', async () => {
    const server = await peer({ json });
    const mcpRemote = join(dirname(createRequire(import.meta.url).resolve('mcp-remote/package.json')), 'dist', 'proxy.js');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'proxy', '--lenient', '--', process.execPath, mcpRemote, server.url, '--transport', 'http-only'],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'schema-coerce-mcp-remote-')) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'proxy-mcp-remote-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const result = await client.callTool({ name: 'echo', arguments: { count: '3', tags: '["a","b"]', flag: 'true' } });
    expect(JSON.parse(text(result))).toEqual({ count: 3, tags: ['a', 'b'], flag: true });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    expect(JSON.parse(text(await client.callTool({ name: 'late', arguments: { n: 2.0 } })))).toEqual({ n: 2 });
  }, 60_000);
});

describe('proxy --url, usage', () => {
  test.each([
    [['--url', 'ftp://127.0.0.1/mcp'], 'schema-coerce proxy: --url must be http or https, not ftp:\n'],
    [['--url', 'not a url'], 'schema-coerce proxy: --url "not a url" is not a URL\n'],
    [['--url', 'http://127.0.0.1/mcp', '--', 'node', 'server.js'], 'schema-coerce proxy: give either --url or a server command after --, not both\n'],
    [['--url', 'http://127.0.0.1/mcp', '--header', 'sk-secret-no-colon'], "schema-coerce proxy: --header number 1 must be 'Name: value' (its text is not shown: it may hold a secret)\n"],
    [['--url', 'http://alice:sk-secret@127.0.0.1/mcp'], "schema-coerce proxy: --url must not hold credentials (user:password@): fetch cannot send them; give them as --header 'Authorization: …' instead\n"],
    [['--url', 'http://alice:sk-secret@[bad/mcp?key=sk-secret'], 'schema-coerce proxy: --url "http://***@[bad/mcp?***" is not a URL\n'],
  ])('%j: exit 2 and one line', (args, stderr) => {
    expect(runCli(['proxy', ...args])).toEqual({ status: 2, stdout: '', stderr });
  });
});
