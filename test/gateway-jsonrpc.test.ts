/**
 * Every POSTed message gets an answer from the gateway, over real sockets: one that is not
 * JSON-RPC 2.0 as MCP writes it (fixtures/gateway/invalid-messages.json; 100,000 levels of
 * nesting; a surrogate encoded raw) is answered 400 with the error naming why, and never reaches
 * the server, whether a stdio server (its log of every line it read) or a `--url` one (what it
 * received). Before this check such a message was answered 202 and dropped, or forwarded and
 * never answered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream, initializeBody, POST_HEADERS, rawRequest } from './_helpers/gateway.js';
import { loadFixtures } from './_helpers/fixtures.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startBrokenUpstream } from './peers/broken-upstream.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

interface Invalid {
  readonly name: string;
  readonly body: string;
  readonly status: number;
  readonly error: { readonly code: number; readonly message: string };
  readonly id: string | number | null;
}
const [invalid] = loadFixtures<Invalid>('gateway').filter(({ file }) => file.endsWith('invalid-messages.json'));
const DEEP = `{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"echo","arguments":{"n":1,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`;
const RAW_SURROGATE = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"echo","arguments":{"n":1,"s":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}}')]);
const GOOD_CALL = '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"echo","arguments":{"n":1,"s":"\\ud83d\\ude00"}}}';

/** Every bad message, with the answer it must get. */
const BAD: readonly { name: string; body: string | Buffer; status: number; answer: object }[] = [
  ...invalid!.cases.map((row) => ({ name: row.name, body: row.body, status: row.status, answer: { jsonrpc: '2.0', id: row.id, error: row.error } })),
  { name: '100,000 levels', body: DEEP, status: 400, answer: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the message nests deeper than 128 levels' } } },
  { name: 'a surrogate encoded raw', body: RAW_SURROGATE, status: 400, answer: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the body is not valid UTF-8' } } },
];

async function postEach(url: string, session: string): Promise<void> {
  for (const bad of BAD) {
    const answer = await rawRequest(url, { headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body: bad.body });
    expect([answer.status, JSON.parse(answer.body)], bad.name).toEqual([bad.status, bad.answer]);
  }
}

describe('a message that is not JSON-RPC 2.0 is answered 400 and never forwarded', () => {
  test('in front of a stdio server: the server reads only the valid messages', async () => {
    const log = join(makeTempDir('schema-coerce-gateway-'), 'received.jsonl');
    const gateway = await startGateway({ kind: 'stdio', command: ['env', `LOG_FILE=${log}`, process.execPath, SERVER] }, { host: '127.0.0.1', port: 0, path: '/mcp', jsonResponse: true }, captureStream());
    cleanups.push(() => gateway.close());
    // Checked before anything else: without a session too.
    const before = await rawRequest(gateway.url, { headers: POST_HEADERS, body: BAD[0]!.body });
    expect([before.status, JSON.parse(before.body)]).toEqual([BAD[0]!.status, BAD[0]!.answer]);
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const session = init.headers['mcp-session-id'] as string;
    await postEach(gateway.url, session);
    const good = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, 'mcp-session-id': session }, body: GOOD_CALL });
    expect(JSON.parse(good.body)).toEqual({ jsonrpc: '2.0', id: 99, result: { content: [{ type: 'text', text: 'n:1' }] } });
    const received = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id?: unknown; method?: string });
    expect(received.map((message) => [message.id, message.method])).toEqual([
      [1, 'initialize'],
      [expect.stringMatching(/^schema-coerce-proxy:/), 'tools/list'],
      [99, 'tools/call'],
    ]);
  }, 60_000);

  test('in front of a --url server: the upstream receives only the valid messages', async () => {
    const upstream = await startBrokenUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway({ kind: 'url', url: new URL(upstream.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp' }, captureStream());
    cleanups.push(() => gateway.close());
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    await postEach(gateway.url, init.headers['mcp-session-id'] as string);
    expect(upstream.received.map((received) => received.message.method)).toEqual(['initialize']);
  }, 60_000);
});
