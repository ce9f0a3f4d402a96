/**
 * The guards of #44 over both protocol eras, over real sockets: requests of the 2026-07-28
 * revision name no session, yet in front of a stdio server each is served by a server process, so
 * those processes count under the same bounds as 2025 sessions (per client while they serve one,
 * in all always; a free one is the first made room with); a call of that revision past the call
 * timeout is answered `-32001` and its process ended; and the call timeout never cuts a stream
 * meant to stay open, a `subscriptions/listen` answer (stdio and `--url`) or a session's GET.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { GatewayLimits } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { alive, captureStream, initializeBody, openRequest, POST_HEADERS, rawRequest, until, type OpenAnswer } from './_helpers/gateway.js';
import { V2_STDIO, textOf } from './_helpers/modern.js';
import { startBrokenUpstream } from './peers/broken-upstream.js';
import { startV2HttpPeer } from './peers/v2-http-server.js';

const STDIO_PEER = [process.execPath, join(import.meta.dirname, 'peers', 'gateway-stdio.mjs')];
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN = { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28' };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

async function stdioGateway(command: readonly string[], limits: Partial<GatewayLimits>): Promise<Gateway> {
  const gateway = await startGateway({ kind: 'stdio', command: [...command] }, { host: '127.0.0.1', port: 0, path: '/mcp', limits }, captureStream());
  cleanups.push(() => gateway.close());
  return gateway;
}

/** A request of the 2026-07-28 revision, its envelope in `params._meta`. */
function modern(id: number | string, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } });
}
const modernCall = (id: number, name: string, args: object): string => modern(id, 'tools/call', { name, arguments: args });

/** Opens an answer that should stay open, kept to be closed after the test. */
async function held(url: string, sent: Parameters<typeof openRequest>[1]): Promise<OpenAnswer & { readonly closed: () => boolean }> {
  const answer = await openRequest(url, sent);
  let closed = false;
  void answer.ended.then(() => (closed = true));
  cleanups.push(async () => answer.close());
  return Object.assign(answer, { closed: () => closed });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the call timeout waits on requests only', () => {
  test('a subscriptions/listen answer and a session\'s GET stream outlive it, with keep-alives', async () => {
    const gateway = await stdioGateway(V2_STDIO, { callTimeoutMs: 2_000, keepaliveMs: 200 });
    const listen = await held(gateway.url, { method: 'POST', headers: MODERN, body: modern('listen:0', 'subscriptions/listen', { notifications: { toolsListChanged: true } }) });
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const stream = await held(gateway.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': init.headers['mcp-session-id'] as string } });
    // The server acknowledges the subscription once its process is up; the stream then stays open past the timeout.
    expect(await until(() => listen.text().includes('notifications/subscriptions/acknowledged'), 15_000)).toBe(true);
    await sleep(2_500);
    expect([listen.status, listen.closed(), stream.status, stream.closed()]).toEqual([200, false, 200, false]);
    expect(listen.text().split('\n\n').at(-2)).toBe(': keepalive');
    expect(listen.text()).not.toContain('-32001');
    expect(stream.text().replaceAll(': keepalive\n\n', '')).toBe('');
    expect(stream.text()).toContain(': keepalive');
  }, 30_000);

  test('a call of the 2026-07-28 revision past it gets -32001 naming it, and the process that served it is ended', async () => {
    // Time enough for a server process to start on a loaded machine: its first call must be answered.
    const gateway = await stdioGateway(STDIO_PEER, { callTimeoutMs: 5_000 });
    const json = { ...MODERN, accept: 'application/json' };
    const pid = Number(JSON.parse((await rawRequest(gateway.url, { headers: json, body: modernCall(1, 'pid', {}) })).body).result.content[0].text);
    const begun = Date.now();
    // The free process that told its pid serves the next request.
    const timedOut = await rawRequest(gateway.url, { headers: json, body: modernCall(2, 'slow', { ms: 60_000 }) });
    expect(Date.now() - begun).toBeGreaterThanOrEqual(4_950);
    expect([timedOut.status, timedOut.headers['mcp-session-id'], JSON.parse(timedOut.body)]).toEqual([200, undefined, { jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'schema-coerce gateway: no response within 5 s (the call timeout)' } }]);
    expect(await until(() => !alive(pid), 10_000)).toBe(true);
    const next = await rawRequest(gateway.url, { headers: json, body: modernCall(3, 'echo', { n: 4 }) });
    expect(JSON.parse(next.body)).toMatchObject({ id: 3, result: { content: [{ text: 'n:4' }] } });
  }, 30_000);

  test('through a --url upstream, a 2026-07-28 call past it gets -32001 and its upstream request is abandoned; no notifications/cancelled goes without a session to name', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', limits: { callTimeoutMs: 500 } }, captureStream());
    cleanups.push(() => gateway.close());
    const answer = await rawRequest(gateway.url, { headers: { ...MODERN, accept: 'application/json' }, body: modernCall(7, 'hang', {}) });
    expect([answer.headers['mcp-session-id'], JSON.parse(answer.body)]).toEqual([undefined, { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'schema-coerce gateway: no response within 500 ms (the call timeout)' } }]);
    expect(await until(() => upstream.abandoned() === 1)).toBe(true);
    await sleep(300);
    expect(upstream.received.map(({ session, message }) => [session, message.method])).toEqual([[undefined, 'tools/list'], [undefined, 'tools/call']]);
  }, 30_000);

  test('through a --url upstream, a client\'s subscriptions/listen stream outlives it: a tool added later is announced, listed and repaired', async () => {
    const server = await startV2HttpPeer({ legacy: 'reject' });
    cleanups.push(() => server.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(server.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, limits: { callTimeoutMs: 2_000 } }, captureStream());
    cleanups.push(() => gateway.close());
    let changed!: () => void;
    const listed = new Promise<string[]>((resolve) => (changed = () => void client.listTools().then(({ tools }) => resolve(tools.map(({ name }) => name)))));
    const client = new Client({ name: 'eras-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, listChanged: { tools: { onChanged: () => changed() } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    cleanups.push(() => client.close());
    await sleep(2_500);
    expect(textOf(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe('{"added":"late"}');
    expect(await listed).toContain('late');
    expect(textOf(await client.callTool({ name: 'late', arguments: { n: '3' } }))).toBe('{"n":3}');
    expect(server.posts.filter(({ body }) => body.includes('"subscriptions/listen"'))).toHaveLength(1);
  }, 30_000);
});

describe('the session bounds cover requests without a session', () => {
  test('a process serving a client\'s request counts as its session: past its bound, either era is refused 503 with Retry-After, a free process not taken; another client is served, a free process making room', async () => {
    const gateway = await stdioGateway(STDIO_PEER, { maxSessionsPerClient: 2, maxSessions: 3, callTimeoutMs: 0 });
    const pidOf = (answer: { body: string }): number => Number(/"text":"(\d+)"/.exec(answer.body)![1]);
    // Client B (127.0.0.2): two calls of the 2026-07-28 revision at once, two processes, free once answered, never named.
    const served = await Promise.all([1, 2].map((id) => rawRequest(gateway.url, { from: '127.0.0.2', headers: MODERN, body: modernCall(id, 'pid', {}) })));
    expect(served.map((answer) => [answer.status, answer.headers['mcp-session-id']])).toEqual([[200, undefined], [200, undefined]]);
    const pids = served.map(pidOf);
    expect(new Set(pids).size).toBe(2);
    // Client A (127.0.0.1): a 2025 session with its GET stream open, and a call of that revision in flight on one of the free processes.
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody('a') });
    await held(gateway.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': init.headers['mcp-session-id'] as string } });
    const slow = rawRequest(gateway.url, { headers: MODERN, body: modernCall(3, 'slow', { ms: 8_000 }) });
    await sleep(1_000);
    // At its bound, A is refused, in either era, though a process is free.
    const refusedModern = await rawRequest(gateway.url, { headers: MODERN, body: modernCall(4, 'echo', { n: 1 }) });
    const refusedSession = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody('a2') });
    for (const refused of [refusedModern, refusedSession]) {
      expect(refused.status).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(refused.body).error.message).toMatch(/^Service Unavailable: the limit of 2 sessions per client is reached; retry in \d+ s$/);
    }
    // Three processes at the cap (A's session, A's call, the free one): B's session is made room for by the free one.
    const opened = await rawRequest(gateway.url, { from: '127.0.0.2', headers: POST_HEADERS, body: initializeBody('b') });
    expect([opened.status, typeof opened.headers['mcp-session-id']]).toEqual([200, 'string']);
    expect(await until(() => pids.filter(alive).length === 1, 10_000)).toBe(true);
    // Once A's call is answered, its process is free again and no longer A's: A is served.
    expect((await slow).body).toContain('slept:8000');
    const after = await rawRequest(gateway.url, { headers: MODERN, body: modernCall(5, 'echo', { n: 2 }) });
    expect([after.status, after.body.includes('n:2')]).toEqual([200, true]);
  }, 40_000);
});
