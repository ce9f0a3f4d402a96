/**
 * The MCP adapters against the real SDK and real server processes over stdio: a strict Python
 * server for the client wrapper, a zod-validated TypeScript server for the server wrapper.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { parseArgs } from '../src/index.js';
import { InvalidToolArgumentsError, NumberPrecisionError, withArgCoercion, withServerArgCoercion, type CoercionReport } from '../src/mcp.js';
import { HAS_PYTHON, NODE_MAJOR, needsPython } from './_helpers/peers.js';

const PEERS = join(import.meta.dirname, 'peers');
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

async function connect(transport: StdioClientTransport | InMemoryTransport, wrap?: (client: Client) => Client): Promise<Client> {
  const client = new Client({ name: 'schema-coerce-test', version: '1.0.0' });
  const wrapped = wrap ? wrap(client) : client;
  await wrapped.connect(transport);
  clients.push(wrapped);
  return wrapped;
}

const strictServer = () => new StdioClientTransport({ command: 'python3', args: [join(PEERS, 'strict_server.py')], stderr: 'pipe' });
const zodServer = (options: object = {}) =>
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(PEERS, 'zod-server.ts')],
    env: { ...(process.env as Record<string, string>), SCHEMA_COERCE_SERVER_OPTIONS: JSON.stringify(options) },
    stderr: 'pipe',
  });

const text = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]!.text);
const hasRawJSON = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';

test('JSON.rawJSON is there exactly on Node 21 and later, so each runtime takes its own branch below', () => {
  expect(hasRawJSON).toBe(NODE_MAJOR >= 21);
});

describe.skipIf(!HAS_PYTHON)(needsPython('withArgCoercion: an SDK client against a strict Python server'), () => {
  test('whole floats for integer fields reach the server as integers', async () => {
    const client = await connect(strictServer(), (c) => withArgCoercion(c));
    const result = await client.callTool({ name: 'get_symbol_info', arguments: parseArgs('{"line":5.0,"column":1.0,"filePath":"server.go"}') as Record<string, unknown> });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('{"column": "int:1", "filePath": "server.go", "line": "int:5"}');
  }, 20_000);

  test('the same call without the library is refused by the strict server', async () => {
    const transport = strictServer();
    const client = await connect(transport);
    // A float64 pipeline's 5.0, written as text by a Python peer: what schema-coerce repairs.
    const result = await client.callTool({ name: 'get_symbol_info', arguments: { line: 5.5, filePath: 'a.go' } });
    expect(text(result)).toBe("Failed to parse literal '5.5' as an int value");
  }, 20_000);

  test('lenient mode repairs "5" for an integer, on a tool found on a later page of tools/list', async () => {
    const reports: CoercionReport[] = [];
    const client = await connect(strictServer(), (c) => withArgCoercion(c, { lenient: true, onCoerce: (report) => reports.push(report) }));
    const result = await client.callTool({ name: 'search', arguments: { q: 'cats', limit: '10' } });
    expect(text(result)).toBe('{"limit": "int:10", "q": "cats"}');
    expect(reports[0]).toMatchObject({ tool: 'search', schemaFound: true, dispatched: true });
    expect(reports[0]!.call!.changes).toEqual([{ path: '/limit', from: '"10"', to: '10', rule: 'string-to-integer' }]);
  }, 20_000);

  test('integers beyond 2^53 are never rounded silently', async () => {
    const args = parseArgs('{"line":9007199254740993,"filePath":"a.go"}') as Record<string, unknown>;
    const exact = await connect(strictServer(), (c) => withArgCoercion(c));
    if (hasRawJSON) {
      expect(text(await exact.callTool({ name: 'get_symbol_info', arguments: args }))).toBe('{"filePath": "a.go", "line": "int:9007199254740993"}');
    } else {
      await expect(exact.callTool({ name: 'get_symbol_info', arguments: args })).rejects.toThrow(NumberPrecisionError);
      const lossy = await connect(strictServer(), (c) => withArgCoercion(c, { lossyNumbers: true }));
      expect(text(await lossy.callTool({ name: 'get_symbol_info', arguments: args }))).toBe('{"filePath": "a.go", "line": "int:9007199254740992"}');
    }
  }, 20_000);

  test('a renamed key is answered with an isError result naming the expected keys, and never dispatched', async () => {
    const client = await connect(strictServer(), (c) => withArgCoercion(c, { validate: true, rejectUndeclared: true }));
    const result = await client.callTool({ name: 'search', arguments: { query: 'cats' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Invalid parameters for tool "search": the parameter names do not match the tool schema.\n' +
        'Expected parameters: q (string, required), limit (integer). You sent undeclared key(s): query (did you mean q?). Missing required: q.\n' +
        'Correct the parameters and call the tool again.',
    );
    expect(text(await client.callTool({ name: 'calls', arguments: {} }))).toMatch(/^calls:0 /);
  }, 20_000);

  test('onInvalid: throw raises InvalidToolArgumentsError; dispatch sends the call anyway', async () => {
    const throwing = await connect(strictServer(), (c) => withArgCoercion(c, { rejectUndeclared: true, onInvalid: 'throw' }));
    await expect(throwing.callTool({ name: 'search', arguments: { query: 'cats', q: 'x' } })).rejects.toThrow(InvalidToolArgumentsError);
    const dispatching = await connect(strictServer(), (c) => withArgCoercion(c, { rejectUndeclared: true, onInvalid: 'dispatch' }));
    expect(text(await dispatching.callTool({ name: 'search', arguments: { query: 'cats', q: 'x' } }))).toBe('{"q": "x", "query": "cats"}');
  }, 20_000);

  test('notifications/tools/list_changed clears the cache; a tool added after connect is found and repaired', async () => {
    const client = await connect(strictServer(), (c) => withArgCoercion(c, { lenient: true }));
    await client.listTools();
    await client.callTool({ name: 'get_symbol_info', arguments: { line: 1, filePath: 'a' } });
    const lists = (counts: string) => Number(/lists:(\d+)/.exec(counts)![1]);
    const before = lists(text(await client.callTool({ name: 'calls', arguments: {} })));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(text(await client.callTool({ name: 'late_tool', arguments: { count: '3' } }))).toBe('{"count": "int:3"}');
    expect(lists(text(await client.callTool({ name: 'calls', arguments: {} })))).toBeGreaterThan(before);
  }, 20_000);

  test('a user handler for list_changed still runs', async () => {
    let heard = 0;
    const client = await connect(strictServer(), (c) => withArgCoercion(c));
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard++;
    });
    await client.callTool({ name: 'add_tool', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toBe(1);
  }, 20_000);

  test('a server that disappears mid-session leads to a pass-through, not a crash', async () => {
    const client = await connect(strictServer(), (c) => withArgCoercion(c, { lenient: true }));
    await client.callTool({ name: 'exit', arguments: {} }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const call = client.callTool({ name: 'never_listed', arguments: { n: '1' } });
    await expect(call).rejects.toThrow();
  }, 20_000);
});

describe('withServerArgCoercion: a zod-validated TypeScript server process', () => {
  test('"5" for an integer reaches the zod-validated tool as 5', async () => {
    const client = await connect(zodServer());
    const result = await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go', tags: '急件' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('{"line":5,"filePath":"a.go","tags":["急件"]}');
    expect(text(await client.callTool({ name: 'toggle', arguments: { enabled: 'false' } }))).toBe('{"enabled":false}');
  }, 30_000);

  test('with lenient mode off, the same call fails zod validation', async () => {
    const client = await connect(zodServer({ lenient: false }));
    const result = await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } });
    expect(result.isError).toBe(true);
  }, 30_000);

  test('rejectUndeclared answers a renamed key with an isError result telling the model what to send', async () => {
    const client = await connect(zodServer({ rejectUndeclared: true }));
    const result = await client.callTool({ name: 'search', arguments: { query: 'cats' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Invalid parameters for tool "search": the parameter names do not match the tool schema.\n' +
        'Expected parameters: q (string, required), limit (integer). You sent undeclared key(s): query (did you mean q?).\n' +
        'Correct the parameters and call the tool again.',
    );
  }, 30_000);
});

describe('withServerArgCoercion: a low-level Server, in memory', () => {
  test('repairs calls against the schemas its own tools/list handler advertises, keeping message order', async () => {
    const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }));
    const seen: unknown[] = [];
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'sum', inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      seen.push(request.params.arguments);
      return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = await connect(clientSide);
    const results = await Promise.all([
      client.callTool({ name: 'sum', arguments: { a: '1', b: 2 } }),
      client.callTool({ name: 'sum', arguments: { a: 3, b: '4' } }),
    ]);
    expect(results.map(text)).toEqual(['{"a":1,"b":2}', '{"a":3,"b":4}']);
    expect(seen).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
  });
});

describe('withArgCoercion: a validator of your own', () => {
  test('any function shaped like validateArgs decides, and its message goes back to the model', async () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const seen: unknown[] = [];
    const client = await connect(clientSide, (c) =>
      withArgCoercion(c, {
        validate: (args) => {
          seen.push(args);
          return String((args as { n: unknown }).n) === '1' ? { ok: true } : { ok: false, message: 'n must be 1' };
        },
      }),
    );
    expect(text(await client.callTool({ name: 'echo', arguments: parseArgs('{"n":1.0}') as Record<string, unknown> }))).toBe('{"n":1}');
    expect(await client.callTool({ name: 'echo', arguments: { n: 2 } })).toEqual({ content: [{ type: 'text', text: 'n must be 1' }], isError: true });
    expect(seen).toHaveLength(2);
  });
});

describe('withArgCoercion: integers beyond 2^53 on this runtime, in memory', () => {
  test(hasRawJSON ? 'JSON.rawJSON writes the exact digits on the wire' : 'without JSON.rawJSON the call fails with NumberPrecisionError, or goes out rounded when allowed', async () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const args = parseArgs('{"id":9007199254740993.0}') as Record<string, unknown>;
    if (hasRawJSON) {
      const client = await connect(clientSide, (c) => withArgCoercion(c));
      expect(text(await client.callTool({ name: 'echo', arguments: args }))).toBe('{"id":9007199254740993}');
    } else {
      const client = await connect(clientSide, (c) => withArgCoercion(c));
      await expect(client.callTool({ name: 'echo', arguments: args })).rejects.toThrow(NumberPrecisionError);
      const [lossyClient, lossyServer] = InMemoryTransport.createLinkedPair();
      const second = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
      second.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } }] }));
      second.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
      await second.connect(lossyServer);
      const lossy = await connect(lossyClient, (c) => withArgCoercion(c, { lossyNumbers: true }));
      expect(text(await lossy.callTool({ name: 'echo', arguments: args }))).toBe('{"id":9007199254740992}');
    }
  });
});
