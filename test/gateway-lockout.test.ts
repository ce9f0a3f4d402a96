/**
 * No client locks the others out of a stdio gateway. Sessions that are abandoned (never
 * DELETEd, as plain MCP Inspector CLI runs leave them) no longer fill the cap: past it the least
 * recently used session with nothing in flight is ended to make room; a client past its own bound
 * makes room from its own sessions only; a session never used after its `initialize` is ended
 * much sooner than one in use; only when every session has a call waiting or a stream open is a
 * new one refused, `503` with `Retry-After`. Clients on other addresses are `127.0.0.x` (all
 * loopback). Before, 64 abandoned sessions got every other client 503 for 15 minutes.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import type { GatewayLimits } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { captureStream, initializeBody, openRequest, POST_HEADERS, rawRequest, startGatewayProcess, stopGateways } from './_helpers/gateway.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');
const run = promisify(execFile);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
  await stopGateways();
});

async function gateway(limits: Partial<GatewayLimits>, stderr = captureStream()): Promise<Gateway> {
  const started = await startGateway({ kind: 'stdio', command: [process.execPath, SERVER] }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse: true, limits }, stderr);
  cleanups.push(() => started.close());
  return started;
}

/** Opens a session from `from` (initialize only); resolves with its id, or the refusal. */
async function open(url: string, from: string): Promise<{ id?: string; status: number; retryAfter?: string; body: string }> {
  const answer = await rawRequest(url, { headers: POST_HEADERS, body: initializeBody(`from-${from}`), from });
  return { status: answer.status, body: answer.body, ...(typeof answer.headers['mcp-session-id'] === 'string' ? { id: answer.headers['mcp-session-id'] } : {}), ...(typeof answer.headers['retry-after'] === 'string' ? { retryAfter: answer.headers['retry-after'] } : {}) };
}

/** Calls `echo` on session `id` from `from`: the HTTP status. */
async function use(url: string, id: string, from: string, n = 1): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { n } } });
  return (await rawRequest(url, { headers: { ...POST_HEADERS, 'mcp-session-id': id }, body, from })).status;
}

describe('no lockout', () => {
  test('plain MCP Inspector CLI runs, which never end their sessions, no longer fill the cap: each run and the next client are served', async () => {
    const started = await startGatewayProcess(['--max-sessions', '2', '--', process.execPath, SERVER]);
    for (let runs = 0; runs < 4; runs++) {
      const { stdout } = await run(process.execPath, [INSPECTOR, started.url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', `n=${runs}`], { timeout: 30_000, cwd: dirname(INSPECTOR) });
      expect(JSON.parse(stdout)).toMatchObject({ content: [{ text: `n:${runs}` }] });
    }
    const client = new Client({ name: 'gateway-lockout-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
    cleanups.push(() => client.close());
    expect(await client.callTool({ name: 'echo', arguments: { n: 9 } })).toMatchObject({ content: [{ text: 'n:9' }] });
    expect(started.stderr()).toContain('schema-coerce gateway: ended the least recently used idle session to make room (the limit of 2 sessions is reached)');
  }, 120_000);

  test('a client past its own bound makes room from its own sessions only: another client’s older sessions are kept', async () => {
    const stderr = captureStream();
    const started = await gateway({ maxSessions: 6, maxSessionsPerClient: 2 }, stderr);
    const kept = [await open(started.url, '127.0.0.2'), await open(started.url, '127.0.0.2')];
    const flood: { id?: string; status: number }[] = [];
    for (let i = 0; i < 8; i++) flood.push(await open(started.url, '127.0.0.3'));
    expect(flood.map((opened) => opened.status)).toEqual(Array(8).fill(200));
    for (const session of kept) expect(await use(started.url, session.id!, '127.0.0.2')).toBe(200);
    // The flood's own oldest were ended; its two newest are open.
    expect(await Promise.all(flood.map((opened) => use(started.url, opened.id!, '127.0.0.3')))).toEqual([...Array(6).fill(404), 200, 200]);
    expect(stderr.text()).toContain('schema-coerce gateway: ended the least recently used idle session to make room (127.0.0.3 is at the limit of 2 sessions per client)');
  }, 60_000);

  test('past the cap the least recently used idle session makes room, whatever its client', async () => {
    const started = await gateway({ maxSessions: 3, maxSessionsPerClient: 3 });
    const [a, b, c] = [await open(started.url, '127.0.0.2'), await open(started.url, '127.0.0.3'), await open(started.url, '127.0.0.4')];
    expect(await use(started.url, a.id!, '127.0.0.2')).toBe(200);
    expect((await open(started.url, '127.0.0.5')).status).toBe(200);
    expect([await use(started.url, a.id!, '127.0.0.2'), await use(started.url, b.id!, '127.0.0.3'), await use(started.url, c.id!, '127.0.0.4')]).toEqual([200, 404, 200]);
  }, 60_000);

  test('sessions with a call waiting or a stream open are kept: a new one is refused 503 with Retry-After, until one is free', async () => {
    const started = await gateway({ maxSessions: 2, callTimeoutMs: 5_000, idleMs: 30_000 });
    const [busy, listening] = await Promise.all([open(started.url, '127.0.0.2'), open(started.url, '127.0.0.3')]);
    const stream = await openRequest(started.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': listening.id! }, from: '127.0.0.3' });
    cleanups.push(async () => stream.close());
    const slow = rawRequest(started.url, { headers: { ...POST_HEADERS, 'mcp-session-id': busy.id! }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: { ms: 3_000 } } }), from: '127.0.0.2' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await open(started.url, '127.0.0.4');
    expect(refused.status).toBe(503);
    // The waiting call times out within 5 s of its start: that is when a session can be expected to be free.
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(5);
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `Service Unavailable: the limit of 2 sessions is reached; retry in ${refused.retryAfter} s` } });
    expect((await slow).status).toBe(200);
    expect((await open(started.url, '127.0.0.4')).status).toBe(200);
    expect(await use(started.url, listening.id!, '127.0.0.3')).toBe(200);
    expect(await use(started.url, busy.id!, '127.0.0.2')).toBe(404);
  }, 60_000);

  test('a client whose own sessions are all in use is refused with its own bound named, while another client is served', async () => {
    const started = await gateway({ maxSessions: 4, maxSessionsPerClient: 1, idleMs: 5_000 });
    const listening = await open(started.url, '127.0.0.2');
    const stream = await openRequest(started.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': listening.id! }, from: '127.0.0.2' });
    cleanups.push(async () => stream.close());
    const refused = await open(started.url, '127.0.0.2');
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(4);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(5);
    expect(JSON.parse(refused.body).error.message).toBe(`Service Unavailable: the limit of 1 sessions per client is reached; retry in ${refused.retryAfter} s`);
    expect((await open(started.url, '127.0.0.3')).status).toBe(200);
  }, 60_000);

  test('a session never used after its initialize is ended after the unused timeout; one in use is kept for the idle timeout', async () => {
    const started = await gateway({ unusedIdleMs: 400, idleMs: 60_000 });
    const unused = await open(started.url, '127.0.0.2');
    const used = await open(started.url, '127.0.0.2');
    // A notification does not put a session in use.
    await rawRequest(started.url, { headers: { ...POST_HEADERS, 'mcp-session-id': unused.id! }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', from: '127.0.0.2' });
    expect(await use(started.url, used.id!, '127.0.0.2')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await use(started.url, unused.id!, '127.0.0.2')).toBe(404);
    expect(await use(started.url, used.id!, '127.0.0.2')).toBe(200);
  }, 60_000);
});
