/**
 * The `--url` upstream behind a Starlette-style router, which answers `307` from `/mcp` to
 * `/mcp/` (Python SDK and FastMCP servers): same-origin redirects are followed with the method,
 * body, session id and headers; a redirect to another origin is refused and nothing is sent there.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { fetchFollowing, RedirectRefused } from '../src/adapters/proxy/redirects.js';
import { BIN } from './_helpers/run.js';
import { startHttpPeer } from './peers/http-server.js';
import { startSlashRedirect } from './peers/slash-redirect.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close().catch(() => undefined)));
});

const INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}\n';

describe('proxy --url behind a 307 to /mcp/', () => {
  test.each([
    ['SSE', false],
    ['JSON', true],
  ])('same origin, %s responses: every request follows it with its body, session id and headers', async (_kind, json) => {
    const server = await startHttpPeer({ json, header: ['authorization', 'Bearer t0k'] });
    cleanups.push(() => server.close());
    const front = await startSlashRedirect(server.url);
    cleanups.push(() => front.close());
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'proxy', '--url', front.url, '--header', 'Authorization: Bearer t0k', '--header', 'X-Team: blue'], stderr: 'pipe' });
    const client = new Client({ name: 'redirect-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'echo', arguments: { count: 7.0, tags: ['x'] } });
    expect((result.content as { text: string }[])[0]!.text).toBe('{"count":7,"tags":["x"]}');
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const followed = front.seen.filter((request) => request.path === '/mcp/');
    const redirected = front.seen.filter((request) => request.path === '/mcp');
    // Each request met the redirect once and was sent again whole (the GET stream runs alongside).
    const sent = (requests: typeof followed) => requests.map((request) => `${request.method} ${request.body}`).sort();
    expect(sent(followed)).toEqual(sent(redirected));
    expect(followed.map((request) => request.method)).toEqual(expect.arrayContaining(['POST', 'GET', 'DELETE']));
    expect(followed.find((request) => request.body.includes('tools/call'))!.body).toContain('"count":7,');
    for (const request of followed) {
      expect(request.headers.authorization).toBe('Bearer t0k');
      expect(request.headers['x-team']).toBe('blue');
    }
    const sessionId = followed.find((request) => request.method === 'DELETE')!.headers['mcp-session-id'];
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(followed.filter((request) => !request.body.includes('"initialize"')).every((request) => request.headers['mcp-session-id'] === sessionId)).toBe(true);
    expect(server.deletes).toEqual([sessionId]);
  }, 30_000);

  test('another origin: the call is answered with an error naming it, and nothing is sent there', async () => {
    const elsewhere = await startSlashRedirect(undefined);
    cleanups.push(() => elsewhere.close());
    const front = await startSlashRedirect(undefined, () => elsewhere.origin);
    cleanups.push(() => front.close());
    const child = spawn(process.execPath, [BIN, 'proxy', '--url', front.url, '--header', 'Authorization: Bearer s3cret']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(INITIALIZE);
    expect(await closed).toBe(0);
    const reason = `${front.url} redirected to another origin (${elsewhere.origin}): not followed`;
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: `schema-coerce proxy: ${reason}` } });
    expect(stderr).toBe(`schema-coerce proxy: ${reason}\n`);
    expect(elsewhere.seen).toEqual([]);
    expect(front.seen.map((request) => request.path)).toEqual(['/mcp']);
  }, 30_000);
});

describe('fetchFollowing', () => {
  test('a redirect without a Location, and one that loops, are refused by name', async () => {
    const { createServer } = await import('node:http');
    const http = createServer((request, response) => {
      if (request.url === '/none') response.writeHead(308).end();
      else response.writeHead(307, { location: request.url === '/loop' ? '/loop' : 'http://[bad' }).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => http.close(resolve)));
    const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    const refusal = (path: string) => fetchFollowing(new URL(path, origin), { method: 'POST', headers: {}, body: Buffer.from('{}') }).catch((error: unknown) => error);
    const [none, loop, bad] = await Promise.all([refusal('/none'), refusal('/loop'), refusal('/bad')]);
    expect(none).toEqual(new RedirectRefused('answered HTTP 308 without a usable Location'));
    expect(loop).toEqual(new RedirectRefused('redirected more than 5 times'));
    expect(bad).toEqual(new RedirectRefused('answered HTTP 307 without a usable Location'));
    expect(none).toBeInstanceOf(RedirectRefused);
  });
});
