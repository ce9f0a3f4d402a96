/**
 * The gateway's metrics and audit log, fed by one event per call: SDK v1 and v2 clients through
 * the gateway to a `--url` SDK server and to the strict Python stdio server; what `/metrics` says
 * (Prometheus text) and what the audit log holds (values left out unless asked for, no token, no
 * session id); the metrics listener's guards.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import type { GatewayOptions, GatewayUpstream } from '../src/adapters/gateway/options.js';
import { captureStream, STRICT_SERVER } from './_helpers/gateway.js';
import { connect, isErrorResult, V2_STDIO } from './_helpers/modern.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startHttpPeer } from './peers/http-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

const TOKEN = 'Bearer secret-token-4f1d0c';
const PYTHON: GatewayUpstream = { kind: 'stdio', command: ['python3', STRICT_SERVER] };

async function gateway(upstream: GatewayUpstream, options: Partial<GatewayOptions>): Promise<Gateway> {
  const started = await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, metrics: { host: '127.0.0.1', port: 0 }, ...options }, captureStream());
  cleanups.push(() => started.close());
  return started;
}

async function urlPeer(): Promise<GatewayUpstream> {
  const peer = await startHttpPeer({});
  cleanups.push(() => peer.close());
  return { kind: 'url', url: new URL(peer.url), headers: {} };
}

/** An SDK v1 client sending `Authorization`, as a client of a protected server does. */
async function v1Client(url: string): Promise<Client> {
  const client = new Client({ name: 'observe-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: TOKEN } } }));
  cleanups.push(() => client.close());
  return client;
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url, { headers });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

/** The value of one sample of the exposition, by its name and labels as written. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const auditOf = (file: string): Record<string, unknown>[] => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

/** Four calls: one repaired, one as it came, one with a value the repair refuses (the server refuses it), one the gateway answers itself. */
async function fourCalls(client: Client): Promise<void> {
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(false);
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: 7 } }))).toBe(false);
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: 'seven' } }))).toBe(true);
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: 1, colour: 'blue' } }))).toBe(true);
}

describe('an SDK v1 client through the gateway to a --url SDK server', () => {
  test('/metrics counts calls by outcome, repairs by rule, refusals by reason, both latencies, sessions, requests and bytes', async () => {
    const started = await gateway(await urlPeer(), { rejectUndeclared: true });
    await fourCalls(await v1Client(started.url));
    const { status, text, type } = await scrape(started.metricsUrl!);
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const m = 'schema_coerce_gateway_';
    expect(sample(text, `${m}calls_total{tool="echo",outcome="repaired"}`)).toBe(1);
    expect(sample(text, `${m}calls_total{tool="echo",outcome="forwarded"}`)).toBe(2);
    expect(sample(text, `${m}calls_total{tool="echo",outcome="refused"}`)).toBe(1);
    expect(sample(text, `${m}repairs_total{tool="echo",rule="string-to-integer"}`)).toBe(1);
    expect(sample(text, `${m}refusals_total{tool="echo",reason="unconvertible"}`)).toBe(1);
    expect(sample(text, `${m}call_duration_seconds_count{tool="echo",part="gateway"}`)).toBe(4);
    // The call the gateway answered never reached the upstream.
    expect(sample(text, `${m}call_duration_seconds_count{tool="echo",part="upstream"}`)).toBe(3);
    expect(sample(text, `${m}call_duration_seconds_bucket{tool="echo",part="upstream",le="+Inf"}`)).toBe(3);
    expect(sample(text, `${m}sessions`)).toBe(1);
    expect(sample(text, `${m}children`)).toBe(0);
    expect(sample(text, `${m}http_requests_total{method="POST",status="200"}`)).toBeGreaterThanOrEqual(5);
    expect(sample(text, `${m}bytes_total{direction="received"}`)).toBeGreaterThan(500);
    expect(sample(text, `${m}bytes_total{direction="sent"}`)).toBeGreaterThan(500);
    expect(text).toContain(`# TYPE ${m}call_duration_seconds histogram`);
    expect(text).not.toContain('secret-token');
  });

  test('the audit log: one line per call, the rules and paths, values left out, no token and no session id', async () => {
    const file = join(makeTempDir('audit-'), 'audit.jsonl');
    const started = await gateway(await urlPeer(), { rejectUndeclared: true, audit: file });
    await fourCalls(await v1Client(started.url));
    await started.close();
    const lines = auditOf(file);
    expect(lines.map((line) => line['outcome'])).toEqual(['repaired', 'forwarded', 'forwarded', 'refused']);
    expect(lines[0]).toMatchObject({ tool: 'echo', changes: [{ path: '/count', rule: 'string-to-integer' }], refusals: [], client: { address: '127.0.0.1' } });
    expect(lines[0]!['changes']).toEqual([{ path: '/count', rule: 'string-to-integer' }]);
    expect(lines[2]!['refusals']).toEqual([{ path: '/count', reason: 'unconvertible' }]);
    expect((lines[0]!['client'] as { session: string }).session).toMatch(/^[\da-f]{16}$/);
    for (const line of lines) expect(typeof line['gatewayMs']).toBe('number');
    expect(lines.map((line) => typeof line['upstreamMs'])).toEqual(['number', 'number', 'number', 'undefined']);
    const whole = readFileSync(file, 'utf8');
    for (const secret of ['secret-token', 'seven', 'blue', '"7"']) expect(whole).not.toContain(secret);
    expect(whole).not.toContain('arguments');
  });

  test('--audit-values: the arguments as sent, each change from and to, each refusal and answer with its message', async () => {
    const file = join(makeTempDir('audit-'), 'audit.jsonl');
    const started = await gateway(await urlPeer(), { rejectUndeclared: true, audit: file, auditValues: true });
    await fourCalls(await v1Client(started.url));
    await started.close();
    const lines = auditOf(file);
    expect(lines[0]).toMatchObject({ arguments: { count: '7' }, changes: [{ path: '/count', rule: 'string-to-integer', from: '"7"', to: '7' }] });
    expect((lines[2]!['refusals'] as { message: string }[])[0]!.message).toContain('seven');
    expect(lines[3]!['answer']).toContain('colour');
    expect(readFileSync(file, 'utf8')).not.toContain('secret-token');
  });
});

describe('the operator\'s controls as outcomes', () => {
  test('a call the tool policy denies is "denied", one past a tool\'s rate limit "rate-limited": counted in /metrics, audited with the rule, never sent (no upstream time)', async () => {
    const file = join(makeTempDir('audit-'), 'audit.jsonl');
    const started = await gateway(await urlPeer(), { audit: file, toolPolicy: { deny: ['add_*'] }, rateLimits: { tools: ['echo=1/h'] } });
    const client = await v1Client(started.url);
    expect(isErrorResult(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe(true);
    expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(false);
    expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(true);
    const { text } = await scrape(started.metricsUrl!);
    const m = 'schema_coerce_gateway_';
    expect(sample(text, `${m}calls_total{tool="add_tool",outcome="denied"}`)).toBe(1);
    expect(sample(text, `${m}calls_total{tool="echo",outcome="repaired"}`)).toBe(1);
    expect(sample(text, `${m}calls_total{tool="echo",outcome="rate-limited"}`)).toBe(1);
    // Only the call that was sent was repaired: a refused one's arguments are never looked at.
    expect(sample(text, `${m}repairs_total{tool="echo",rule="string-to-integer"}`)).toBe(1);
    await started.close();
    const lines = auditOf(file);
    expect(lines.map((line) => [line['tool'], line['outcome'], typeof line['upstreamMs']])).toEqual([['add_tool', 'denied', 'undefined'], ['echo', 'repaired', 'number'], ['echo', 'rate-limited', 'undefined']]);
    expect(lines[0]!['answer']).toBe('the tool "add_tool" is denied by the gateway\'s tool policy (--deny-tool "add_*")');
    expect(lines[2]!['answer']).toMatch(/^the tool "echo" is rate limited by the gateway \(--tool-rate-limit "echo=1\/h"\): try again in \d+ s$/);
    expect(lines[2]!['changes']).toEqual([]);
  });
});

test('a client\'s W3C traceparent and tracestate headers reach a --url upstream (which here refuses a request without them)', async () => {
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const peer = await startHttpPeer({ header: ['traceparent', traceparent] });
  cleanups.push(() => peer.close());
  const file = join(makeTempDir('audit-'), 'audit.jsonl');
  const started = await gateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { audit: file });
  const client = new Client({ name: 'observe-trace', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(started.url), { requestInit: { headers: { traceparent, tracestate: 'vendor=1' } } }));
  cleanups.push(() => client.close());
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { count: '2' } }))).toBe(false);
  await client.close();
  await started.close();
  expect(auditOf(file)).toMatchObject([{ tool: 'echo', outcome: 'repaired', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }]);
});

describe('SDK v2 clients through the gateway to stdio servers', () => {
  test('to an SDK v2 server, a session and a request without one (2026-07-28): each call audited, the server processes counted', async () => {
    const file = join(makeTempDir('audit-'), 'audit.jsonl');
    const started = await gateway({ kind: 'stdio', command: V2_STDIO }, { audit: file });
    const legacy = await connect('v2-legacy', started.url);
    cleanups.push(() => legacy.close());
    expect(isErrorResult(await legacy.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe(false);
    const { text } = await scrape(started.metricsUrl!);
    expect(sample(text, 'schema_coerce_gateway_children')).toBe(1);
    expect(sample(text, 'schema_coerce_gateway_repairs_total{tool="echo",rule="string-to-integer"}')).toBe(1);
    const pinned = await connect('v2-pin', started.url);
    cleanups.push(() => pinned.close());
    expect(isErrorResult(await pinned.callTool({ name: 'stats', arguments: { n: 5 } }))).toBe(false);
    await legacy.close();
    await pinned.close();
    await started.close();
    const lines = auditOf(file);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ tool: 'echo', outcome: 'repaired', changes: [{ path: '/count', rule: 'string-to-integer' }] });
    expect((lines[0]!['client'] as object)).toHaveProperty('session');
    // No session: the request is its own; the client is named by its address.
    expect(lines[1]).toMatchObject({ tool: 'stats', outcome: 'forwarded', client: { address: '127.0.0.1' } });
    expect((lines[1]!['client'] as object)).not.toHaveProperty('session');
  });

  test('to the strict Python server, a traceparent in params._meta is the audit line\'s trace id; the header wins over it', async () => {
    const file = join(makeTempDir('audit-'), 'audit.jsonl');
    const started = await gateway(PYTHON, { audit: file });
    const post = async (body: object, headers: Record<string, string> = {}): Promise<Response> =>
      fetch(started.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
    const inMeta = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const inHeader = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const call = (id: number, extra: Record<string, string> = {}) => post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { q: 'x', limit: '5' }, _meta: { traceparent: inMeta } } }, { ...headers, ...extra });
    expect(await (await call(2)).text()).toContain(String.raw`\"limit\": \"int:5\"`);
    await (await call(3, { traceparent: inHeader })).text();
    await started.close();
    expect(auditOf(file).map((line) => line['traceId'])).toEqual(['0af7651916cd43dd8448eb211c80319c', '4bf92f3577b34da6a3ce929d0e0e4736']);
    expect(readFileSync(file, 'utf8')).not.toContain(session);
  });
});

describe('the metrics listener', () => {
  test('serves GET /metrics only, to its own Host names, never to a browser', async () => {
    const started = await gateway(await urlPeer(), {});
    const url = new URL(started.metricsUrl!);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe(new URL(started.url).port);
    expect((await scrape(`${url.origin}/mcp`)).status).toBe(404);
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(405);
    expect((await scrape(url.href, { origin: 'http://127.0.0.1:1234' })).status).toBe(403);
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch will not send a Host of its choosing: node:http does.
      void import('node:http').then(({ get }) => get(url, { headers: { host: 'attacker.example' } }, (response) => resolve(response.statusCode!)).on('error', reject));
    });
    expect(rebound).toBe(403);
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  });

  test('without --metrics nothing listens for them', async () => {
    const started = await startGateway(await urlPeer(), { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true }, captureStream());
    cleanups.push(() => started.close());
    expect(started.metricsUrl).toBeUndefined();
  });
});
