/**
 * The call timeout and the SSE keep-alive, over real sockets. A call the server never answers is
 * answered with `-32001` naming the timeout (the SDK client sees it as its own timeout would
 * look, but from the gateway, at the gateway's time), the server is told with
 * `notifications/cancelled`, and the session is no longer held by the call (it is ended when
 * idle); a response that comes late is dropped, not sent to another stream. While a call waits
 * on an SSE answer, and while a GET stream has nothing to say, comment lines go out, the first
 * one with the answer's head. Before, a call the server never answered got nothing, not even
 * headers, and held its session for good.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { GatewayLimits } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { alive, captureStream, initializeBody, openRequest, POST_HEADERS, rawRequest, until } from './_helpers/gateway.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startBrokenUpstream } from './peers/broken-upstream.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

async function stdioGateway(limits: Partial<GatewayLimits>, log?: string): Promise<Gateway> {
  const command = log === undefined ? [process.execPath, SERVER] : ['env', `LOG_FILE=${log}`, process.execPath, SERVER];
  const gateway = await startGateway({ kind: 'stdio', command }, { host: '127.0.0.1', port: 0, path: '/mcp', limits }, captureStream());
  cleanups.push(() => gateway.close());
  return gateway;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'gateway-timeouts-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;
const call = (id: number, name: string, args: object): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('the call timeout', () => {
  test('a stdio call past it gets -32001 naming it, the server is told, and the session is ended once idle', async () => {
    const log = join(makeTempDir('schema-coerce-gateway-'), 'received.jsonl');
    const gateway = await stdioGateway({ callTimeoutMs: 2_500, idleMs: 1_500 }, log);
    const client = await connect(gateway.url);
    const pid = Number(text(await client.callTool({ name: 'pid', arguments: {} })));
    const begun = Date.now();
    const failed = await client.callTool({ name: 'slow', arguments: { ms: 60_000 } }, undefined, { timeout: 20_000 }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; message?: string },
    );
    expect(Date.now() - begun).toBeGreaterThanOrEqual(2_450);
    expect(Date.now() - begun).toBeLessThan(8_000);
    expect(failed?.code).toBe(-32001);
    expect(failed?.message).toContain('schema-coerce gateway: no response within 2500 ms (the call timeout)');
    // The server logs the cancellation when it reads it, which on a loaded machine may be after the client's error.
    const lines = (): { id?: unknown; method?: string; params?: { requestId?: unknown; name?: string } }[] => readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    await until(() => lines().at(-1)?.method === 'notifications/cancelled');
    const received = lines();
    const slow = received.find((message) => message.params?.name === 'slow')!;
    expect(received.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: slow.id, reason: 'no response within 2500 ms (the call timeout)' } });
    // No call holds the session now: it is ended when idle, its server with it.
    expect(await until(() => !alive(pid), 10_000)).toBe(true);
  }, 30_000);

  test('a response that comes after the timeout is dropped, not sent to the GET stream; its id is taken until it comes', async () => {
    const gateway = await stdioGateway({ callTimeoutMs: 2_000, keepaliveMs: 0 });
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const session = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
    const stream = await openRequest(gateway.url, { headers: { accept: 'text/event-stream', ...session } });
    cleanups.push(async () => stream.close());
    const timedOut = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, accept: 'application/json', ...session }, body: call(5, 'slow', { ms: 3_000 }) });
    expect(JSON.parse(timedOut.body)).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32001, message: 'schema-coerce gateway: no response within 2 s (the call timeout)' } });
    // Its id is taken until the server's late response comes: a new request with it would get that response.
    const reused = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, accept: 'application/json', ...session }, body: call(5, 'echo', { n: 1 }) });
    expect([reused.status, JSON.parse(reused.body)]).toEqual([409, { jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'Invalid Request: a request with this id is still waiting for its response' } }]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const answered = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, accept: 'application/json', ...session }, body: call(6, 'echo', { n: 2 }) });
    expect(JSON.parse(answered.body)).toMatchObject({ id: 6, result: { content: [{ text: 'n:2' }] } });
    const again = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, accept: 'application/json', ...session }, body: call(5, 'echo', { n: 3 }) });
    expect(JSON.parse(again.body)).toMatchObject({ id: 5, result: { content: [{ text: 'n:3' }] } });
    expect(stream.text()).toBe('');
  }, 30_000);

  test('0 switches it off: a call answered after longer than the default would be is answered', async () => {
    const gateway = await stdioGateway({ callTimeoutMs: 0 });
    const client = await connect(gateway.url);
    expect(text(await client.callTool({ name: 'slow', arguments: { ms: 400 } }))).toBe('slept:400');
  }, 30_000);

  test('a --url call past it gets -32001; the upstream request is abandoned and the upstream told; an initialize is never cancelled', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', limits: { callTimeoutMs: 500 } }, captureStream());
    cleanups.push(() => gateway.close());
    const client = await connect(gateway.url);
    await expect(client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 20_000 })).rejects.toMatchObject({ code: -32001 });
    expect(await until(() => upstream.abandoned() === 1)).toBe(true);
    expect(await until(() => upstream.received.at(-1)?.message.method === 'notifications/cancelled')).toBe(true);
    const hang = upstream.received.find((received) => received.message.params?.name === 'hang')!;
    expect(upstream.received.at(-1)).toEqual({ session: hang.session, message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: hang.message.id, reason: 'no response within 500 ms (the call timeout)' } } });
    const init = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, accept: 'application/json' }, body: initializeBody('hang', 3) });
    expect(JSON.parse(init.body)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'schema-coerce gateway: no response within 500 ms (the call timeout)' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.received.filter((received) => received.message.method === 'notifications/cancelled')).toHaveLength(1);
  }, 30_000);
});

describe('the call timeout and an answer going through', () => {
  test('a --url JSON answer already going through unread when the time is up is let finish: the client gets it whole, the upstream is not told to cancel', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', limits: { callTimeoutMs: 500 } }, captureStream());
    cleanups.push(() => gateway.close());
    const json = { ...POST_HEADERS, accept: 'application/json' };
    const init = await rawRequest(gateway.url, { headers: json, body: initializeBody() });
    const session = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
    // The schemas first, so the call's answer is the only request in flight when the time is up.
    await rawRequest(gateway.url, { headers: { ...json, ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    const answer = await rawRequest(gateway.url, { headers: { ...json, ...session }, body: call(2, 'slow-json', { n: 1_500 }) });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'late but whole' }] } }]);
    expect(upstream.received.filter(({ message }) => message.method === 'notifications/cancelled')).toEqual([]);
  }, 30_000);
});

describe('the SSE keep-alive', () => {
  test('a call waiting on an SSE answer gets its head and comment lines while it waits, then its response', async () => {
    const gateway = await stdioGateway({ keepaliveMs: 150 });
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const session = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
    const begun = Date.now();
    const answer = await openRequest(gateway.url, { method: 'POST', headers: { ...POST_HEADERS, ...session }, body: call(2, 'slow', { ms: 1_000 }) });
    expect(Date.now() - begun).toBeLessThan(900);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    await answer.ended;
    const events = answer.text().split('\n\n').filter((event) => event !== '');
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.slice(0, -1).every((event) => event === ': keepalive')).toBe(true);
    expect(events.at(-1)).toBe('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slept:1000"}]}}');
  }, 30_000);

  test('a GET stream with nothing to say gets comment lines; a stream that just said something does not', async () => {
    const gateway = await stdioGateway({ keepaliveMs: 200 });
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const stream = await openRequest(gateway.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': init.headers['mcp-session-id'] as string } });
    cleanups.push(async () => stream.close());
    expect(await until(() => stream.text().split(': keepalive\n\n').length > 3, 5_000)).toBe(true);
    expect(stream.text().replaceAll(': keepalive\n\n', '')).toBe('');
  }, 30_000);

  test('0 switches it off: a waiting SSE answer sends nothing until its response', async () => {
    const gateway = await stdioGateway({ keepaliveMs: 0 });
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const answer = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, 'mcp-session-id': init.headers['mcp-session-id'] as string }, body: call(2, 'slow', { ms: 500 }) });
    expect(answer.body).toBe('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slept:500"}]}}\n\n');
  }, 30_000);
});
