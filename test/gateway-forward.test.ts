/**
 * What a `--url` gateway sends its upstream and how an upstream's JSON answer goes back, against
 * a hand-written Streamable HTTP upstream (node:http) that records every request's raw headers
 * and writes its answers byte for byte: the `--header` values go once, over the client's of the
 * same name; the answer to a call goes to the client as the upstream wrote it, unread, while a
 * tools/list answer is still read for its schemas; a client that reads nothing of a large answer
 * is dropped at its bound without holding the upstream; an answer the upstream breaks off is
 * broken off at the client too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import type { GatewayLimits } from '../src/adapters/gateway/options.js';
import { captureStream } from './_helpers/gateway.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

interface Seen {
  readonly raw: readonly string[];
  readonly body: { method?: string; id?: unknown; params?: { name?: string; arguments?: unknown } };
}

const SCHEMA = { type: 'object', properties: { count: { type: 'integer' }, text: { type: 'string' } } };
/** The answer to a call of `echo`, written with a CR LF and a newline, as JSON lets a server write it. */
const echoAnswer = (id: unknown, args: unknown): string => `{"jsonrpc":"2.0",\r\n"id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(JSON.stringify(args))}}]}}\n`;
const BIG = 128 * 1024 * 1024;
const MEGABYTE = Buffer.alloc(1024 * 1024, 'x');

/** The upstream: answers initialize, tools/list and tools/call (`echo`, `big`: 128 MB, `cut`: broken off), records what it is sent. */
async function upstream(): Promise<{ url: string; seen: Seen[]; big: Promise<{ finished: boolean }> }> {
  const seen: Seen[] = [];
  let bigDone!: (value: { finished: boolean }) => void;
  const big = new Promise<{ finished: boolean }>((resolve) => (bigDone = resolve));
  const answer = (response: ServerResponse, text: string): void => void response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'mcp-session-id': 's-1' }).end(text);
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Seen['body']);
    seen.push({ raw: request.rawHeaders, body });
    if (body.id === undefined) return void response.writeHead(202).end();
    if (body.method === 'initialize') return answer(response, JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0' } } }));
    if (body.method === 'tools/list') return answer(response, JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { tools: ['echo', 'big', 'cut'].map((name) => ({ name, inputSchema: SCHEMA })) } }));
    const name = body.params?.name;
    if (name === 'big') {
      // More than the sockets' buffers take (up to 32 MB here), a megabyte at a time as the gateway takes it.
      response.on('close', () => bigDone({ finished: response.writableFinished }));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":{"content":[{"type":"text","text":"`);
      for (let sent = 0; sent < BIG && !response.destroyed; sent += MEGABYTE.length) {
        if (!response.write(MEGABYTE)) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
      }
      return void response.end('"}]}}');
    }
    if (name === 'cut') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 10_000 });
      response.write('{"jsonrpc":"2.0","id":');
      return void setTimeout(() => response.destroy(), 50);
    }
    answer(response, echoAnswer(body.id, body.params?.arguments));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen, big };
}

async function gatewayTo(url: string, headers: Record<string, string> = {}, limits: Partial<GatewayLimits> = {}): Promise<Gateway> {
  const gateway = await startGateway({ kind: 'url', url: new URL(url), headers }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, limits }, captureStream());
  cleanups.push(() => gateway.close());
  return gateway;
}

/** A client of one session: posts JSON-RPC messages and reads the raw answers. */
function client(url: string, headers: Record<string, string> = {}) {
  return async (message: object): Promise<{ status: number; type: string | null; text: string }> => {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-06-18', ...headers },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  };
}

/** The values of header `name` in raw headers, in order. */
const headerValues = (raw: readonly string[], name: string): string[] => {
  const found: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) found.push(raw[i + 1]!);
  return found;
};

describe('gateway --url, the requests it sends and the JSON answers it passes on', () => {
  test('the answer to a call goes to the client byte for byte; the call is repaired against the listing the client asked for', async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url);
    const post = client(gateway.url);
    const listed = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(JSON.parse(listed.text).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'big', 'cut']);
    const called = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { count: 5.0, text: 'a' } } });
    expect(server.seen.at(-1)!.body.params!.arguments).toEqual({ count: 5, text: 'a' });
    expect(called).toEqual({ status: 200, type: 'application/json; charset=utf-8', text: echoAnswer(2, { count: 5, text: 'a' }) });
    // The client's listing fed the schemas: the gateway listed nothing of its own.
    expect(server.seen.filter((seen) => seen.body.method === 'tools/list').map((seen) => seen.body.id)).toEqual([1]);
    // The same id once its answer has come is a new request, not one still waiting.
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { count: 6.0 } } })).text).toBe(echoAnswer(2, { count: 6 }));
  }, 30_000);

  test("--header values go once, over the client's of the same name; Host is the upstream's", async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url, { Authorization: 'Bearer gateway-key', 'X-Team': 'blue' });
    await client(gateway.url, { authorization: 'Bearer client-key', 'x-other': 'not forwarded' })({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { count: 1 } } });
    const call = server.seen.find((seen) => seen.body.method === 'tools/call')!;
    expect(headerValues(call.raw, 'authorization')).toEqual(['Bearer gateway-key']);
    expect(headerValues(call.raw, 'x-team')).toEqual(['blue']);
    expect(headerValues(call.raw, 'x-other')).toEqual([]);
    expect(headerValues(call.raw, 'host')).toEqual([new URL(server.url).host]);
    expect(headerValues(call.raw, 'mcp-session-id')).toEqual(['s-1']);
    expect(headerValues(call.raw, 'accept')).toEqual(['application/json, text/event-stream']);
    expect(headerValues(call.raw, 'content-type')).toEqual(['application/json']);
    expect(headerValues(call.raw, 'content-length')).toEqual([String(Buffer.byteLength(JSON.stringify(call.body)))]);
    // Without a --header of that name, the client's Authorization goes.
    const plain = await gatewayTo(server.url);
    await client(plain.url, { authorization: 'Bearer client-key' })({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { count: 2 } } });
    expect(headerValues(server.seen.at(-1)!.raw, 'authorization')).toEqual(['Bearer client-key']);
  }, 30_000);

  test('a client that reads nothing of a large answer is dropped at its bound, the upstream not held; others are served', async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url, {}, { maxUnread: 64 * 1024 });
    const { port } = new URL(gateway.url);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } });
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    cleanups.push(async () => socket.destroy());
    socket.pause();
    socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json\r\nmcp-session-id: s-1\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    // The gateway gave the answer up before the upstream had written it all.
    expect(await server.big).toEqual({ finished: false });
    expect((await client(gateway.url)({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { count: 3.0 } } })).text).toBe(echoAnswer(2, { count: 3 }));
  }, 30_000);

  test('an answer the upstream breaks off is broken off at the client too; the gateway goes on serving', async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url);
    const post = client(gateway.url);
    await expect(post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'cut', arguments: {} } })).rejects.toThrow(/terminated/);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { count: 4.0 } } })).text).toBe(echoAnswer(1, { count: 4 }));
  }, 30_000);
});
