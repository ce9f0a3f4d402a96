/**
 * Real clients of `schema-coerce gateway` besides the SDK's: the MCP Inspector CLI in HTTP mode
 * (pinned `@modelcontextprotocol/inspector-cli`, `--transport http`) and `mcp-remote` (pinned, a
 * stdio client that speaks Streamable HTTP to the gateway), each against the strict stdio server
 * and against a Streamable HTTP upstream built with the SDK (`--url`; zod refuses `"7"` directly).
 * The Inspector converts a top-level string argument itself against the schema it lists (its
 * `--tool-arg line="7"` goes out as 7), so its test shows the gateway serving it over HTTP, the
 * listing and the call; mcp-remote sends "7" as it is, and the gateway repairs it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { startGatewayProcess, stopGateways, STRICT_SERVER } from './_helpers/gateway.js';
import { startHttpPeer } from './peers/http-server.js';

const run = promisify(execFile);
const resolve = createRequire(import.meta.url).resolve;
const INSPECTOR = join(dirname(resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');
const MCP_REMOTE = join(dirname(resolve('mcp-remote/package.json')), 'dist', 'proxy.js');

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
  await stopGateways();
});

/** The gateway in front of the strict stdio server, or of an SDK Streamable HTTP server. */
async function gatewayFor(upstream: 'stdio' | 'url'): Promise<{ url: string; tool: string; args: (value: string) => Record<string, unknown>; expected: string }> {
  if (upstream === 'stdio') {
    const gateway = await startGatewayProcess(['--lenient', '--', 'python3', STRICT_SERVER]);
    return { url: gateway.url, tool: 'get_symbol_info', args: (value) => ({ line: value, filePath: 'a.ts' }), expected: '{"line":"int:7","filePath":"a.ts"}' };
  }
  const peer = await startHttpPeer({ json: false });
  cleanups.push(() => peer.close());
  const gateway = await startGatewayProcess(['--lenient', '--url', peer.url]);
  return { url: gateway.url, tool: 'echo', args: (value) => ({ count: value }), expected: '{"count":7}' };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe.each(['stdio', 'url'] as const)('real clients, the gateway in front of a %s server', (upstream) => {
  test('the MCP Inspector CLI over HTTP lists through the gateway and calls: "7" arrives as 7', async () => {
    const { url, tool, args, expected } = await gatewayFor(upstream);
    const toolArgs = Object.entries(args('"7"')).map(([key, value]) => `${key}=${value}`);
    // Its own name and version are read from `../package.json`, checked against the working folder
    // but imported beside the module: it runs in its build folder, where both are the same file.
    const { stdout } = await run(process.execPath, [INSPECTOR, url, '--transport', 'http', '--method', 'tools/call', '--tool-name', tool, '--tool-arg', ...toolArgs], { timeout: 30_000, cwd: dirname(INSPECTOR) });
    const result = JSON.parse(stdout) as { isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual(JSON.parse(expected));
  }, 60_000);

  test('mcp-remote as a stdio client: "7" and 7.0 for an integer arrive as 7', async () => {
    const { url, tool, args, expected } = await gatewayFor(upstream);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, url, '--transport', 'http-only'],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'schema-coerce-mcp-remote-')) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'gateway-clients-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    for (const value of ['7', 7.0]) {
      const argsOf = args('') as Record<string, unknown>;
      const key = Object.keys(argsOf)[0]!;
      const result = await client.callTool({ name: tool, arguments: { ...argsOf, [key]: value } });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(text(result))).toEqual(JSON.parse(expected));
    }
  }, 60_000);
});
