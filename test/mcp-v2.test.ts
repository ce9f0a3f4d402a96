/**
 * The MCP wrappers with SDK v2 (`@modelcontextprotocol/client`, `@modelcontextprotocol/server`),
 * in process: real clients and servers over the SDK's in-memory transport (the server behind
 * `serveStdio`, which serves both eras) and over Streamable HTTP (`createMcpHandler` on
 * `node:http`), in both protocol eras: 2025 (the `initialize` handshake), and 2026-07-28, both
 * negotiated (`server/discover`) and pinned. Then SDK v1 and v2 mixed, the client wrapped after
 * `connect`, a list change heard on a modern `subscriptions/listen` stream, and the `results`
 * option against the output validation of both SDK lines. The same over stdio, with servers in
 * child processes: test/mcp-v2-stdio.test.ts.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer, Server, type McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { parseArgs } from '../src/index.js';
import { NumberPrecisionError, withArgCoercion, withServerArgCoercion, type CoercionReport } from '../src/mcp.js';
import { ERAS, hasRawJSON, text, type Mode } from './_helpers/mcp-eras.js';
import { toolServer } from './peers/v2-tools.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup().catch(() => undefined)));
});

/** A v2 client asking for `mode`, wrapped by `wrap` if given, connected over `transport`. */
async function connect(transport: InMemoryTransport | StreamableHTTPClientTransport, mode: Mode, wrap?: (client: Client) => Client): Promise<Client> {
  const plain = new Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const client = wrap === undefined ? plain : wrap(plain);
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** `factory`'s servers behind `serveStdio` (both eras), over the SDK's in-memory transport: the client's end. */
function inMemory(factory: McpServerFactory): InMemoryTransport {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(factory, { transport: serverSide });
  cleanups.push(() => served.close());
  return clientSide;
}

/** `factory`'s servers behind `createMcpHandler` on 127.0.0.1, every request and response body kept as it came. */
async function http(factory: McpServerFactory) {
  const handler = createMcpHandler(factory);
  const node = toNodeHandler(handler);
  const bodies: string[] = [];
  const replies: string[] = [];
  const server: HttpServer = createServer((request, response) => {
    let reply = '';
    const write = response.write.bind(response) as unknown as (chunk: unknown) => boolean;
    const end = response.end.bind(response) as unknown as (chunk?: unknown) => unknown;
    const decode = (chunk: unknown): string => (typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '');
    response.write = ((chunk: unknown) => ((reply += decode(chunk)), write(chunk))) as unknown as typeof response.write;
    response.end = ((chunk?: unknown) => {
      replies.push(reply + decode(chunk));
      return end(chunk);
    }) as unknown as typeof response.end;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (body !== '') bodies.push(body);
      void node(request as Parameters<typeof node>[0], response, body === '' ? undefined : JSON.parse(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
  cleanups.push(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url, bodies, replies, notify: handler.notify, calls: () => bodies.filter((body) => body.includes('"tools/call"')) };
}

describe.each(ERAS)('withArgCoercion, an SDK v2 client: %s', (_label, mode, era) => {
  test('"5" for an integer reaches the zod-validated tool as 5 (in memory); unwrapped, zod refuses it', async () => {
    const reports: CoercionReport[] = [];
    const client = await connect(inMemory(() => toolServer()), mode, (c) => withArgCoercion(c, { lenient: true, onCoerce: (report) => reports.push(report) }));
    expect(client.getProtocolEra()).toBe(era);
    expect(text(await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } }))).toBe('{"line":5,"filePath":"a.go"}');
    expect(reports).toEqual([expect.objectContaining({ tool: 'goto', schemaFound: true, dispatched: true })]);
    expect(reports[0]!.call!.changes).toEqual([{ path: '/line', from: '"5"', to: '5', rule: 'string-to-integer' }]);
    const bare = await connect(inMemory(() => toolServer()), mode);
    const refused = await bare.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Input validation error: Invalid arguments for tool goto/);
  });

  test('over Streamable HTTP, 5.0 goes out as 5, and an integer beyond 2^53 exactly (or not at all)', async () => {
    const server = await http(() => toolServer());
    const client = await connect(new StreamableHTTPClientTransport(server.url), mode, (c) => withArgCoercion(c));
    expect(client.getProtocolEra()).toBe(era);
    const result = await client.callTool({ name: 'goto', arguments: parseArgs('{"line":5.0,"column":1.0,"filePath":"a.go"}') as Record<string, unknown> });
    expect(text(result)).toBe('{"line":5,"column":1,"filePath":"a.go"}');
    expect(server.calls()[0]).toContain('"arguments":{"line":5,"column":1,"filePath":"a.go"}');
    const big = parseArgs('{"line":9007199254740993,"filePath":"a.go"}') as Record<string, unknown>;
    if (hasRawJSON) {
      await client.callTool({ name: 'goto', arguments: big });
      expect(server.calls()[1]).toContain('"arguments":{"line":9007199254740993,"filePath":"a.go"}');
    } else {
      await expect(client.callTool({ name: 'goto', arguments: big })).rejects.toThrow(NumberPrecisionError);
      expect(server.calls()).toHaveLength(1);
    }
  });

  test('validation refuses a renamed key with an isError result, and the server never hears of it', async () => {
    const server = await http(() => toolServer());
    const client = await connect(new StreamableHTTPClientTransport(server.url), mode, (c) => withArgCoercion(c, { validate: true, rejectUndeclared: true }));
    const result = await client.callTool({ name: 'search', arguments: { query: 'cats' } });
    expect(result.isError).toBe(true);
    expect(text(result).split('\n')[1]).toBe('Expected parameters: q (string, required), limit (integer). You sent undeclared key(s): query (did you mean q?). Missing required: q.');
    expect(server.calls()).toEqual([]);
  });
});

describe.each(ERAS)('withServerArgCoercion, an SDK v2 server: %s', (_label, mode, era) => {
  test('in memory: "5" reaches the zod-validated tool as 5, and the report says so', async () => {
    const reports: CoercionReport[] = [];
    const client = await connect(inMemory(() => toolServer({ onCoerce: (report) => reports.push(report) })), mode);
    expect(client.getProtocolEra()).toBe(era);
    expect(text(await client.callTool({ name: 'search', arguments: { q: 'cats', limit: '10' } }))).toBe('{"q":"cats","limit":10}');
    expect(reports.map((report) => report.call?.changes)).toEqual([[{ path: '/limit', from: '"10"', to: '10', rule: 'string-to-integer' }]]);
  });

  test('over Streamable HTTP, one server per request: the server finds its own schema and repairs the call', async () => {
    const server = await http(() => toolServer({}));
    const client = await connect(new StreamableHTTPClientTransport(server.url), mode);
    expect(text(await client.callTool({ name: 'goto', arguments: { line: '7', filePath: 'b.go' } }))).toBe('{"line":7,"filePath":"b.go"}');
    const strict = await http(() => toolServer({ lenient: false }));
    const refused = await (await connect(new StreamableHTTPClientTransport(strict.url), mode)).callTool({ name: 'goto', arguments: { line: '7', filePath: 'b.go' } });
    expect(refused.isError).toBe(true);
  });

  // A 2026-07-28 client rejects a result without `resultType` ("servers implementing protocol
  // revision 2026-07-28 MUST include it"): the wrapper's own answer carries it in that era.
  test('a call refused by validation is answered with an isError result the client of that era accepts', async () => {
    const server = await http(() => toolServer({ rejectUndeclared: true }));
    const client = await connect(new StreamableHTTPClientTransport(server.url), mode);
    const result = await client.callTool({ name: 'search', arguments: { query: 'cats' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid parameters for tool "search": the parameter names do not match the tool schema\.\n/);
    const reply = server.replies.find((body) => body.includes('Invalid parameters for tool'))!;
    expect(reply.includes('"resultType":"complete"')).toBe(era === 'modern');
  });

  test('a low-level Server: its own tools/list handler gives the schema', async () => {
    const make = () => {
      const server = withServerArgCoercion(new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } }));
      server.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'n', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }] }));
      server.setRequestHandler('tools/call', async (request) => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }));
      return server;
    };
    const client = await connect(inMemory(make), mode);
    expect(text(await client.callTool({ name: 'n', arguments: { n: '3' } }))).toBe('{"n":3}');
  });
});

describe('SDK v1 and v2 together', () => {
  test('a wrapped v1 client and a v2 server (2025 era, over HTTP)', async () => {
    const server = await http(() => toolServer());
    const client = withArgCoercion(new ClientV1({ name: 'v1', version: '1.0.0' }), { lenient: true });
    await client.connect(new HttpTransportV1(server.url));
    cleanups.push(() => client.close());
    expect(text(await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } }))).toBe('{"line":5,"filePath":"a.go"}');
  });

  test('a wrapped v2 client and a wrapped v1 server (in memory)', async () => {
    const server = withServerArgCoercion(new McpServerV1({ name: 'v1', version: '1.0.0' }), { lenient: false });
    server.registerTool('n', { inputSchema: { n: z.number().int() } }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
    const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
    await server.connect(serverSide);
    cleanups.push(() => server.close());
    const client = await connect(clientSide as unknown as InMemoryTransport, 'legacy', (c) => withArgCoercion(c, { lenient: true }));
    expect(text(await client.callTool({ name: 'n', arguments: { n: '4' } }))).toBe('{"n":4}');
  });
});

describe('withArgCoercion: the transport', () => {
  test.each(ERAS)('a client wrapped after connect is repaired all the same (%s)', async (_label, mode) => {
    const client = await connect(inMemory(() => toolServer()), mode);
    withArgCoercion(client, { lenient: true });
    expect(text(await client.callTool({ name: 'goto', arguments: { line: '2', filePath: 'c.go' } }))).toBe('{"line":2,"filePath":"c.go"}');
  });

  test('a tool list change heard on a 2026-07-28 subscriptions/listen stream clears the schemas', async () => {
    const state = { limit: 'string' as 'string' | 'integer' };
    const make = () => {
      const server = new McpServer({ name: 'changing', version: '1.0.0' });
      const limit = state.limit === 'string' ? z.string() : z.number().int();
      server.registerTool('page', { inputSchema: z.object({ limit }) }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
      return server;
    };
    const server = await http(make);
    let heard = 0;
    const plain = new Client({ name: 'v2-test', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      listChanged: { tools: { onChanged: () => heard++, autoRefresh: false } },
    });
    const client = withArgCoercion(plain, { lenient: true });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    cleanups.push(() => client.close());
    expect(text(await client.callTool({ name: 'page', arguments: { limit: '10' } }))).toBe('{"limit":"10"}');
    state.limit = 'integer';
    await expect.poll(() => client.autoOpenedSubscription).toBeDefined();
    server.notify.toolsChanged();
    await expect.poll(() => heard).toBe(1);
    expect(text(await client.callTool({ name: 'page', arguments: { limit: '10' } }))).toBe('{"limit":10}');
  });
});

describe('withArgCoercion results: an error result whose structuredContent has another shape', () => {
  const validator = new AjvJsonSchemaValidator();
  const outputSchema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };

  test('SDK v1 rejects the whole result (-32602) without the option, and gets the error text with it', async () => {
    const server = await http(() => toolServer());
    const bare = new ClientV1({ name: 'v1', version: '1.0.0' });
    await bare.connect(new HttpTransportV1(server.url));
    cleanups.push(() => bare.close());
    await bare.listTools();
    await expect(bare.callTool({ name: 'fails', arguments: {} })).rejects.toThrow(
      "MCP error -32602: Structured content does not match the tool's output schema: data must have required property 'count'",
    );
    const reports: CoercionReport[] = [];
    const client = withArgCoercion(new ClientV1({ name: 'v1', version: '1.0.0' }), { results: true, onCoerce: (report) => reports.push(report) });
    await client.connect(new HttpTransportV1(server.url));
    cleanups.push(() => client.close());
    await client.listTools();
    const result = await client.callTool({ name: 'fails', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'NOT_FOUND: no such directory' }], isError: true });
    expect(reports.at(-1)!.result!.changes).toEqual([
      { path: '/structuredContent', from: '{"error":{"code":"NOT_FOUND","message":"no such directory"}}', to: '', rule: 'error-structured-content' },
    ]);
    expect(reports.at(-1)!.result!.errors.map((error) => error.keyword)).toEqual(['required', 'additionalProperties']);
  });

  test.each(ERAS)('SDK v2 (%s) hands it on unchecked without the option; with it, the error text alone', async (_label, mode) => {
    const server = await http(() => toolServer());
    const bare = await connect(new StreamableHTTPClientTransport(server.url), mode);
    await bare.listTools();
    const unrepaired = await bare.callTool({ name: 'fails', arguments: {} });
    expect(unrepaired.isError).toBe(true);
    expect(validator.getValidator(outputSchema as never)(unrepaired.structuredContent).valid).toBe(false);
    const wrapped = await connect(new StreamableHTTPClientTransport(server.url), mode, (c) => withArgCoercion(c));
    expect((await wrapped.callTool({ name: 'fails', arguments: {} })).structuredContent).toEqual(unrepaired.structuredContent);
    const reports: CoercionReport[] = [];
    const client = await connect(new StreamableHTTPClientTransport(server.url), mode, (c) => withArgCoercion(c, { results: true, onCoerce: (report) => reports.push(report) }));
    const result = await client.callTool({ name: 'fails', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toBe('NOT_FOUND: no such directory');
    expect(reports.map((report) => report.result?.changes.map((change) => change.rule))).toEqual([undefined, ['error-structured-content']]);
    expect(reports[1]).toMatchObject({ tool: 'fails', schemaFound: true, dispatched: true });
  });

  test('a result that matches passes as it came, reported with no change; a tool without an output schema is not reported', async () => {
    const server = await http(() => toolServer());
    const reports: CoercionReport[] = [];
    const client = await connect(new StreamableHTTPClientTransport(server.url), { pin: '2026-07-28' }, (c) => withArgCoercion(c, { results: true, onCoerce: (report) => reports.push(report) }));
    const result = await client.callTool({ name: 'count_files', arguments: { dir: '.' } });
    expect(result.structuredContent).toEqual({ count: 3 });
    await client.callTool({ name: 'search', arguments: { q: 'x' } });
    expect(reports.filter((report) => report.result !== undefined).map((report) => [report.tool, report.result!.changes])).toEqual([['count_files', []]]);
  });

  test('a validator given as validate judges error results too', async () => {
    const server = await http(() => toolServer());
    const judged: unknown[] = [];
    const validate = (args: unknown) => {
      judged.push(args);
      return { ok: true };
    };
    const client = await connect(new StreamableHTTPClientTransport(server.url), 'legacy', (c) => withArgCoercion(c, { results: true, validate }));
    const result = await client.callTool({ name: 'fails', arguments: {} });
    expect(result.structuredContent).toEqual({ error: { code: 'NOT_FOUND', message: 'no such directory' } });
    expect(judged).toEqual([{}, { error: { code: 'NOT_FOUND', message: 'no such directory' } }]);
  });
});
