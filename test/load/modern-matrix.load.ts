/**
 * The matrix of both protocol eras (`npm run test:load`, not `npm test`: about 70 connections,
 * each a server process or two): SDK v2 clients pinned to 2026-07-28, negotiating (`auto`) and on
 * the 2025 handshake, and SDK v1 clients, against SDK v2 servers over Streamable HTTP
 * (`createMcpHandler`, both eras) and stdio (`serveStdio`, both eras) and an SDK v1 Streamable
 * HTTP server (sessions), each directly, through the built proxy (`--url`, or `--` and the
 * command) and through the gateway (`--url`, or a process per session or request).
 *
 * The 2025-era clients of the other tests, the MCP Inspector CLI (HTTP) and `mcp-remote` (a stdio
 * client of an HTTP server), go through the gateway (and mcp-remote also through the proxy) to
 * the v2 HTTP server.
 *
 * For every cell: the client connects through a route exactly when it connects directly, in the
 * same era; and through the proxy and the gateway, `"7"` and `7.0` for an integer arrive as `7`
 * where the server refuses `"7"` directly.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startGateway, type Gateway } from '../../src/adapters/gateway/run.js';
import { captureStream } from '../_helpers/gateway.js';
import { connect, isErrorResult, proxyCommand, textOf, V2_STDIO, type AnyClient, type ClientKind } from '../_helpers/modern.js';
import { startHttpPeer } from '../peers/http-server.js';
import { startV2HttpPeer } from '../peers/v2-http-server.js';

/** A server under test: how a client reaches it directly, and what the proxy and the gateway are given. */
interface Server {
  readonly name: string;
  /** A URL, or a command line. */
  readonly target: string | readonly string[];
  close(): Promise<unknown>;
}

const CLIENTS: readonly ClientKind[] = ['v2-pin', 'v2-auto', 'v2-legacy', 'v1'];
const servers: Server[] = [];
const gateways = new Map<string, Gateway>();

beforeAll(async () => {
  const v2 = await startV2HttpPeer();
  const v1 = await startHttpPeer();
  servers.push({ name: 'SDK v2 createMcpHandler', target: v2.url, close: () => v2.close() });
  servers.push({ name: 'SDK v2 serveStdio', target: V2_STDIO, close: async () => undefined });
  servers.push({ name: 'SDK v1 Streamable HTTP (sessions)', target: v1.url, close: () => v1.close() });
  for (const server of servers) {
    const upstream = typeof server.target === 'string' ? { kind: 'url' as const, url: new URL(server.target), headers: {} } : { kind: 'stdio' as const, command: server.target };
    gateways.set(server.name, await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true }, captureStream()));
  }
});

afterAll(async () => {
  for (const gateway of gateways.values()) await gateway.close();
  for (const server of servers) await server.close();
});

/** Connects, or resolves with the error's message. */
async function attempt(kind: ClientKind, target: string | readonly string[]): Promise<AnyClient | string> {
  try {
    return await connect(kind, target);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const SERVER_NAMES = ['SDK v2 createMcpHandler', 'SDK v2 serveStdio', 'SDK v1 Streamable HTTP (sessions)'];

describe.each(SERVER_NAMES)('%s', (serverName) => {
  test.each(CLIENTS)('client %s: directly, through the proxy and through the gateway', async (kind) => {
    const server = servers.find(({ name }) => name === serverName)!;
    const routes: [route: string, target: string | readonly string[]][] = [
      ['proxy', proxyCommand(['--lenient'], typeof server.target === 'string' ? ['--url', server.target] : ['--', ...server.target])],
      ['gateway', gateways.get(serverName)!.url],
    ];
    const direct = await attempt(kind, server.target);
    try {
      for (const [route, target] of routes) {
        const through = await attempt(kind, target);
        try {
          // The same outcome as directly: connected in the same era, or refused alike.
          expect(typeof through === 'string' ? 'refused' : through.version, `${route}: ${typeof through === 'string' ? through : ''}`).toBe(typeof direct === 'string' ? 'refused' : direct.version);
          if (typeof through === 'string') continue;
          expect(textOf(await through.callTool({ name: 'echo', arguments: { count: '7', tags: ['a'] } })), route).toBe('{"count":7,"tags":["a"]}');
          expect(textOf(await through.callTool({ name: 'echo', arguments: { count: 7.0 } })), route).toBe('{"count":7}');
        } finally {
          if (typeof through !== 'string') await through.close();
        }
      }
      if (typeof direct !== 'string') expect(isErrorResult(await direct.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(true);
    } finally {
      if (typeof direct !== 'string') await direct.close();
    }
  });
});

const run = promisify(execFile);
const resolve = createRequire(import.meta.url).resolve;
const INSPECTOR = join(dirname(resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');
const MCP_REMOTE = join(dirname(resolve('mcp-remote/package.json')), 'dist', 'proxy.js');

describe('2025-era clients of the other tests, to the SDK v2 HTTP server', () => {
  test('the MCP Inspector CLI over HTTP through the gateway: listing and call', async () => {
    const url = gateways.get('SDK v2 createMcpHandler')!.url;
    // It reads its own package.json relative to the working folder: it runs in its build folder.
    const { stdout } = await run(process.execPath, [INSPECTOR, url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'count=7'], { timeout: 30_000, cwd: dirname(INSPECTOR) });
    expect(textOf(JSON.parse(stdout))).toBe('{"count":7}');
  });

  test('mcp-remote through the gateway, and through the proxy in front of mcp-remote: "7" arrives as 7', async () => {
    const server = servers.find(({ name }) => name === 'SDK v2 createMcpHandler')!;
    const remote = (url: string): string[] => [process.execPath, MCP_REMOTE, url, '--transport', 'http-only'];
    for (const command of [remote(gateways.get(server.name)!.url), proxyCommand(['--lenient'], ['--', ...remote(server.target as string)])]) {
      const client = new Client({ name: 'modern-matrix-mcp-remote', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: command[0]!, args: command.slice(1), env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'schema-coerce-mcp-remote-')) }, stderr: 'pipe' }));
      try {
        expect(textOf(await client.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe('{"count":7}');
      } finally {
        await client.close();
      }
    }
  });
});
