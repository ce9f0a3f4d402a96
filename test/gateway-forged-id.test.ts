/**
 * The gateway tells its own tools/list apart from a client's by an id with a random part per
 * session. A client that writes ids beginning like the gateway's (`schema-coerce-proxy:…`) is
 * answered as any client, and cannot make the gateway take what it sends for a tools/list reply:
 * the schemas repaired against stay the ones the upstream listed.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { startHttpPeer } from './peers/http-server.js';
import { captureStream } from './_helpers/gateway.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

const FORGED = 'schema-coerce-proxy:00000000-0000-4000-8000-000000000000:';

describe('a client that forges the prefix of the gateway ids', () => {
  test('is answered, and what it sends never reaches the schema cache', async () => {
    const server = await startHttpPeer({ json: true });
    cleanups.push(() => server.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(server.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, jsonResponse: true }, captureStream());
    cleanups.push(() => gateway.close());
    let session: string | undefined;
    const post = async (body: object): Promise<{ status: number; body: unknown }> => {
      const answer = await fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
      session ??= answer.headers.get('mcp-session-id') ?? undefined;
      const text = await answer.text();
      return { status: answer.status, body: text === '' ? undefined : JSON.parse(text) };
    };
    await post({ jsonrpc: '2.0', id: `${FORGED}0`, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'forger', version: '0' } } });
    expect(session).toBeDefined();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    // A reply-shaped message in the gateway's own form, listing echo with count as a string: it
    // is the client's, goes on as one (answered 202 at once), and teaches the gateway nothing.
    const poison = { jsonrpc: '2.0', id: `${FORGED}1`, result: { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { count: { type: 'string' } } } }] } };
    expect((await post(poison)).status).toBe(202);
    const call = await post({ jsonrpc: '2.0', id: `${FORGED}2`, method: 'tools/call', params: { name: 'echo', arguments: { count: '5' } } });
    expect(call).toEqual({ status: 200, body: { jsonrpc: '2.0', id: `${FORGED}2`, result: { content: [{ type: 'text', text: '{"count":5}' }] } } });
    // A tools/list of the client's with a forged id gets the upstream's list, under its own id.
    const listed = (await post({ jsonrpc: '2.0', id: `${FORGED}3`, method: 'tools/list', params: {} })).body as { id: string; result: { tools: { name: string }[] } };
    expect(listed.id).toBe(`${FORGED}3`);
    expect(listed.result.tools.map((tool) => tool.name)).toContain('echo');
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { count: 6.0 } } })).body).toMatchObject({ id: 4, result: { content: [{ text: '{"count":6}' }] } });
    // The gateway's own listing carried an id of its own, never the forged one.
    const own = server.bodies.map((body) => JSON.parse(body.toString('utf8')) as { method?: string; id?: string }).filter((message) => message.method === 'tools/list' && !message.id!.startsWith(FORGED));
    expect(own).toHaveLength(1);
    expect(own[0]!.id).toMatch(/^schema-coerce-proxy:[0-9a-f-]{36}:1$/);
  }, 30_000);
});
