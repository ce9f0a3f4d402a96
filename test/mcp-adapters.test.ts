/**
 * The MCP wrappers and the framework adapters' shared call, in memory: against a server that
 * pages `tools/list` forever or repeats its cursor (the client's refresh and the server wrapper's
 * own listing stop: 100 pages, 10 s, no cursor twice, and go on with what was listed), the server
 * wrapper's order of messages and its ids, and the framework default integer range.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { withArgCoercion, withServerArgCoercion } from '../src/mcp.js';
import { prepareFrameworkCall } from '../src/adapters/frameworks/framework-call.js';
import { stringifyArgs } from '../src/index.js';
import { Paging } from '../src/adapters/shared/tool-schemas.js';

const SCHEMA = { type: 'object' as const, properties: { n: { type: 'integer' } } };
const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

/** A server whose page `k` (0 for the first) is `page(k, cursor)`; counts the pages asked for. */
async function pagingServer(page: (k: number, cursor: string | undefined) => { tools: { name: string; inputSchema: typeof SCHEMA }[]; nextCursor?: string }, wrap = false) {
  const server = new Server({ name: 'pages', version: '1.0.0' }, { capabilities: { tools: {} } });
  if (wrap) withServerArgCoercion(server, { lenient: false });
  const asked: (string | undefined)[] = [];
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    asked.push(request.params?.cursor);
    return page(asked.length - 1, request.params?.cursor);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { clientSide, asked, close: () => server.close() };
}

describe('withArgCoercion: the refresh for an unknown tool', () => {
  test('a repeated cursor is followed once; the call goes on, repaired with what was listed', async () => {
    const server = await pagingServer((k) => ({ tools: k === 0 ? [{ name: 't', inputSchema: SCHEMA }] : [], nextCursor: 'again' }));
    const client = withArgCoercion(new Client({ name: 'c', version: '1.0.0' }));
    await client.connect(server.clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: 2.5 } }))).toBe('{"n":2.5}');
    expect(server.asked).toEqual([undefined, 'again']);
    await client.close();
  });

  test('a fresh cursor on every page: 100 pages, then the call goes on', async () => {
    const server = await pagingServer((k) => ({ tools: k === 3 ? [{ name: 't', inputSchema: SCHEMA }] : [], nextCursor: `c${k}` }));
    const client = withArgCoercion(new Client({ name: 'c', version: '1.0.0' }), { lenient: true });
    await client.connect(server.clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: '2' } }))).toBe('{"n":2}');
    expect(server.asked).toHaveLength(100);
    await client.close();
  });
});

/** A server listing `tools.now` on every `tools/list` (one page), counting the listings, echoing each call's arguments. */
async function listingServer(first: string[]) {
  const server = new Server({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const state = { now: first, lists: 0 };
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    state.lists++;
    return { tools: state.now.map((name) => ({ name, inputSchema: SCHEMA })) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { server, clientSide, state };
}

/** A lenient wrapped client, connected over `transport`. */
async function lenientClient(transport: InMemoryTransport): Promise<Client> {
  const client = withArgCoercion(new Client({ name: 'c', version: '1.0.0' }), { lenient: true });
  await client.connect(transport);
  return client;
}

describe('withArgCoercion: what the cache knows', () => {
  test("a listing from the first page replaces what was known: a tool the server no longer lists is not repaired by its old schema", async () => {
    const { clientSide, state } = await listingServer(['gone']);
    const client = await lenientClient(clientSide);
    await client.listTools();
    state.now = ['kept'];
    await client.listTools();
    // Unknown now: one refresh (which does not list it either), then the call goes out as it is.
    expect(text(await client.callTool({ name: 'gone', arguments: { n: '2' } }))).toBe('{"n":"2"}');
    expect(state.lists).toBe(3);
    await client.close();
  });

  test("the refresh for an unknown tool replaces what was known too", async () => {
    const { clientSide, state } = await listingServer(['gone']);
    const client = await lenientClient(clientSide);
    await client.listTools();
    state.now = ['added'];
    expect(text(await client.callTool({ name: 'added', arguments: { n: '2' } }))).toBe('{"n":2}');
    expect(text(await client.callTool({ name: 'gone', arguments: { n: '2' } }))).toBe('{"n":"2"}');
    expect(state.lists).toBe(3);
    await client.close();
  });

  test('a page the client asks for itself adds to the pages before it', async () => {
    const server = await pagingServer((k) => ({ tools: [{ name: `t${k}`, inputSchema: SCHEMA }], ...(k === 0 ? { nextCursor: 'next' } : {}) }));
    const client = await lenientClient(server.clientSide);
    const first = await client.listTools();
    await client.listTools({ cursor: first.nextCursor! });
    expect(text(await client.callTool({ name: 't0', arguments: { n: '1' } }))).toBe('{"n":1}');
    expect(text(await client.callTool({ name: 't1', arguments: { n: '2' } }))).toBe('{"n":2}');
    // Both pages were known: no refresh.
    expect(server.asked).toEqual([undefined, 'next']);
    await client.close();
  });

  test("the refresh asks for its first page as the SDK's own listTools() does, without params, then by cursor", async () => {
    const server = await pagingServer((k) => ({ tools: k === 1 ? [{ name: 't', inputSchema: SCHEMA }] : [], ...(k === 0 ? { nextCursor: 'c1' } : {}) }));
    const sent: string[] = [];
    const send = server.clientSide.send.bind(server.clientSide);
    server.clientSide.send = async (message, options) => {
      if ((message as { method?: string }).method === 'tools/list') sent.push(JSON.stringify(message));
      return send(message, options);
    };
    const client = await lenientClient(server.clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: '3' } }))).toBe('{"n":3}');
    await client.listTools();
    const [refreshFirst, refreshNext, own] = sent.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(refreshFirst).toEqual({ ...own, id: refreshFirst!['id'] });
    expect(Object.keys(refreshFirst!)).not.toContain('params');
    expect(refreshNext!['params']).toEqual({ cursor: 'c1' });
    await client.close();
  });

  test('notifications/tools/list_changed without a handler of the user\'s: the cache is cleared and the client reports no error', async () => {
    const { server, clientSide, state } = await listingServer(['t']);
    const client = withArgCoercion(new Client({ name: 'c', version: '1.0.0' }), { lenient: true });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(clientSide);
    await client.listTools();
    await server.sendToolListChanged();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(text(await client.callTool({ name: 't', arguments: { n: '4' } }))).toBe('{"n":4}');
    // The cache was cleared: the call listed the tools again.
    expect(state.lists).toBe(2);
    expect(errors).toEqual([]);
    await client.close();
  });
});

describe("withServerArgCoercion: the server's own listing", () => {
  test('a handler repeating its cursor is asked for it once, and the call is repaired with what was listed', async () => {
    const server = await pagingServer((k) => ({ tools: k === 0 ? [{ name: 't', inputSchema: SCHEMA }] : [], nextCursor: 'again' }), true);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(server.clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: 3.0 } }))).toBe('{"n":3}');
    expect(server.asked).toEqual([undefined, 'again']);
    await client.close();
  });
});

describe('Paging', () => {
  test('a string cursor not seen before, within 100 pages and 10 s', () => {
    const paging = new Paging(1_000);
    expect(paging.follows(undefined, 1_000)).toBe(false);
    expect(paging.follows(7, 1_000)).toBe(false);
    expect(paging.follows('a', 1_000)).toBe(true);
    expect(paging.follows('a', 1_000)).toBe(false);
    expect(paging.follows('b', 10_999)).toBe(true);
    expect(paging.follows('c', 11_000)).toBe(false);
    const many = new Paging(0);
    let followed = 0;
    while (many.follows(`p${followed}`, 0)) followed++;
    // The first page plus 99 followed: 100 pages.
    expect(followed).toBe(99);
  });
});

describe('withServerArgCoercion: order and ids', () => {
  test('a notifications/cancelled behind a call waiting for its schema is delivered after it: the call is cancelled', async () => {
    const server = withServerArgCoercion(new Server({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } }));
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { tools: [{ name: 't', inputSchema: SCHEMA }] };
    });
    let aborted: boolean | undefined;
    server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      aborted = extra.signal.aborted;
      return { content: [{ type: 'text', text: 'ran' }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await clientSide.start();
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { n: 1.0 } } });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    for (let waited = 0; aborted === undefined && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe(true);
    await server.close();
  });

  test("the server's own requests, whose ids may be a client's, do not take the answer of the client's tools/list", async () => {
    let server!: Server;
    server = withServerArgCoercion(new Server({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } }));
    let lists = 0;
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      lists++;
      // Two pings from the server: its ids 0 and 1, the client's tools/list being 1.
      await server.ping();
      await server.ping();
      return { tools: [{ name: 't', inputSchema: SCHEMA }] };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    await client.listTools();
    expect(text(await client.callTool({ name: 't', arguments: { n: 4.0 } }))).toBe('{"n":4}');
    // The schema came from the client's own listing: the server's handler was not asked again.
    expect(lists).toBe(1);
    await client.close();
  }, 10_000);
});

describe('the framework adapters\' call', () => {
  test('integers only within ±(2^53−1) by default: a 19-digit whole float is not respelled into a value JSON.parse would round', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } } };
    const text19 = '{"id":1234567890123456789.0}';
    expect(stringifyArgs(prepareFrameworkCall(text19, schema, 't', {}, undefined).args)).toBe(text19);
    expect(stringifyArgs(prepareFrameworkCall(text19, schema, 't', { integerRange: 'int64' }, undefined).args)).toBe('{"id":1234567890123456789}');
    expect(stringifyArgs(prepareFrameworkCall('{"id":"5"}', schema, 't', {}, undefined).args)).toBe('{"id":5}');
    expect(stringifyArgs(prepareFrameworkCall('{"id":"5"}', schema, 't', { lenient: false }, undefined).args)).toBe('{"id":"5"}');
  });
});
