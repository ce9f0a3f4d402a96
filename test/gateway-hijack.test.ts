/**
 * Sessions bound to the caller that opened them (the MCP specification's advice against session
 * hijacking): with another client's `Mcp-Session-Id`, a caller with a different `Authorization`,
 * with none, or from another address is answered 404 `Session not found`, for a POST, a GET
 * stream and a DELETE, exactly as for a session that does not exist, and nothing reaches the
 * server; the owner's session goes on. The SDK client resumes another's session with its
 * `sessionId` option, as a client that learned the id would. In front of a `--url` server the
 * session is bound to the client's address on the replica that saw it opened, and a refreshed
 * token from the same client keeps it (the upstream judges the token). Before, any caller with
 * the id could call on the session, read its stream and end it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream, initializeBody, POST_HEADERS, rawRequest } from './_helpers/gateway.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startBrokenUpstream } from './peers/broken-upstream.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

const NOT_FOUND = { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } };
const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'echo', arguments: { n: 50 } } });

async function client(url: string, headers: Record<string, string>, sessionId?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, ...(sessionId === undefined ? {} : { sessionId }) });
  const connected = new Client({ name: 'gateway-hijack-test', version: '1.0.0' });
  await connected.connect(transport);
  cleanups.push(() => connected.close());
  return { client: connected, transport };
}

/** A POST, a GET and a DELETE naming `session`, as another caller: each answer. */
async function asAnother(url: string, session: string, caller: { authorization?: string; from?: string }): Promise<[number, unknown][]> {
  const headers = { 'mcp-session-id': session, ...(caller.authorization === undefined ? {} : { authorization: caller.authorization }) };
  const answers = [
    await rawRequest(url, { headers: { ...POST_HEADERS, ...headers }, body: CALL, ...(caller.from === undefined ? {} : { from: caller.from }) }),
    await rawRequest(url, { method: 'GET', headers: { accept: 'text/event-stream', ...headers }, ...(caller.from === undefined ? {} : { from: caller.from }) }),
    await rawRequest(url, { method: 'DELETE', headers, ...(caller.from === undefined ? {} : { from: caller.from }) }),
  ];
  return answers.map((answer) => [answer.status, JSON.parse(answer.body)]);
}

const REFUSED = [
  [404, NOT_FOUND],
  [404, NOT_FOUND],
  [404, NOT_FOUND],
];

describe('a stdio session answers only the caller that opened it', () => {
  test('another Authorization, none, or another address: 404 for POST, GET and DELETE; nothing reaches the server; the owner goes on', async () => {
    const log = join(makeTempDir('schema-coerce-gateway-'), 'received.jsonl');
    const gateway = await startGateway({ kind: 'stdio', command: ['env', `LOG_FILE=${log}`, process.execPath, SERVER] }, { host: '127.0.0.1', port: 0, path: '/mcp' }, captureStream());
    cleanups.push(() => gateway.close());
    const owner = await client(gateway.url, { authorization: 'Bearer alice' });
    expect(text(await owner.client.callTool({ name: 'echo', arguments: { n: 1 } }))).toBe('n:1');
    const session = owner.transport.sessionId!;
    // The SDK client, resuming the session by its id with another token.
    const thief = await client(gateway.url, { authorization: 'Bearer mallory' }, session);
    await expect(thief.client.callTool({ name: 'echo', arguments: { n: 2 } })).rejects.toMatchObject({ code: 404 });
    await expect(thief.transport.terminateSession()).rejects.toMatchObject({ code: 404 });
    expect(await asAnother(gateway.url, session, { authorization: 'Bearer mallory' })).toEqual(REFUSED);
    expect(await asAnother(gateway.url, session, {})).toEqual(REFUSED);
    expect(await asAnother(gateway.url, session, { authorization: 'Bearer alice', from: '127.0.0.2' })).toEqual(REFUSED);
    // The same answer as for a session that does not exist: nothing tells the two apart.
    expect(await asAnother(gateway.url, '6a1f0e58-0000-4000-8000-000000000000', { authorization: 'Bearer alice' })).toEqual(REFUSED);
    expect(text(await owner.client.callTool({ name: 'echo', arguments: { n: 3 } }))).toBe('n:3');
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { params?: { arguments?: { n?: number } } });
    expect(calls.map((message) => message.params?.arguments?.n).filter((n) => n !== undefined)).toEqual([1, 3]);
    await owner.transport.terminateSession();
    expect((await rawRequest(gateway.url, { headers: { ...POST_HEADERS, authorization: 'Bearer alice', 'mcp-session-id': session }, body: CALL })).status).toBe(404);
  }, 60_000);
});

describe('a --url session answers only the client that opened it, on the replica that saw it opened', () => {
  test('another address: 404 and nothing forwarded; the same client with a refreshed token: forwarded; a session opened elsewhere: forwarded', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse: true }, captureStream());
    cleanups.push(() => gateway.close());
    const init = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, authorization: 'Bearer alice' }, body: initializeBody() });
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toBe('s-1');
    expect(await asAnother(gateway.url, session, { authorization: 'Bearer alice', from: '127.0.0.2' })).toEqual(REFUSED);
    expect(upstream.received.map((received) => received.message.method)).toEqual(['initialize']);
    const refreshed = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, authorization: 'Bearer alice-2', 'mcp-session-id': session }, body: CALL });
    expect(JSON.parse(refreshed.body)).toMatchObject({ id: 50, result: { content: [{ text: 'echoed' }] } });
    const elsewhere = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, 'mcp-session-id': 's-opened-elsewhere' }, body: CALL, from: '127.0.0.2' });
    expect(JSON.parse(elsewhere.body)).toMatchObject({ id: 50, result: { content: [{ text: 'echoed' }] } });
  }, 60_000);
});
