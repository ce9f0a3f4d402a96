/**
 * A `--url` upstream that ends its answer to a call without the response (it dies halfway
 * through an SSE answer, or answers the request 202 with nothing): the SDK's Streamable HTTP
 * client gets a JSON-RPC error `-32000` naming the upstream, from the gateway, at once, never an
 * empty `202` (which left the client waiting until its own timeout). One that dies halfway
 * through a JSON answer, which goes through unread as it comes, has it broken off at the client,
 * which fails the call at once. The gateway goes on serving the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';
import { startBrokenUpstream } from './peers/broken-upstream.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

describe.each([
  ['SSE', false],
  ['JSON', true],
])('gateway --url, the client taking %s answers: an upstream that ends its answer without the response', (_kind, jsonResponse) => {
  test.each(['die-sse', 'empty'])('%s: the call gets -32000 naming the upstream; the next call is served', async (tool) => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const stderr = captureStream();
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse }, stderr);
    cleanups.push(() => gateway.close());
    const client = new Client({ name: 'gateway-faults-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    cleanups.push(() => client.close());
    const begun = Date.now();
    const failed = await client.callTool({ name: tool, arguments: {} }, undefined, { timeout: 20_000 }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; message?: string },
    );
    expect(Date.now() - begun).toBeLessThan(10_000);
    expect(failed?.code).toBe(-32000);
    expect(failed?.message).toMatch(new RegExp(`schema-coerce gateway: ${upstream.url.replace(/[.]/g, '\\.')} ended its answer \\(HTTP (200|202)\\) without the response`));
    expect(await client.callTool({ name: 'echo', arguments: { n: 1 } })).toMatchObject({ content: [{ text: 'echoed' }] });
  }, 30_000);

  test('die-json: a JSON answer already going through unread is broken off at the client, which fails the call at once; the next call is served', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse }, captureStream());
    cleanups.push(() => gateway.close());
    const client = new Client({ name: 'gateway-faults-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    cleanups.push(() => client.close());
    const begun = Date.now();
    await expect(client.callTool({ name: 'die-json', arguments: {} }, undefined, { timeout: 20_000 })).rejects.toThrow(/terminated/);
    expect(Date.now() - begun).toBeLessThan(10_000);
    expect(await client.callTool({ name: 'echo', arguments: { n: 1 } })).toMatchObject({ content: [{ text: 'echoed' }] });
  }, 30_000);
});
