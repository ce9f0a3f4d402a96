/**
 * The gateway against hostile or careless clients, over real sockets: DNS rebinding (a foreign
 * `Host` or `Origin`), an oversize body, slow clients, too many streams, an unsupported protocol
 * version, text that is not JSON, and, in front of a `--url` server, a redirect to another origin
 * (not followed: the client's Authorization goes to the upstream and nowhere else).
 */
import { readFileSync } from 'node:fs';
import { connect as connectSocket } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { GatewayLimits, GatewayOptions } from '../src/adapters/gateway/options.js';
import { captureStream } from './_helpers/gateway.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startSlashRedirect } from './peers/slash-redirect.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);


async function gateway(options: Partial<GatewayOptions> = {}, limits: Partial<GatewayLimits> = {}, stderr = captureStream()): Promise<Gateway> {
  const started = await startGateway({ kind: 'stdio', command: [process.execPath, SERVER] }, { host: '127.0.0.1', port: 0, path: '/mcp', ...options, limits }, stderr);
  cleanups.push(() => started.close());
  return started;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with exactly these headers (`Host` included), over a fresh connection. */
function send(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

const JSON_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
const hostOf = (url: string): string => new URL(url).host;
const portOf = (url: string): string => new URL(url).port;
const refusal = (message: string, code = -32000) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

describe('gateway: DNS rebinding', () => {
  test('a foreign Host is refused with 403 before anything is read; loopback names are served', async () => {
    const started = await gateway({ jsonResponse: true });
    const foreign = await send(started.url, 'POST', { ...JSON_POST, host: `evil.example:${portOf(started.url)}` }, INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual(refusal('Forbidden: this Host is not served'));
    for (const host of [`localhost:${portOf(started.url)}`, hostOf(started.url)]) {
      const served = await send(started.url, 'POST', { ...JSON_POST, host }, INITIALIZE);
      expect(served.status).toBe(200);
      expect(served.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  }, 30_000);

  test('a browser Origin not on the list is refused with 403; a loopback one is let in with CORS headers', async () => {
    const started = await gateway({ jsonResponse: true });
    const host = hostOf(started.url);
    const foreign = await send(started.url, 'POST', { ...JSON_POST, host, origin: 'http://evil.example' }, INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual(refusal('Forbidden: this Origin is not allowed'));
    const local = await send(started.url, 'POST', { ...JSON_POST, host, origin: 'http://localhost:5173' }, INITIALIZE);
    expect(local.status).toBe(200);
    expect(local.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(local.headers['access-control-expose-headers']).toContain('mcp-session-id');
  }, 30_000);

  test('--allowed-host and --allowed-origin replace the loopback defaults', async () => {
    const started = await gateway({ jsonResponse: true, allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example'] });
    const port = portOf(started.url);
    expect((await send(started.url, 'POST', { ...JSON_POST, host: `mcp.example.com:${port}`, origin: 'https://app.example' }, INITIALIZE)).status).toBe(200);
    expect((await send(started.url, 'POST', { ...JSON_POST, host: `localhost:${port}` }, INITIALIZE)).status).toBe(403);
    expect((await send(started.url, 'POST', { ...JSON_POST, host: `mcp.example.com:${port}`, origin: 'http://localhost:5173' }, INITIALIZE)).status).toBe(403);
  }, 30_000);
});

describe('gateway: limits', () => {
  test('a body past the limit is answered 413, and the gateway goes on serving', async () => {
    const started = await gateway({ jsonResponse: true }, { maxBody: 1024 });
    const host = hostOf(started.url);
    const large = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(2048) } });
    const declared = await send(started.url, 'POST', { ...JSON_POST, host }, large);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual(refusal('Payload Too Large: the limit is 1024 bytes'));
    const chunked = await send(started.url, 'POST', { ...JSON_POST, host, 'transfer-encoding': 'chunked' }, large);
    expect(chunked.status).toBe(413);
    expect((await send(started.url, 'POST', { ...JSON_POST, host }, INITIALIZE)).status).toBe(200);
  }, 30_000);

  test('a request head past the limit is answered 431, and the gateway goes on serving', async () => {
    const started = await gateway({ jsonResponse: true }, { maxHeaderBytes: 2048 });
    const host = hostOf(started.url);
    const large = await send(started.url, 'POST', { ...JSON_POST, host, 'x-padding': 'x'.repeat(3000) }, INITIALIZE);
    expect(large.status).toBe(431);
    expect((await send(started.url, 'POST', { ...JSON_POST, host, 'x-padding': 'x'.repeat(1000) }, INITIALIZE)).status).toBe(200);
  }, 30_000);

  test('a body of exactly the limit is served; one byte more is 413, with and without a Content-Length', async () => {
    // JSON allows white space after the value: the same message, padded to a chosen size in bytes.
    const exact = INITIALIZE + ' '.repeat(100);
    const started = await gateway({ jsonResponse: true }, { maxBody: Buffer.byteLength(exact) });
    const host = hostOf(started.url);
    const over = exact + ' ';
    const chunked = { ...JSON_POST, host, 'transfer-encoding': 'chunked' };
    expect([
      (await send(started.url, 'POST', { ...JSON_POST, host }, exact)).status,
      (await send(started.url, 'POST', chunked, exact)).status,
      (await send(started.url, 'POST', { ...JSON_POST, host }, over)).status,
      (await send(started.url, 'POST', chunked, over)).status,
    ]).toEqual([200, 200, 413, 413]);
  }, 30_000);

  test('a client slow to send its headers or its body is dropped by the timeouts, while another is served', async () => {
    const started = await gateway({ jsonResponse: true }, { headersTimeoutMs: 400, requestTimeoutMs: 800 });
    const { port } = new URL(started.url);
    const dropped = (partial: string) =>
      new Promise<{ ms: number; text: string }>((resolve) => {
        const begun = Date.now();
        const socket = connectSocket(Number(port), '127.0.0.1', () => socket.write(partial));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve({ ms: Date.now() - begun, text }));
      });
    const slowHeaders = dropped(`POST /mcp HTTP/1.1\r\nHost: ${hostOf(started.url)}\r\n`);
    const slowBody = dropped(`POST /mcp HTTP/1.1\r\nHost: ${hostOf(started.url)}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
    const served = [];
    for (let i = 0; i < 5; i++) served.push((await send(started.url, 'POST', { ...JSON_POST, host: hostOf(started.url) }, INITIALIZE)).status);
    expect(served).toEqual([200, 200, 200, 200, 200]);
    const [headers, body] = await Promise.all([slowHeaders, slowBody]);
    expect(headers.text).toMatch(/^HTTP\/1\.1 408/);
    expect(body.text).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.ms).toBeLessThan(5_000);
    expect(body.ms).toBeLessThan(5_000);
  }, 30_000);

  test('an idle connection is kept for its next request for the keep-alive time, then closed; a call on it in between is served', async () => {
    const started = await gateway({ jsonResponse: true }, { keepAliveMs: 600 });
    const { port } = new URL(started.url);
    const post = `POST /mcp HTTP/1.1\r\nHost: ${hostOf(started.url)}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`;
    const socket = connectSocket(Number(port), '127.0.0.1', () => socket.write(post));
    const answers: number[] = [];
    let begun = 0;
    socket.on('data', (chunk: Buffer) => {
      answers.push(...[...chunk.toString().matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((found) => Number(found[1])));
      // The second request comes 300 ms after the first answer, within the keep-alive time; the idle time counts from its answer.
      if (answers.length === 1) setTimeout(() => socket.write(post), 300);
      begun = Date.now();
    });
    const idle = await new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - begun)));
    expect(answers).toEqual([200, 200]);
    expect(idle).toBeGreaterThanOrEqual(500);
    expect(idle).toBeLessThan(4_000);
  }, 30_000);

  test('past the bound on open streams a stream is refused with 503', async () => {
    const started = await gateway({}, { maxStreams: 1 });
    const host = hostOf(started.url);
    const init = await send(started.url, 'POST', { ...JSON_POST, accept: 'application/json', host }, INITIALIZE);
    const session = init.headers['mcp-session-id'] as string;
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve) => request(started.url, { method: 'GET', headers: { host, accept: 'text/event-stream', 'mcp-session-id': session }, agent: false }, resolve).end());
    expect(stream.statusCode).toBe(200);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { n: 1 } } });
    const refused = await send(started.url, 'POST', { ...JSON_POST, host, 'mcp-session-id': session }, call);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual(refusal('Service Unavailable: too many streams are open'));
    stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answered = await send(started.url, 'POST', { ...JSON_POST, host, 'mcp-session-id': session }, call);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('n:1');
  }, 30_000);

  test('bad requests get a JSON-RPC error naming what is wrong, never a stack trace', async () => {
    const started = await gateway();
    const host = hostOf(started.url);
    const answers = await Promise.all([
      send(started.url, 'POST', { ...JSON_POST, host }, '{"jsonrpc":"2.0","id":1,'),
      send(started.url, 'POST', { ...JSON_POST, host }, `[${INITIALIZE}]`),
      send(started.url, 'POST', { ...JSON_POST, host, 'content-type': 'text/plain' }, INITIALIZE),
      send(started.url, 'POST', { ...JSON_POST, host, 'mcp-protocol-version': '1999-01-01' }, INITIALIZE),
      send(started.url, 'POST', { ...JSON_POST, host }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })),
      send(started.url, 'PUT', { host }, ''),
      send(started.url.replace('/mcp', '/other'), 'POST', { ...JSON_POST, host }, INITIALIZE),
    ]);
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body)])).toEqual([
      [400, refusal('Parse error: the body is not JSON', -32700)],
      [400, refusal('Invalid Request: batches are not supported (one message per POST)', -32600)],
      [415, refusal('Unsupported Media Type: Content-Type must be application/json')],
      [400, refusal('Bad Request: unsupported protocol version "1999-01-01" (supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26)')],
      [400, refusal('Bad Request: Mcp-Session-Id header is required')],
      [405, refusal('Method Not Allowed')],
      [404, refusal('Not Found')],
    ]);
  }, 30_000);
});

describe('gateway --url: the client Authorization goes to the upstream only', () => {
  test('a redirect to another origin is not followed: the client gets an error naming it, nothing reaches the other origin', async () => {
    const elsewhere = await startSlashRedirect(undefined);
    cleanups.push(() => elsewhere.close());
    const front = await startSlashRedirect(undefined, () => elsewhere.origin);
    cleanups.push(() => front.close());
    const stderr = captureStream();
    const started = await startGateway({ kind: 'url', url: new URL(front.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse: true }, stderr);
    cleanups.push(() => started.close());
    const answer = await send(started.url, 'POST', { ...JSON_POST, host: hostOf(started.url), authorization: 'Bearer s3cret' }, INITIALIZE);
    const reason = `schema-coerce gateway: ${front.url} redirected to another origin (${elsewhere.origin}): not followed`;
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: reason } });
    expect(elsewhere.seen).toEqual([]);
    expect(front.seen.map((seen) => seen.headers.authorization)).toEqual(['Bearer s3cret']);
    expect(stderr.text()).toBe(`schema-coerce gateway: ${front.url} redirected to another origin (${elsewhere.origin}): not followed\n`);
  }, 30_000);
});

describe('gateway: a message that repeats a key', () => {
  // A remote client must not make the gateway and the server read two different calls: the
  // gateway's session answers -32600 and forwards nothing.
  const CALLS: [key: string, body: string][] = [
    ['method', '{"jsonrpc":"2.0","id":10,"method":"ping","method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}'],
    ['id', '{"jsonrpc":"2.0","id":11,"id":12,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}'],
    ['params', '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}},"params":{"name":"echo","arguments":{"n":"x"}}}'],
    ['name', '{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"pid","name":"echo","arguments":{"n":1}}}'],
    ['arguments', '{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"echo","arguments":{"n":1},"arguments":{"n":"x"}}}'],
  ];
  test('is refused with -32600 for each of method, id, params, name and arguments, and never reaches the server', async () => {
    const log = join(makeTempDir('schema-coerce-gateway-'), 'received.jsonl');
    const started = await startGateway({ kind: 'stdio', command: ['env', `LOG_FILE=${log}`, process.execPath, SERVER] }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse: true }, captureStream());
    cleanups.push(() => started.close());
    const host = hostOf(started.url);
    const init = await send(started.url, 'POST', { ...JSON_POST, host }, INITIALIZE);
    const session = init.headers['mcp-session-id'] as string;
    for (const [key, body] of CALLS) {
      const answer = await send(started.url, 'POST', { ...JSON_POST, host, 'mcp-session-id': session }, body);
      expect(answer.status, key).toBe(200);
      const message = JSON.parse(answer.body) as { error: { code: number; message: string } };
      expect(message.error.code, key).toBe(-32600);
      expect(message.error.message, key).toContain(JSON.stringify(key));
    }
    const call = await send(started.url, 'POST', { ...JSON_POST, host, 'mcp-session-id': session }, '{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}');
    expect(JSON.parse(call.body)).toMatchObject({ id: 16, result: { content: [{ text: 'n:1' }] } });
    const received = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id?: unknown });
    expect(received.map((message) => message.id).filter((id) => typeof id === 'number')).toEqual([1, 16]);
  }, 30_000);
});
