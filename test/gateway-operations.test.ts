/**
 * The gateway's operations (#41 item 6): `/healthz` and `/readyz` (a stdio server probed, a
 * `--url` server up and down, the Host guard before them, off with `health: false`), CORS for an
 * allowed browser origin (preflight with a tool's `Mcp-Param-*` header, exposed headers, none for
 * a foreign origin), and a 429 that a browser script can read. The drain through `npx`:
 * `gateway-npx-drain.test.ts`.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { GatewayOptions, GatewayUpstream } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';
import { startV2HttpPeer } from './peers/v2-http-server.js';

const STDIO_SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const ROOT = join(import.meta.dirname, '..');

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined);
});

async function gateway(upstream: GatewayUpstream, options: Partial<GatewayOptions> = {}): Promise<Gateway & { stderr: () => string }> {
  const stderr = captureStream();
  const started = await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', ...options }, stderr);
  cleanups.push(() => started.close());
  return Object.assign(started, { stderr: () => stderr.text() });
}

const stdio: GatewayUpstream = { kind: 'stdio', command: [process.execPath, STDIO_SERVER] };
const at = (url: string, path: string): string => new URL(path, url).href;
async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text() };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('/healthz and /readyz', () => {
  test('in front of a stdio server: alive, and ready once a probe process answered initialize; the answers name nothing', async () => {
    const started = await gateway(stdio);
    expect(await get(at(started.url, '/healthz'))).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(await get(at(started.url, '/readyz'))).toEqual({ status: 200, body: '{"status":"ready"}' });
    expect(started.stderr()).toBe('schema-coerce gateway: ready: "' + process.execPath + '" answered\n');
    expect((await fetch(at(started.url, '/readyz'), { method: 'POST' })).status).toBe(405);
  }, 30_000);

  test('a stdio server that cannot start, and a --url server that is down, are not ready (503); one that is up is', async () => {
    const broken = await gateway({ kind: 'stdio', command: [join(ROOT, 'no-such-server')] });
    expect(await get(at(broken.url, '/readyz'))).toEqual({ status: 503, body: '{"status":"not ready"}' });
    const port = await closedPort();
    const down = await gateway({ kind: 'url', url: new URL(`http://127.0.0.1:${port}/mcp?key=secret`), headers: { authorization: 'Bearer secret' } });
    expect(await get(at(down.url, '/readyz'))).toEqual({ status: 503, body: '{"status":"not ready"}' });
    expect(await get(at(down.url, '/healthz'))).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(down.stderr()).not.toContain('secret');
    const server = await startV2HttpPeer();
    cleanups.push(() => server.close());
    const up = await gateway({ kind: 'url', url: new URL(server.url), headers: {} });
    expect(await get(at(up.url, '/readyz'))).toEqual({ status: 200, body: '{"status":"ready"}' });
  }, 30_000);

  test('the Host guard comes first; health: false serves neither', async () => {
    const started = await gateway(stdio);
    const foreign = await new Promise<number>((resolve, reject) => {
      request(at(started.url, '/healthz'), { headers: { host: 'evil.example' } }, (answer) => resolve(answer.resume().statusCode!)).on('error', reject).end();
    });
    expect(foreign).toBe(403);
    const off = await gateway(stdio, { health: false });
    expect((await get(at(off.url, '/healthz'))).status).toBe(404);
    expect((await get(at(off.url, '/readyz'))).status).toBe(404);
  }, 30_000);
});

describe('CORS', () => {
  test('an allowed origin: its preflight names the methods and the headers asked for that the endpoint takes; answers expose the MCP headers', async () => {
    const started = await gateway(stdio, { allowedOrigins: ['https://app.example'] });
    const preflight = await fetch(started.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version, Mcp-Param-Region, x-evil' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'mcp-protocol-version', 'mcp-session-id', 'authorization', 'mcp-param-region']));
    expect(allowed).not.toContain('x-evil');
    const post = await fetch(started.url, { method: 'POST', headers: { origin: 'https://app.example', 'content-type': 'application/json', accept: 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}' });
    expect(post.status).toBe(200);
    expect(post.headers.get('access-control-expose-headers')).toBe('mcp-session-id, mcp-protocol-version, www-authenticate, retry-after');
    expect(post.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
  }, 30_000);

  test('a foreign origin gets 403 and no CORS header, preflight or not', async () => {
    const started = await gateway(stdio, { allowedOrigins: ['https://app.example'] });
    for (const method of ['OPTIONS', 'POST']) {
      const answer = await fetch(started.url, { method, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    }
  }, 30_000);

  test('a 429 carries the CORS headers, so a browser script can read its Retry-After', async () => {
    const started = await gateway(stdio, { rateLimits: { caller: '1/h' } });
    const ask = () => fetch(started.url, { method: 'DELETE', headers: { origin: 'http://localhost:5173' } });
    expect((await ask()).status).toBe(400);
    const limited = await ask();
    expect([limited.status, limited.headers.get('access-control-allow-origin'), limited.headers.get('retry-after')]).toEqual([429, 'http://localhost:5173', '3600']);
  }, 30_000);
});
