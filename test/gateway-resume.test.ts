/**
 * Resumable streams through `gateway --url`: the upstream's SSE event ids reach the client, on a
 * POST's answer and on the GET stream, and a client's `Last-Event-ID` reaches the upstream, so
 * the client resumes where it broke off (the upstream replays; the gateway keeps no events).
 * The upstream is a plain Node server writing the events by hand, so the ids are known.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

test('SSE event ids come through and Last-Event-ID goes on to the upstream, which resumes from it', async () => {
  const gets: IncomingHttpHeaders[] = [];
  const upstream = createServer((request, response) => {
    const sse = (events: string): void => void response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-1' }).end(events);
    if (request.method === 'GET') {
      gets.push(request.headers);
      // Replays what follows the client's last event: e3 after e2, else from e2 on.
      const after = request.headers['last-event-id'];
      const events = [
        ['e2', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"two"}}'],
        ['e3', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"three"}}'],
      ].filter(([id]) => after === undefined || id! > after);
      return sse(events.map(([id, data]) => `id: ${id}\nevent: message\ndata: ${data}\n\n`).join(''));
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { id, method } = JSON.parse(body) as { id?: number; method: string };
      if (id === undefined) return void response.writeHead(202).end();
      const result = method === 'tools/list' ? '{"tools":[]}' : '{}';
      sse(`id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":${id},"result":${result}}\n\n`);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  const gateway = await startGateway({ kind: 'url', url: new URL(url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp' }, captureStream());
  cleanups.push(() => gateway.close());
  const headers = { 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-06-18' };

  const posted = await fetch(gateway.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  expect(posted.headers.get('content-type')).toBe('text/event-stream');
  expect(await posted.text()).toBe('id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');

  const first = await fetch(gateway.url, { headers: { ...headers, accept: 'text/event-stream' } });
  expect(await first.text()).toMatch(/^id: e2\nevent: message\ndata: .*"two".*\n\nid: e3\nevent: message\ndata: .*"three".*\n\n$/);
  const resumed = await fetch(gateway.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': 'e2' } });
  expect(await resumed.text()).toMatch(/^id: e3\nevent: message\ndata: .*"three".*\n\n$/);
  expect(gets.map((seen) => seen['last-event-id'])).toEqual([undefined, 'e2']);
  expect(gets.every((seen) => seen['mcp-session-id'] === 'session-1')).toBe(true);
}, 30_000);
