/**
 * `schema-coerce gateway --url`: the SDK's Streamable HTTP client → the gateway → a Streamable
 * HTTP server built with the SDK (zod validation, so `"7"` for an integer is refused directly).
 * The client's session id and Authorization reach the upstream; the gateway keeps no state a
 * request needs, so a second replica serves a session the first one opened.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { captureStream } from './_helpers/gateway.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { startHttpPeer, type HttpPeer } from './peers/http-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});


async function gatewayTo(peer: HttpPeer, flags: { lenient?: boolean; jsonResponse?: boolean } = {}, stderr = captureStream()): Promise<Gateway> {
  const gateway = await startGateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: flags.lenient ?? true, ...(flags.jsonResponse === undefined ? {} : { jsonResponse: flags.jsonResponse }) }, stderr);
  cleanups.push(() => gateway.close());
  return gateway;
}

async function peer(options: Parameters<typeof startHttpPeer>[0]): Promise<HttpPeer> {
  const started = await startHttpPeer(options);
  cleanups.push(() => started.close());
  return started;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'gateway-url-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe.each([
  ['SSE', false, false],
  ['JSON', true, true],
])('gateway --url, upstream and gateway answering with %s', (_kind, json, jsonResponse) => {
  test('"7" and 7.0 for an integer arrive as 7 where the server refuses "7" directly; list_changed flows', async () => {
    const server = await peer({ json });
    const direct = await connect(server.url);
    expect((await direct.callTool({ name: 'echo', arguments: { count: '7' } })).isError).toBe(true);
    const gateway = await gatewayTo(server, { jsonResponse });
    const client = await connect(gateway.url);
    const result = await client.callTool({ name: 'echo', arguments: { count: '7', tags: ['a'] } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('{"count":7,"tags":["a"]}');
    expect(text(await client.callTool({ name: 'echo', arguments: { count: 7.0 } }))).toBe('{"count":7}');
    const posted = server.bodies.map((body) => body.toString('utf8')).filter((body) => body.includes('"echo"'));
    expect(posted.slice(-2).map((body) => JSON.parse(body).params.arguments)).toEqual([{ count: 7, tags: ['a'] }, { count: 7 }]);
    expect(posted.at(-1)).toContain('"arguments":{"count":7}');
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    expect(text(await client.callTool({ name: 'late', arguments: { n: '2' } }))).toBe('{"n":2}');
  }, 30_000);
});

describe('gateway --url, headers and replicas', () => {
  test("the client's Authorization reaches the upstream, and no log line names it", async () => {
    const server = await peer({ json: false, header: ['authorization', 'Bearer client-t0ken'] });
    const stderr = captureStream();
    const gateway = await gatewayTo(server, { lenient: true }, stderr);
    const client = await connect(gateway.url, { authorization: 'Bearer client-t0ken' });
    expect(text(await client.callTool({ name: 'echo', arguments: { count: '3' } }))).toBe('{"count":3}');
    await expect(connect(gateway.url, { authorization: 'Bearer wrong' })).rejects.toMatchObject({ code: 401 });
    expect(stderr.text()).not.toContain('t0ken');
  }, 30_000);

  test('a replica that has not seen the session lists its tools for it before it repairs', async () => {
    const server = await peer({ json: true });
    const first = await gatewayTo(server, { jsonResponse: true });
    const second = await gatewayTo(server, { jsonResponse: true });
    const post = (url: string, body: object, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) },
        body: JSON.stringify(body),
      });
    const init = await post(first.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-06-18');
    expect((await post(second.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    const called = await post(second.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { count: '5' } } }, session);
    expect(await called.json()).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"count":5}' }] } });
    const lists = server.bodies.map((body) => JSON.parse(body.toString('utf8')) as { method?: string; id?: string }).filter((message) => message.method === 'tools/list');
    expect(lists).toHaveLength(1);
    expect(lists[0].id).toMatch(/^schema-coerce-proxy:/);
  }, 30_000);
});
