/**
 * The gateway's tool policy and rate limits (#41 items 2 and 5): globs as rows of
 * `fixtures/gateway/globs.json`; SDK v1 and v2 clients (pinned to 2026-07-28 and on the 2025
 * handshake) through the gateway to an SDK v2 Streamable HTTP server and to a stdio server that
 * logs every line it receives: a denied tool is not listed, a call to it gets an `isError` result
 * naming the rule and never reaches the server; raw requests that try to slip a denied call past
 * the policy; a flood past the caller's limit gets 429 with Retry-After, past a tool's an
 * `isError` result.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { globMatches, ToolPolicy } from '../src/adapters/gateway/policy.js';
import { readRate, TokenBuckets } from '../src/adapters/gateway/rate-limit.js';
import type { GatewayOptions, GatewayUpstream } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';
import { connect, isErrorResult, textOf, type ClientKind } from './_helpers/modern.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startV2HttpPeer, type V2HttpPeer } from './peers/v2-http-server.js';

const STDIO_SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const GLOBS = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'gateway', 'globs.json'), 'utf8')) as { glob: string; name: string; matches: boolean; why: string }[];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

async function gateway(upstream: GatewayUpstream, options: Partial<GatewayOptions>): Promise<Gateway & { stderr: () => string }> {
  const stderr = captureStream();
  const started = await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, ...options }, stderr);
  cleanups.push(() => started.close());
  return Object.assign(started, { stderr: () => stderr.text() });
}

async function peer(): Promise<V2HttpPeer> {
  const started = await startV2HttpPeer();
  cleanups.push(() => started.close());
  return started;
}

async function client(kind: ClientKind, url: string): Promise<Awaited<ReturnType<typeof connect>>> {
  const connected = await connect(kind, url);
  cleanups.push(() => connected.close());
  return connected;
}

/** The tools/call requests a peer received, by tool name. */
const calledTools = (server: V2HttpPeer): string[] =>
  server.posts.map(({ body }) => JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: string } }).filter((message) => message.method === 'tools/call').map((message) => message.params!.name!);

/** A stdio server that appends every line it receives to a file, and the file. */
function loggedServer(): { upstream: GatewayUpstream; lines: () => string } {
  const log = join(makeTempDir('schema-coerce-policy-'), 'lines.log');
  return { upstream: { kind: 'stdio', command: ['env', `LOG_FILE=${log}`, process.execPath, STDIO_SERVER] }, lines: () => (existsSync(log) ? readFileSync(log, 'utf8') : '') };
}

describe('globs', () => {
  test.each(GLOBS)('$glob against $name: $why', ({ glob, name, matches }) => {
    expect(globMatches(glob, name)).toBe(matches);
  });

  test('a long hostile name against many stars is decided without backtracking (a regular expression takes about n^7 steps)', () => {
    const name = 'a'.repeat(20_000);
    const started = performance.now();
    expect(globMatches('*a*a*a*a*a*a*a*b', name)).toBe(false);
    expect(globMatches('*a*a*a*a*a*a*a*a', name)).toBe(true);
    // Milliseconds on a quiet machine; the bound only tells linear from polynomial, under load or mutation.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the policy as a value', () => {
  const policy = new ToolPolicy({ allow: ['echo', 'stats', 'admin_*'], deny: ['*_delete'], scoped: ['admin_*=tools:admin'] });

  test.each([
    ['echo', [], undefined],
    ['late', [], 'the tool "late" is not allowed by the gateway\'s tool policy (no --allow-tool matches it)'],
    ['admin_delete', ['tools:admin'], 'the tool "admin_delete" is denied by the gateway\'s tool policy (--deny-tool "*_delete")'],
    ['admin_reset', [], 'the tool "admin_reset" needs the scope "tools:admin" by the gateway\'s tool policy (--tool-scope "admin_*=tools:admin")'],
    ['admin_reset', ['tools:read', 'tools:admin'], undefined],
    ['x'.repeat(1_025), [], 'a tool name of 1025 characters is longer than the gateway\'s tool policy reads (1024)'],
  ])('%s with scopes %j', (name, scopes, denial) => {
    expect(policy.denial(name, scopes)).toBe(denial);
  });

  test('a listing keeps its bytes when nothing is removed; removing keeps every other number exactly', () => {
    const all = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740993}}}}]}}');
    expect(policy.filterListing(all, [])).toBe(all);
    const some = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"late"},{"name":"echo","inputSchema":{"maximum":9007199254740993}}],"nextCursor":"c"}}');
    expect(policy.filterListing(some, [])!.toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"maximum":9007199254740993}}],"nextCursor":"c"}}');
  });

  test('a listing that cannot be read is not passed on (fail closed); an error answer is', () => {
    expect(policy.filterListing(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"late","name":"echo"}]}}'), [])).toBeUndefined();
    expect(policy.filterListing(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":"none"}}'), [])).toBeUndefined();
    const error = Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}');
    expect(policy.filterListing(error, [])).toBe(error);
  });

  test('a scope rule that is not glob=scope is refused by name', () => {
    expect(() => new ToolPolicy({ scoped: ['admin_*'] })).toThrow(/--tool-scope "admin_\*" must be <tool glob>=<scope>/);
  });
});

describe('token buckets', () => {
  test.each([
    ['10/s', { count: 10, perMs: 1_000 }],
    ['100/m', { count: 100, perMs: 60_000 }],
    ['5/30s', { count: 5, perMs: 30_000 }],
    ['1/h', { count: 1, perMs: 3_600_000 }],
    ['250/500ms', { count: 250, perMs: 500 }],
    ['0/s', '"0/s" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s'],
    ['10/d', '"10/d" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s'],
    ['10', '"10" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s'],
  ])('%s', (text, rate) => {
    expect(readRate(text)).toEqual(rate);
  });

  test('a bucket holds count tokens, refills count per period, and says how long until the next', () => {
    const buckets = new TokenBuckets({ count: 2, perMs: 1_000 });
    expect([buckets.take('a', 0), buckets.take('a', 0), buckets.take('a', 0)]).toEqual([0, 0, 500]);
    expect(buckets.take('b', 0)).toBe(0);
    expect(buckets.take('a', 250)).toBe(250);
    expect(buckets.take('a', 500)).toBe(0);
    expect(buckets.take('a', 500)).toBe(500);
    expect([buckets.take('a', 10_000), buckets.take('a', 10_000), buckets.take('a', 10_000)]).toEqual([0, 0, 500]);
  });

  test('at most 10,000 buckets are kept: past it the oldest is forgotten, and its caller finds a full one', () => {
    const buckets = new TokenBuckets({ count: 1, perMs: 60_000 });
    expect([buckets.take('first', 0), buckets.take('first', 0)]).toEqual([0, 60_000]);
    for (let key = 0; key < 9_999; key++) buckets.take(`caller ${key}`, 0);
    expect(buckets.take('first', 0)).toBe(60_000);
    buckets.take('one more', 0);
    expect(buckets.take('first', 0)).toBe(0);
    expect(buckets.take('caller 9998', 0)).toBe(60_000);
  });
});

describe.each<ClientKind>(['v1', 'v2-pin', 'v2-legacy'])('a %s client through the gateway to an SDK v2 HTTP server', (kind) => {
  test('--deny-tool: the tool is not listed, a call to it is an isError result naming the rule and never reaches the server', async () => {
    const server = await peer();
    const started = await gateway({ kind: 'url', url: new URL(server.url), headers: {} }, { toolPolicy: { deny: ['add_*'] } });
    const connected = await client(kind, started.url);
    expect((await connected.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['echo', 'stats']);
    const denied = await connected.callTool({ name: 'add_tool', arguments: {} });
    expect(isErrorResult(denied)).toBe(true);
    expect(textOf(denied)).toBe('schema-coerce gateway: the tool "add_tool" is denied by the gateway\'s tool policy (--deny-tool "add_*")');
    expect(textOf(await connected.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe('{"count":7}');
    expect(calledTools(server)).toEqual(['echo']);
  }, 30_000);

  test('--allow-tool and --tool-scope: only the allowed tools, and none that needs a scope the caller lacks', async () => {
    const server = await peer();
    const started = await gateway({ kind: 'url', url: new URL(server.url), headers: {} }, { toolPolicy: { allow: ['echo', 'stats'], scoped: ['stats=tools:read'] } });
    const connected = await client(kind, started.url);
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(textOf(await connected.callTool({ name: 'stats', arguments: { n: 1 } }))).toBe('schema-coerce gateway: the tool "stats" needs the scope "tools:read" by the gateway\'s tool policy (--tool-scope "stats=tools:read")');
    expect(textOf(await connected.callTool({ name: 'add_tool', arguments: {} }))).toBe('schema-coerce gateway: the tool "add_tool" is not allowed by the gateway\'s tool policy (no --allow-tool matches it)');
    expect(calledTools(server)).toEqual([]);
  }, 30_000);

  test('--tool-rate-limit: past the limit a call is an isError result saying when to try again, and never reaches the server; other tools go on', async () => {
    const server = await peer();
    const started = await gateway({ kind: 'url', url: new URL(server.url), headers: {} }, { rateLimits: { tools: ['ec*=2/h'] } });
    const connected = await client(kind, started.url);
    const results = [];
    for (let call = 0; call < 3; call++) results.push(await connected.callTool({ name: 'echo', arguments: { count: call } }));
    expect(results.map(isErrorResult)).toEqual([false, false, true]);
    expect(textOf(results[2])).toMatch(/^schema-coerce gateway: the tool "echo" is rate limited by the gateway \(--tool-rate-limit "ec\*=2\/h"\): try again in (179\d|1800) s$/);
    expect(isErrorResult(await connected.callTool({ name: 'stats', arguments: { n: 1 } }))).toBe(false);
    expect(calledTools(server)).toEqual(['echo', 'echo', 'stats']);
  }, 30_000);
});

describe.each([
  ['SSE', false],
  ['JSON', true],
])('in front of a stdio server, %s answers', (_mode, jsonResponse) => {
  test('a denied call never reaches the server; the listing is filtered', async () => {
    const server = loggedServer();
    const started = await gateway(server.upstream, { jsonResponse, toolPolicy: { deny: ['slow', 'p?d'] } });
    const connected = await client('v1', started.url);
    expect((await connected.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const denied = await connected.callTool({ name: 'slow', arguments: { ms: 1 } });
    expect([isErrorResult(denied), textOf(denied)]).toEqual([true, 'schema-coerce gateway: the tool "slow" is denied by the gateway\'s tool policy (--deny-tool "slow")']);
    expect(textOf(await connected.callTool({ name: 'echo', arguments: { n: '7' } }))).toBe('n:7');
    expect(server.lines()).toContain('"name":"echo"');
    expect(server.lines()).not.toMatch(/"name":"(slow|pid)"/);
  }, 30_000);
});

/** A raw JSON-RPC client of a `--json-response` gateway session. */
async function rawSession(url: string): Promise<(body: string, headers?: Record<string, string>) => Promise<{ status: number; body: string }>> {
  const post = async (body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; session: string | null }> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    return { status: response.status, body: await response.text(), session: response.headers.get('mcp-session-id') };
  };
  const opened = await post('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
  const session = { 'mcp-session-id': opened.session!, 'mcp-protocol-version': '2025-06-18' };
  await post('{"jsonrpc":"2.0","method":"notifications/initialized"}', session);
  return (body, headers = {}) => post(body, { ...session, ...headers });
}

describe('raw requests that try to slip a denied call past the policy', () => {
  test('an escaped name, an Mcp-Name header naming a denied tool, a notification and a repeated name: none reaches the server', async () => {
    const server = loggedServer();
    const started = await gateway(server.upstream, { jsonResponse: true, toolPolicy: { deny: ['slow'] } });
    const post = await rawSession(started.url);
    const escaped = await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sl\\u006fw","arguments":{"ms":1}}}');
    expect([escaped.status, JSON.parse(escaped.body).result.isError]).toEqual([200, true]);
    const header = await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}', { 'mcp-name': 'slow' });
    expect(JSON.parse(header.body).result.content[0].text).toContain('the tool "slow" is denied');
    const notification = await post('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"slow","arguments":{"ms":1}}}');
    expect([notification.status, JSON.parse(notification.body).error.message]).toEqual([403, 'Forbidden: the tool "slow" is denied by the gateway\'s tool policy (--deny-tool "slow")']);
    const repeated = await post('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","name":"echo","arguments":{"n":1}}}');
    expect(JSON.parse(repeated.body).error.code).toBe(-32600);
    const fine = await post('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"n":2}}}');
    expect(JSON.parse(fine.body).result.content[0].text).toBe('n:2');
    expect(server.lines()).not.toContain('slow');
  }, 30_000);
});

describe('--rate-limit: a flood past the caller\'s limit', () => {
  test('gets 429 with Retry-After and a JSON-RPC error naming the limit; the requests within it are served', async () => {
    const server = loggedServer();
    const started = await gateway(server.upstream, { jsonResponse: true, rateLimits: { caller: '4/h' } });
    const post = await rawSession(started.url);
    const answers = [];
    for (let call = 1; call <= 6; call++) answers.push(await post(`{"jsonrpc":"2.0","id":${call},"method":"tools/call","params":{"name":"echo","arguments":{"n":${call}}}}`));
    // initialize and initialized took two of the four tokens.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429, 429, 429]);
    expect(JSON.parse(answers[2]!.body).error.message).toMatch(/^Too Many Requests: the gateway's rate limit for this caller is reached; retry after (89\d|900) s$/);
    const raw = await fetch(started.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toMatch(/^(89\d|900)$/);
    expect(server.lines().match(/tools\/call/g)).toHaveLength(2);
  }, 30_000);
});
