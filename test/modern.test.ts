/**
 * The 2026-07-28 revision through the proxy and the gateway, with real SDK v2 clients and servers
 * (`@modelcontextprotocol/client` and `/server` 2.4.0): a client pinned to the revision talks to
 * a v2 server over stdio (`serveStdio`) and Streamable HTTP (`createMcpHandler`), through the
 * built proxy and through the gateway, and its calls are repaired as 2025-era ones are. The
 * short cases; the full matrix of clients, servers, eras and routes is `modern-matrix.test.ts`.
 */
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { loadValidateArgs } from '../src/adapters/shared/load-validator.js';
import { captureStream } from './_helpers/gateway.js';
import { connect, isErrorResult, proxyCommand, textOf, V2_STDIO, type AnyClient } from './_helpers/modern.js';
import { startV2HttpPeer, type V2HttpPeer } from './peers/v2-http-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

async function peer(options: Parameters<typeof startV2HttpPeer>[0] = {}): Promise<V2HttpPeer> {
  const started = await startV2HttpPeer(options);
  cleanups.push(() => started.close());
  return started;
}

async function client(kind: Parameters<typeof connect>[0], target: Parameters<typeof connect>[1]): Promise<AnyClient> {
  const connected = await connect(kind, target);
  cleanups.push(() => connected.close());
  return connected;
}

async function gateway(upstream: Parameters<typeof startGateway>[0], limits: { maxBody?: number } = {}, options: Partial<Parameters<typeof startGateway>[1]> = {}): Promise<Gateway> {
  const started = await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, limits, ...options }, captureStream());
  cleanups.push(() => started.close());
  return started;
}

/** The posts a peer saw of `method`, their headers and parsed bodies. */
function posted(server: V2HttpPeer, method: string): { headers: Record<string, unknown>; body: { params: { _meta?: Record<string, unknown>; arguments?: unknown } } }[] {
  return server.posts.map(({ headers, body }) => ({ headers, body: JSON.parse(body.toString('utf8')) })).filter(({ body }) => body.method === method);
}

const ENVELOPE = 'io.modelcontextprotocol/protocolVersion';

describe('a v2 client pinned to 2026-07-28', () => {
  test('through the proxy to a v2 stdio server: "7" arrives as 7 where the server refuses it directly', async () => {
    const direct = await client('v2-pin', V2_STDIO);
    expect(direct.version).toBe('2026-07-28');
    expect(isErrorResult(await direct.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(true);
    const proxied = await client('v2-pin', proxyCommand(['--lenient'], ['--', ...V2_STDIO]));
    expect(proxied.version).toBe('2026-07-28');
    // The first call makes the proxy list the tools itself, in the call's era: a listing without
    // the envelope would pin the server's connection to 2025, whose results carry no resultType.
    expect(textOf(await proxied.callTool({ name: 'echo', arguments: { count: '7', tags: ['a'] } }))).toBe('{"count":7,"tags":["a"]}');
    expect(textOf(await proxied.callTool({ name: 'echo', arguments: { count: 7.0 } }))).toBe('{"count":7}');
  });

  test('through proxy --url to createMcpHandler: the proxy\'s own tools/list carries the call\'s envelope and its own headers', async () => {
    const server = await peer({ legacy: 'reject' });
    const proxied = await client('v2-pin', proxyCommand(['--lenient'], ['--url', server.url]));
    expect(textOf(await proxied.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe('{"count":7}');
    const [call] = posted(server, 'tools/call');
    const [listing] = posted(server, 'tools/list');
    expect(listing!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(listing!.headers['mcp-name']).toBeUndefined();
    expect(listing!.body.params._meta).toEqual({ [ENVELOPE]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': call!.body.params._meta!['io.modelcontextprotocol/clientCapabilities'], 'io.modelcontextprotocol/clientInfo': { name: 'modern-test-v2-pin', version: '1.0.0' } });
    expect(call!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    expect(call!.body.params.arguments).toEqual({ count: 7 });
    expect(server.posts.every(({ headers }) => headers['mcp-session-id'] === undefined)).toBe(true);
  });

  test('through two gateway replicas to createMcpHandler: no session, no affinity, the schemas listed once per replica', async () => {
    const server = await peer({ legacy: 'reject' });
    const [first, second] = [await gateway({ kind: 'url', url: new URL(server.url), headers: {} }), await gateway({ kind: 'url', url: new URL(server.url), headers: {} })];
    const clients = [await client('v2-pin', first.url), await client('v2-pin', second.url), await client('v2-auto', first.url)];
    for (const [index, each] of clients.entries()) expect(textOf(await each.callTool({ name: 'echo', arguments: { count: `${index}` } }))).toBe(`{"count":${index}}`);
    for (const each of clients) expect(textOf(await each.callTool({ name: 'echo', arguments: { count: 5.0 } }))).toBe('{"count":5}');
    // Two replicas, three clients, six calls: each replica listed the tools once, in the client's era.
    expect(posted(server, 'tools/list').map(({ headers }) => headers['mcp-method'])).toEqual(['tools/list', 'tools/list']);
    expect(posted(server, 'tools/call').map(({ body }) => body.params.arguments)).toEqual([{ count: 0 }, { count: 1 }, { count: 2 }, { count: 5 }, { count: 5 }, { count: 5 }]);
    expect(server.posts.every(({ headers }) => headers['mcp-session-id'] === undefined)).toBe(true);
  });

  test('through the gateway to a v2 stdio server: each request served by a free server process, never named to the client', async () => {
    const served = await gateway({ kind: 'stdio', command: V2_STDIO });
    const [one, two] = [await client('v2-pin', served.url), await client('v2-pin', served.url)];
    const results = await Promise.all([one.callTool({ name: 'echo', arguments: { count: '1' } }), two.callTool({ name: 'echo', arguments: { count: '2' } })]);
    expect(results.map(textOf)).toEqual(['{"count":1}', '{"count":2}']);
    const answer = await post(served.url, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call(9, { count: 3.0 }));
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(answer.body).toContain('{\\"count\\":3}');
  });
});

describe('the answers the proxy and the gateway write themselves carry resultType under 2026-07-28 (an SDK v2 client refuses a result without one)', () => {
  test.each([
    ['proxy --validate', ['--validate'], { count: 'seven' }, 'count'],
    ['proxy --reject-undeclared', ['--reject-undeclared'], { count: 1, colour: 'red' }, 'colour'],
  ])('%s: the isError answer reaches a pinned v2 client and a 2025-era one', async (_name, flags, args, named) => {
    for (const kind of ['v2-pin', 'v2-legacy', 'v1'] as const) {
      const proxied = await client(kind, proxyCommand(flags, ['--', ...V2_STDIO]));
      const result = await proxied.callTool({ name: 'echo', arguments: args });
      expect([kind, isErrorResult(result), textOf(result)]).toEqual([kind, true, expect.stringContaining(named)]);
      expect(textOf(await proxied.callTool({ name: 'echo', arguments: { count: 2 } }))).toBe('{"count":2}');
    }
  });

  test('gateway --validate: a pinned v2 client gets the isError answer; on the wire it says resultType "complete"; a 2025-era client gets it too', async () => {
    const served = await gateway({ kind: 'stdio', command: V2_STDIO }, {}, { lenient: false, validator: await loadValidateArgs() });
    const pinned = await client('v2-pin', served.url);
    const result = await pinned.callTool({ name: 'echo', arguments: { count: 'seven' } });
    expect([isErrorResult(result), textOf(result)]).toEqual([true, expect.stringContaining('count')]);
    const modern = await post(served.url, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, call(9, { count: 'seven' }));
    expect(JSON.parse(modern.body.replace(/^[\s\S]*?data: /, '')).result).toMatchObject({ isError: true, resultType: 'complete' });
    const legacy = await client('v1', served.url);
    expect(isErrorResult(await legacy.callTool({ name: 'echo', arguments: { count: 'seven' } }))).toBe(true);
  });
});

describe('subscriptions/listen', () => {
  test.each(['gateway', 'proxy'] as const)('through the %s: list_changed arrives on the stream, the client lists again, the new tool\'s call is repaired', async (route) => {
    const server = await peer({ legacy: 'reject' });
    let changed!: () => void;
    const listed = new Promise<string[]>((resolve) => (changed = () => void client.listTools().then(({ tools }) => resolve(tools.map(({ name }) => name)))));
    const client = new Client({ name: 'listen-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, listChanged: { tools: { onChanged: () => changed() } } });
    const transport = route === 'gateway' ? new StreamableHTTPClientTransport(new URL((await gateway({ kind: 'url', url: new URL(server.url), headers: {} })).url)) : new StdioClientTransport({ command: process.execPath, args: proxyCommand(['--lenient'], ['--url', server.url]).slice(1), stderr: 'ignore' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(textOf(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe('{"added":"late"}');
    expect(await listed).toContain('late');
    expect(textOf(await client.callTool({ name: 'late', arguments: { n: '3' } }))).toBe('{"n":3}');
    expect(posted(server, 'subscriptions/listen')).toHaveLength(1);
  });
});

/** A tools/call of the 2026-07-28 revision, as its body. */
function call(id: number, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: args, _meta: { [ENVELOPE]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
}

/** POSTs `body` to `url` with `headers` (JSON, SSE accepted). */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the gateway\'s guards apply to requests without a session as to sessions', () => {
  test('a foreign Host or Origin is refused (403), a body past the limit too (413); none reaches the upstream', async () => {
    const server = await peer();
    const guarded = await gateway({ kind: 'url', url: new URL(server.url), headers: {} }, { maxBody: 1024 });
    const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    expect((await post(guarded.url, { ...modern, host: 'evil.example' }, call(1, { count: 1 }))).status).toBe(403);
    expect((await post(guarded.url, { ...modern, origin: 'https://evil.example' }, call(2, { count: 1 }))).status).toBe(403);
    expect((await post(guarded.url, modern, call(3, { count: 1, tags: ['x'.repeat(2048)] }))).status).toBe(413);
    expect((await post(guarded.url, { ...modern, 'mcp-protocol-version': '2099-01-01' }, call(4, { count: 1 }))).status).toBe(400);
    expect(server.posts).toEqual([]);
    const served = await post(guarded.url, modern, call(5, { count: 4.0 }));
    expect(served.status).toBe(200);
    expect(served.body).toContain('{\\"count\\":4}');
  });
});
