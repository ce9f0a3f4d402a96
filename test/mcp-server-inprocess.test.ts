/**
 * `withServerArgCoercion` in this process, over the SDK's in-memory transport (so its mutation
 * run reaches it; the zod server of mcp.test.ts runs in a child process): an `McpServer` with zod
 * tools, the defaults (lenient, integers only within ±(2^53−1)), the schema cache (a listing from
 * the first page replaces, a later page adds, `list_changed` forgets), what is answered without
 * reaching the tool, what `onCoerce` hears, and the messages it leaves to the SDK.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, GetPromptRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ExactNumber } from '../src/index.js';
import { withServerArgCoercion, type CoercionReport, type ServerCoercionOptions } from '../src/mcp.js';

const INTEGER_N = { type: 'object' as const, properties: { n: { type: 'integer' } } };
const STRING_N = { type: 'object' as const, properties: { n: { type: 'string' } } };
const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;
type Tool = { name: string; inputSchema: typeof INTEGER_N | typeof STRING_N };

/**
 * A wrapped low-level server whose `tools/list` answers `pages[k]` for cursor `pk` (the first
 * page for none), counting the listings; every call's arguments are echoed and recorded.
 */
async function lowServer(pages: Tool[][], options: ServerCoercionOptions = {}) {
  const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } }), options);
  const state = { pages, lists: 0, calls: [] as unknown[] };
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    state.lists++;
    const k = request.params?.cursor === undefined ? 0 : Number(request.params.cursor.slice(1));
    return { tools: state.pages[k]!, ...(k + 1 < state.pages.length ? { nextCursor: `p${k + 1}` } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    state.calls.push(request.params.arguments);
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { server, clientSide, state };
}

async function clientOf(clientSide: InMemoryTransport): Promise<Client> {
  const client = new Client({ name: 'c', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A client connected to `server` (wrapped), whose `tools/list` is `list` and whose calls echo their arguments. */
async function servedBy(server: Server, list: (extra: { signal: AbortSignal }) => Promise<{ tools: Tool[] }>): Promise<Client> {
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => list(extra));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return clientOf(clientSide);
}

/** Raw JSON-RPC over the client's end, without an SDK client: what comes back, in order. */
async function raw(clientSide: InMemoryTransport): Promise<{ send: (message: object) => Promise<void>; received: JSONRPCMessage[] }> {
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => received.push(message);
  await clientSide.start();
  return { send: (message) => clientSide.send(message as JSONRPCMessage), received };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('withServerArgCoercion: an McpServer with zod tools, in memory', () => {
  test('"5" reaches a zod integer as 5, from the schema of the server\'s own listing (the client never listed)', async () => {
    const server = withServerArgCoercion(new McpServer({ name: 'zod', version: '1.0.0' }));
    server.registerTool('goto', { inputSchema: { line: z.number().int(), filePath: z.string() } }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = await clientOf(clientSide);
    const result = await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('{"line":5,"filePath":"a.go"}');
    await client.close();
  });
});

describe('withServerArgCoercion: its defaults', () => {
  test('lenient by default, and integers only within ±(2^53−1): a 19-digit string id stays a string rather than become a rounded number', async () => {
    const id = { type: 'object' as const, properties: { id: { type: 'integer' } } };
    for (const [options, received] of [
      [{}, { id: '1234567890123456789', n: 5 }],
      // Asked for, the 19-digit integer reaches the handler exactly: an ExactNumber, never a rounded number.
      [{ integerRange: 'int64' }, { id: new ExactNumber('1234567890123456789', '/id'), n: 5 }],
      [{ lenient: false }, { id: '1234567890123456789', n: '5' }],
    ] as const) {
      const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: { ...id, properties: { ...id.properties, n: { type: 'integer' } } } as never }]], options);
      const client = await clientOf(clientSide);
      const echo = client.callTool({ name: 't', arguments: { id: '1234567890123456789', n: '5' } });
      if (typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function' || typeof received.id === 'string') {
        expect(text(await echo)).toBe(`{"id":${typeof received.id === 'string' ? `"${received.id}"` : received.id.value},"n":${JSON.stringify(received.n)}}`);
      } else {
        // The handler's own JSON.stringify cannot write it without JSON.rawJSON: it says so.
        await expect(echo).rejects.toThrow('the number 1234567890123456789 at /id is beyond what a JavaScript number holds exactly');
      }
      expect(state.calls).toEqual([received]);
      await client.close();
    }
  });
});

describe('withServerArgCoercion: the schemas it knows', () => {
  test("a client's listing from the first page replaces what was known: a tool no longer listed is not repaired by its old schema", async () => {
    const { clientSide, state } = await lowServer([[{ name: 'gone', inputSchema: INTEGER_N }]], { lenient: true });
    const client = await clientOf(clientSide);
    await client.listTools();
    state.pages = [[{ name: 'kept', inputSchema: INTEGER_N }]];
    await client.listTools();
    expect(text(await client.callTool({ name: 'gone', arguments: { n: '2' } }))).toBe('{"n":"2"}');
    expect(text(await client.callTool({ name: 'kept', arguments: { n: '2' } }))).toBe('{"n":2}');
    await client.close();
  });

  test("a page the client asks for by cursor adds to the pages before it: both are repaired without another listing", async () => {
    const { clientSide, state } = await lowServer([[{ name: 'a', inputSchema: INTEGER_N }], [{ name: 'b', inputSchema: INTEGER_N }]]);
    const client = await clientOf(clientSide);
    const first = await client.listTools();
    await client.listTools({ cursor: first.nextCursor! });
    expect(text(await client.callTool({ name: 'a', arguments: { n: '1' } }))).toBe('{"n":1}');
    expect(text(await client.callTool({ name: 'b', arguments: { n: '2' } }))).toBe('{"n":2}');
    expect(state.lists).toBe(2);
    await client.close();
  });

  test('notifications/tools/list_changed forgets what was listed: the changed schema is the one used', async () => {
    const { server, clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]]);
    const client = await clientOf(clientSide);
    await client.listTools();
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":1}');
    state.pages = [[{ name: 't', inputSchema: STRING_N }]];
    await server.sendToolListChanged();
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":"1"}');
    await client.close();
  });

  test("the answer to another request that carries a tools field changes nothing the server's listing told", async () => {
    const { server, clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]]);
    // A server's own method whose result is shaped like a listing, with another schema for t.
    server.setRequestHandler(z.object({ method: z.literal('acme/search_tools'), params: z.object({}).optional() }), async () => ({ tools: [{ name: 't', inputSchema: STRING_N }] }));
    const client = await clientOf(clientSide);
    await client.listTools();
    await client.request({ method: 'acme/search_tools', params: {} }, z.object({ tools: z.array(z.unknown()) }));
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":1}');
    expect(state.lists).toBe(1);
    await client.close();
  });

  test("a tools/list handler that uses its request's signal lists for the wrapper as it does for a client", async () => {
    const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }));
    const client = await servedBy(server, async (extra) => {
      if (extra.signal.aborted) throw new Error('cancelled');
      return { tools: [{ name: 't', inputSchema: INTEGER_N }] };
    });
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":1}');
    await client.close();
  });

  test("a tools/list handler that cannot list: the call reaches the tool as it was sent", async () => {
    const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }));
    const client = await servedBy(server, async () => {
      throw new Error('no listing here');
    });
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":"1"}');
    await client.close();
  });
});

describe('withServerArgCoercion: calls answered without the tool, and what onCoerce hears', () => {
  test('rejectUndeclared: the model-facing message as an isError result, the tool never run, onCoerce told it was not dispatched', async () => {
    const reports: CoercionReport[] = [];
    const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { rejectUndeclared: true, onCoerce: (report) => reports.push(report) });
    const client = await clientOf(clientSide);
    const result = await client.callTool({ name: 't', arguments: { m: 1 } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Invalid parameters for tool "t": the parameter names do not match the tool schema.\nExpected parameters: n (integer). You sent undeclared key(s): m (did you mean n?).\nCorrect the parameters and call the tool again.' }],
      isError: true,
    });
    expect(state.calls).toEqual([]);
    expect(reports).toMatchObject([{ tool: 't', schemaFound: true, dispatched: false }]);
    expect(reports[0]!.call!.ok).toBe(false);
  });

  test('a refused call leaves the SDK nothing to handle: the server reports no error', async () => {
    const { server, clientSide } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { rejectUndeclared: true });
    const errors: Error[] = [];
    server.onerror = (error) => errors.push(error);
    const client = await clientOf(clientSide);
    expect((await client.callTool({ name: 't', arguments: { m: 1 } })).isError).toBe(true);
    await settle();
    expect(errors).toEqual([]);
    await client.close();
  });

  test('a validator that fails with its own message: that message is the result', async () => {
    const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { validate: () => ({ ok: false, message: 'n must be odd' }) as never });
    const client = await clientOf(clientSide);
    expect(await client.callTool({ name: 't', arguments: { n: 2 } })).toEqual({ content: [{ type: 'text', text: 'n must be odd' }], isError: true });
    expect(state.calls).toEqual([]);
    await client.close();
  });

  test('a call that goes on is reported with its changes; a tool no listing names is reported as such and goes on unchanged', async () => {
    const reports: CoercionReport[] = [];
    const { clientSide } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { onCoerce: (report) => reports.push(report) });
    const client = await clientOf(clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: '3' } }))).toBe('{"n":3}');
    expect(text(await client.callTool({ name: 'unlisted', arguments: { n: '3' } }))).toBe('{"n":"3"}');
    expect(reports).toMatchObject([
      { tool: 't', schemaFound: true, dispatched: true },
      { tool: 'unlisted', schemaFound: false, dispatched: true },
    ]);
    expect(reports[0]!.call!.changes).toEqual([{ path: '/n', from: '"3"', to: '3', rule: 'string-to-integer' }]);
    expect(reports[1]!.call).toBeUndefined();
    await client.close();
  });

  test('a call without arguments is repaired as an empty object: a required key is named', async () => {
    const required = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] };
    const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: required as never }]], { validate: true });
    const client = await clientOf(clientSide);
    const result = await client.callTool({ name: 't' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('n');
    expect(state.calls).toEqual([]);
    await client.close();
  });

  test('a validator that throws: the call reaches the tool as it was sent', async () => {
    const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], {
      validate: () => {
        throw new Error('validator broke');
      },
    });
    const client = await clientOf(clientSide);
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":"1"}');
    expect(state.calls).toEqual([{ n: '1' }]);
    await client.close();
  });
});

describe('withServerArgCoercion: what it leaves to the SDK', () => {
  test('a tools/call without a tool name is answered by the SDK, and onCoerce hears nothing of it', async () => {
    const reports: CoercionReport[] = [];
    const { clientSide, state } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { onCoerce: (report) => reports.push(report) });
    const peer = await raw(clientSide);
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: { n: '1' } } });
    await settle();
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatchObject({ jsonrpc: '2.0', id: 1, error: {} });
    expect(reports).toEqual([]);
    expect(state.calls).toEqual([]);
  });

  test('a tools/call without params is answered by the SDK', async () => {
    const { clientSide } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]]);
    const peer = await raw(clientSide);
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    await settle();
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatchObject({ jsonrpc: '2.0', id: 1, error: {} });
  });

  test("a prompts/get naming a prompt that shares a tool's name: its arguments are the prompt's, left as they are", async () => {
    const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => ({ messages: [{ role: 'user', content: { type: 'text', text: JSON.stringify(request.params.arguments) } }] }));
    const client = await servedBy(server, async () => ({ tools: [{ name: 'greet', inputSchema: INTEGER_N }] }));
    const prompt = await client.getPrompt({ name: 'greet', arguments: { n: '2' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: '{"n":"2"}' });
    await client.close();
  });

  test('a tools/call sent as a notification (no id) is never answered, even when its arguments are refused', async () => {
    const reports: CoercionReport[] = [];
    const { clientSide } = await lowServer([[{ name: 't', inputSchema: INTEGER_N }]], { rejectUndeclared: true, onCoerce: (report) => reports.push(report) });
    const peer = await raw(clientSide);
    await peer.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 't', arguments: { m: 1 } } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await settle();
    expect(peer.received).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(reports).toEqual([]);
  });
});

describe('withServerArgCoercion: wrapped twice', () => {
  test('a server wrapped twice (by a library and by the app) connects, and each call is repaired', async () => {
    const server = withServerArgCoercion(withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } })));
    const client = await servedBy(server, async () => ({ tools: [{ name: 't', inputSchema: INTEGER_N }] }));
    expect(text(await client.callTool({ name: 't', arguments: { n: '1' } }))).toBe('{"n":1}');
    await client.close();
  });
});
