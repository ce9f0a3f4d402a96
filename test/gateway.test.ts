/**
 * `schema-coerce gateway` in front of a stdio server: the SDK's Streamable HTTP client (SSE and
 * JSON answers), and the pinned `mcp-remote` as a stdio client, → the built gateway → the strict
 * Python server, one process per session.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { startGatewayProcess, stopGateways, STRICT_SERVER } from './_helpers/gateway.js';
import { runCli } from './_helpers/run.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await stopGateways();
});

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe.each([
  ['SSE', []],
  ['JSON', ['--json-response']],
])('gateway -- python3 strict_server.py, %s answers', (_kind, flags) => {
  test('"7" and 7.0 for an integer arrive as 7; list_changed is followed', async () => {
    const gateway = await startGatewayProcess([...flags, '--lenient', '--', 'python3', STRICT_SERVER]);
    const { client } = await connect(gateway.url);
    const result = await client.callTool({ name: 'get_symbol_info', arguments: { line: '7', column: 7.0, filePath: 'a.ts' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ line: 'int:7', column: 'int:7', filePath: 'a.ts' });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    const late = await client.callTool({ name: 'late_tool', arguments: { count: 2.0 } });
    expect(JSON.parse(text(late))).toEqual({ count: 'int:2' });
  }, 30_000);
});

test('mcp-remote (pinned) as a stdio client of the gateway: the call is repaired, list_changed relayed', async () => {
  const gateway = await startGatewayProcess(['--lenient', '--', 'python3', STRICT_SERVER]);
  const mcpRemote = join(dirname(createRequire(import.meta.url).resolve('mcp-remote/package.json')), 'dist', 'proxy.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [mcpRemote, gateway.url, '--transport', 'http-only'],
    env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'schema-coerce-mcp-remote-')) },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'gateway-mcp-remote-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  const result = await client.callTool({ name: 'get_symbol_info', arguments: { line: '7', column: 7.0, filePath: 'a.ts' } });
  expect(JSON.parse(text(result))).toEqual({ line: 'int:7', column: 'int:7', filePath: 'a.ts' });
  const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
  await client.callTool({ name: 'add_tool', arguments: {} });
  await changed;
  expect(JSON.parse(text(await client.callTool({ name: 'late_tool', arguments: { count: '2' } })))).toEqual({ count: 'int:2' });
}, 60_000);

test('SIGTERM: the gateway says so, ends its sessions and exits 0', async () => {
  const gateway = await startGatewayProcess(['--', 'python3', STRICT_SERVER]);
  const { client } = await connect(gateway.url);
  expect(JSON.parse(text(await client.callTool({ name: 'get_symbol_info', arguments: { line: 1, filePath: 'a' } })))).toEqual({ line: 'int:1', filePath: 'a' });
  expect(await gateway.stop('SIGTERM')).toBe(0);
  expect(gateway.stderr()).toMatch(/^schema-coerce gateway: listening on http:\/\/127\.0\.0\.1:\d+\/mcp, in front of "python3", a process per session\nschema-coerce gateway: SIGTERM: finishing the calls in flight\n$/);
}, 30_000);

test.each([
  [['gateway', '--', 'python3', 'server.py'], '--listen <host:port> is required, e.g. --listen 127.0.0.1:8808'],
  [['gateway', '--listen', '127.0.0.1:8808'], 'give --url <url> or the server command after --, e.g. schema-coerce gateway --listen 127.0.0.1:8808 -- node server.js'],
  [['gateway', '--listen', 'localhost', '--', 'x'], '--listen "localhost" must be host:port'],
  [['gateway', '--listen', '127.0.0.1:70000', '--', 'x'], '--listen "127.0.0.1:70000" must be host:port'],
  [['gateway', '--listen', '127.0.0.1:0', '--path', 'mcp', '--', 'x'], '--path "mcp" must start with /'],
  [['gateway', '--listen', '127.0.0.1:0', '--max-body', '1k', '--', 'x'], '--max-body must be a positive whole number, not "1k"'],
  [['gateway', '--listen', '127.0.0.1:0', '--url', 'http://127.0.0.1:1/mcp', '--', 'x'], 'give either --url or a server command after --, not both'],
  [['gateway', '--listen', '127.0.0.1:0', '--url', 'http://u:p@127.0.0.1:1/mcp'], "--url must not hold credentials (user:password@): fetch cannot send them; give them as --header 'Authorization: …' instead"],
])('schema-coerce %j: exit 2, one line naming the problem', (args, message) => {
  const run = runCli(args);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(`schema-coerce gateway: ${message}\n`);
});
