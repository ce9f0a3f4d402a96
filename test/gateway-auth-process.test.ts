/**
 * Auth through the built `schema-coerce gateway`: `--auth-tokens` with an SDK client, the upstream
 * credential from `--header-env` (never on the command line, never the client's token), the
 * audit log on stdout naming the subject; the same from `--config`; a bad token list or a bad
 * flag refused at start (exit 2, by name, no token); and the clients of the full install that can
 * send a header: `mcp-remote` (`--header`, its value from the environment) and the Inspector CLI
 * (`--header`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { rawRequest, startGatewayProcess, stopGateways, STRICT_SERVER } from './_helpers/gateway.js';
import { runCli } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startHttpPeer, type HttpPeer } from './peers/http-server.js';

const run = promisify(execFile);
const resolve = createRequire(import.meta.url).resolve;

const TOKEN = 'ci-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const UPSTREAM = 'Bearer upstream-7a6b5c4d3e2f1a0b';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
  await stopGateways();
});
afterAll(removeTempDirs);

function tokenFile(entries: unknown = [{ token: TOKEN, subject: 'ci-bot', scopes: ['tools:read'] }]): string {
  const file = join(makeTempDir('auth-process-'), 'tokens.json');
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

async function peer(): Promise<HttpPeer> {
  const started = await startHttpPeer({ header: ['authorization', UPSTREAM] });
  cleanups.push(() => started.close());
  return started;
}

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'auth-process', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  cleanups.push(() => client.close());
  return client;
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe('the built gateway with --auth-tokens', () => {
  test('an SDK client calls through; the upstream gets the --header-env credential, not the token; the audit names the subject', async () => {
    const server = await peer();
    const gateway = await startGatewayProcess(['--lenient', '--verbose', '--auth-tokens', tokenFile(), '--header-env', 'Authorization: UPSTREAM_AUTH', '--audit', '-', '--url', server.url], { UPSTREAM_AUTH: UPSTREAM });
    expect(gateway.child.spawnargs.join(' ')).not.toContain(UPSTREAM);
    let stdout = '';
    gateway.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const client = await sdkClient(gateway.url);
    expect(text(await client.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe('{"count":7}');
    for (const head of server.heads) expect(head.authorization).toBe(UPSTREAM);
    await client.close();
    await gateway.stop();
    expect((JSON.parse(stdout.trim().split('\n').at(-1)!) as { client: { subject: string } }).client.subject).toBe('ci-bot');
    for (const output of [stdout, gateway.stderr()]) {
      expect(output).not.toContain(TOKEN);
      expect(output).not.toContain('upstream-7a6b5c4d3e2f1a0b');
    }
  });

  test('the auth keys of a --config file', async () => {
    const config = join(makeTempDir('auth-config-'), 'gateway.json');
    writeFileSync(config, JSON.stringify({ lenient: true, 'auth-tokens': tokenFile(), 'auth-scope': ['tools:read'], 'auth-server': ['https://as.example'], 'tool-scope': ['calls=tools:admin'] }));
    const gateway = await startGatewayProcess(['--config', config, '--', 'python3', STRICT_SERVER]);
    expect((await rawRequest(gateway.url, { headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' })).status).toBe(401);
    const document = await rawRequest(`${new URL(gateway.url).origin}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(JSON.parse(document.body)).toEqual({ resource: gateway.url, authorization_servers: ['https://as.example/'], scopes_supported: ['tools:read', 'tools:admin'], bearer_methods_supported: ['header'] });
    const client = await sdkClient(gateway.url);
    // The token grants tools:read, not the tools:admin the policy asks of `calls`.
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('calls');
    expect(JSON.parse(text(await client.callTool({ name: 'get_symbol_info', arguments: { line: '7', filePath: 'a.ts' } })))).toEqual({ line: 'int:7', filePath: 'a.ts' });
  });

  test.each<[string, string[], string]>([
    ['a token list entry without a subject', ['--auth-tokens', '<bad list>'], '/0/subject must be a non-empty string'],
    ['a missing token list', ['--auth-tokens', '/nonexistent/tokens.json'], '--auth-tokens /nonexistent/tokens.json: cannot read the file (ENOENT)'],
    ['--forward-authorization alone', ['--forward-authorization'], '--forward-authorization needs --auth-tokens <file> or --auth-jwks <url>'],
    ['--header-env without its variable', ['--header-env', 'Authorization: NOT_SET_ANYWHERE', '--url', 'http://127.0.0.1:9/mcp'], '--header-env number 1 (Authorization): the environment variable "NOT_SET_ANYWHERE" is not set'],
  ])('%s: exit 2, named', (_name, flags, message) => {
    const args = flags.map((flag) => (flag === '<bad list>' ? tokenFile([{ token: TOKEN, subject: '', scopes: [] }]) : flag));
    const result = runCli(['gateway', '--listen', '127.0.0.1:0', ...args, ...(args.includes('--url') ? [] : ['--', 'python3', STRICT_SERVER])]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain(TOKEN);
  });
});

describe('clients of the full install that send a header', () => {
  test('mcp-remote with --header, its value from the environment', async () => {
    const remote = join(dirname(resolve('mcp-remote/package.json')), 'dist', 'proxy.js');
    const gateway = await startGatewayProcess(['--lenient', '--auth-tokens', tokenFile(), '--', 'python3', STRICT_SERVER]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [remote, gateway.url, '--transport', 'http-only', '--header', 'Authorization:${GATEWAY_AUTH}'],
      env: { ...(process.env as Record<string, string>), GATEWAY_AUTH: `Bearer ${TOKEN}`, MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'schema-coerce-mcp-remote-')) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'auth-mcp-remote', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(JSON.parse(text(await client.callTool({ name: 'get_symbol_info', arguments: { line: '7', filePath: 'a.ts' } })))).toEqual({ line: 'int:7', filePath: 'a.ts' });
  }, 60_000);

  test('the Inspector CLI with --header; without it, the 401 is its error', async () => {
    const inspector = join(dirname(resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');
    const gateway = await startGatewayProcess(['--lenient', '--auth-tokens', tokenFile(), '--', 'python3', STRICT_SERVER]);
    const args = [inspector, gateway.url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'get_symbol_info', '--tool-arg', 'line=7', 'filePath=a.ts'];
    const { stdout } = await run(process.execPath, [...args, '--header', `Authorization: Bearer ${TOKEN}`], { timeout: 30_000, cwd: dirname(inspector) });
    expect(JSON.parse(text(JSON.parse(stdout)))).toEqual({ line: 'int:7', filePath: 'a.ts' });
    const refused = await run(process.execPath, args, { timeout: 30_000, cwd: dirname(inspector) }).catch((error: { stderr: string; code: number }) => error);
    expect('code' in refused && refused.code).not.toBe(0);
  }, 60_000);
});
