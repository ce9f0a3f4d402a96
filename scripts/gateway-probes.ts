/**
 * The probes an operator tries on a gateway before letting a team near it, each answer asserted:
 * `npx tsx scripts/gateway-probes.ts` (after `npm run build`; `.ci/run` runs it). It starts the
 * built `schema-coerce gateway` in front of a stdio server (test/peers/gateway-stdio.mjs) and in
 * front of a `--url` upstream that fails on purpose (test/peers/broken-upstream.ts), with small
 * limits so each probe takes seconds, and sends from several loopback addresses (127.0.0.x) as
 * separate clients would. Prints one line per probe and exits 1 if any failed.
 *
 * The probes: abandoned sessions past the cap (no lockout), a flood from one client beside
 * another, a cap of sessions all in use (503 with Retry-After), another caller's session id for
 * POST, GET and DELETE (404), a call the server never answers (the call timeout, with SSE
 * keep-alive lines while it waits), the same two for a call of the 2026-07-28 revision (no
 * session: the timeout, and the per-client bound it counts under), messages that are not
 * JSON-RPC 2.0 (400, -32600), and a `--url` upstream that drops its answer mid-call (-32000
 * naming it).
 */
import { join } from 'node:path';
import { initializeBody, openRequest, POST_HEADERS, rawRequest, startGatewayProcess, type RawAnswer, type RunningGateway } from '../test/_helpers/gateway.js';
import { ROOT } from '../test/_helpers/run.js';
import { startBrokenUpstream } from '../test/peers/broken-upstream.js';

const SERVER = join(ROOT, 'test', 'peers', 'gateway-stdio.mjs');
const LIMITS = ['--max-sessions', '4', '--max-sessions-per-client', '2', '--unused-timeout', '30', '--call-timeout', '5', '--sse-keepalive', '1', '--drain-timeout', '1'];

/** One probe: a name, and what it asserts (throws with what it got instead). */
type Probe = readonly [name: string, run: (url: string) => Promise<void>];

function check(condition: boolean, got: unknown): void {
  if (!condition) throw new Error(`got ${typeof got === 'string' ? got : JSON.stringify(got)}`);
}

const call = (id: number | string, name: string, args: object = {}): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
/** A request of the 2026-07-28 revision: its envelope in `params._meta`, no session. */
const modernCall = (id: number, name: string, args: object): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
const MODERN = { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28' };
const error = (answer: RawAnswer): { code?: number; message?: string } => (JSON.parse(answer.body) as { error?: { code: number; message: string } }).error ?? {};

async function open(url: string, from: string, authorization?: string): Promise<string> {
  const answer = await rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json', ...(authorization === undefined ? {} : { authorization }) }, body: initializeBody(`probe-${from}`), from });
  check(answer.status === 200 && typeof answer.headers['mcp-session-id'] === 'string' && answer.body.includes('"protocolVersion"'), [answer.status, answer.body]);
  return answer.headers['mcp-session-id'] as string;
}

async function echo(url: string, session: string, from: string, authorization?: string): Promise<RawAnswer> {
  return rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json', 'mcp-session-id': session, ...(authorization === undefined ? {} : { authorization }) }, body: call(7, 'echo', { n: 7 }), from });
}

const STDIO: readonly Probe[] = [
  ['12 sessions abandoned after initialize, past a cap of 4: each served, then a new client served', async (url) => {
    for (let i = 0; i < 12; i++) await open(url, `127.0.0.${10 + (i % 6)}`);
    const session = await open(url, '127.0.0.2');
    const answer = await echo(url, session, '127.0.0.2');
    check(answer.status === 200 && answer.body.includes('n:7'), answer.body);
  }],
  ['one client opening sessions without end ends its own oldest, never another client\u2019s', async (url) => {
    const kept = await open(url, '127.0.0.2');
    for (let i = 0; i < 6; i++) await open(url, '127.0.0.3');
    const answer = await echo(url, kept, '127.0.0.2');
    check(answer.status === 200, [answer.status, answer.body]);
  }],
  ['every session with a call waiting: initialize answered 503 with Retry-After', async (url) => {
    // One after another: four servers starting at once on a loaded machine can take longer than the call timeout to answer initialize.
    const sessions: (readonly [string, string])[] = [];
    for (const from of ['127.0.0.4', '127.0.0.4', '127.0.0.5', '127.0.0.5']) sessions.push([from, await open(url, from)]);
    const waiting = sessions.map(([from, session]) => rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json', 'mcp-session-id': session }, body: call(1, 'slow', { ms: 3_000 }), from }));
    // Time for every call to reach the server, on a loaded machine too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const refused = await rawRequest(url, { headers: POST_HEADERS, body: initializeBody(), from: '127.0.0.6' });
    await Promise.all(waiting);
    const retry = Number(refused.headers['retry-after']);
    check(refused.status === 503 && retry >= 1 && retry <= 5 && /^Service Unavailable: the limit of 4 sessions is reached; retry in \d s$/.test(error(refused).message ?? ''), [refused.status, refused.headers['retry-after'], refused.body]);
  }],
  ['another caller with a session id: 404 for POST, GET stream and DELETE; the owner still served', async (url) => {
    const session = await open(url, '127.0.0.7', 'Bearer owner');
    const headers = { 'mcp-session-id': session, authorization: 'Bearer thief' };
    const answers = [
      await rawRequest(url, { headers: { ...POST_HEADERS, ...headers }, body: call(1, 'echo', { n: 1 }), from: '127.0.0.7' }),
      await rawRequest(url, { method: 'GET', headers: { accept: 'text/event-stream', ...headers }, from: '127.0.0.7' }),
      await rawRequest(url, { method: 'DELETE', headers, from: '127.0.0.7' }),
      await rawRequest(url, { method: 'DELETE', headers: { 'mcp-session-id': session, authorization: 'Bearer owner' }, from: '127.0.0.8' }),
    ];
    check(answers.every((answer) => answer.status === 404 && error(answer).message === 'Session not found'), answers.map((answer) => answer.status));
    const owner = await echo(url, session, '127.0.0.7', 'Bearer owner');
    check(owner.status === 200, [owner.status, owner.body]);
  }],
  ['a call the server never answers: keep-alive lines while it waits, then -32001 naming the call timeout', async (url) => {
    const session = await open(url, '127.0.0.9');
    const begun = Date.now();
    const answer = await openRequest(url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': session }, body: call(3, 'slow', { ms: 600_000 }), from: '127.0.0.9' });
    await answer.ended;
    const took = Date.now() - begun;
    const text = answer.text();
    check(text.startsWith(': keepalive\n\n') && text.includes('"error":{"code":-32001,"message":"schema-coerce gateway: no response within 5 s (the call timeout)"}') && took < 10_000, [took, text]);
  }],
  ['a call of the 2026-07-28 revision (no session) the server never answers: -32001 naming the call timeout, no session named', async (url) => {
    const answer = await rawRequest(url, { headers: { ...MODERN, accept: 'application/json' }, body: modernCall(5, 'slow', { ms: 600_000 }), from: '127.0.0.12' });
    check(answer.headers['mcp-session-id'] === undefined && error(answer).code === -32001 && error(answer).message === 'schema-coerce gateway: no response within 5 s (the call timeout)', [answer.status, answer.body]);
  }],
  ['a client at its bound (2 sessions with calls waiting): a call of the 2026-07-28 revision answered 503 with Retry-After too', async (url) => {
    const sessions = [await open(url, '127.0.0.13'), await open(url, '127.0.0.13')];
    const waiting = sessions.map((session) => rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json', 'mcp-session-id': session }, body: call(1, 'slow', { ms: 3_000 }), from: '127.0.0.13' }));
    // Time for every call to reach the server, on a loaded machine too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const refused = await rawRequest(url, { headers: MODERN, body: modernCall(6, 'echo', { n: 6 }), from: '127.0.0.13' });
    await Promise.all(waiting);
    check(refused.status === 503 && Number(refused.headers['retry-after']) >= 1 && /^Service Unavailable: the limit of 2 sessions per client is reached; retry in \d+ s$/.test(error(refused).message ?? ''), [refused.status, refused.headers['retry-after'], refused.body]);
  }],
  ...([
    ['id null', '{"jsonrpc":"2.0","id":null,"method":"ping"}'],
    ['id true', '{"jsonrpc":"2.0","id":true,"method":"ping"}'],
    ['id {}', '{"jsonrpc":"2.0","id":{},"method":"ping"}'],
    ['id []', '{"jsonrpc":"2.0","id":[],"method":"ping"}'],
    ['id 1.5', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ['id 1e400', '{"jsonrpc":"2.0","id":1e400,"method":"ping"}'],
    ['"jsonrpc": "1.0"', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ['params an array', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["echo"]}'],
    ['100,000 levels of nesting', `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`],
    ['a lone surrogate', '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"\\ud800"}}'],
  ] as const).map(([what, body]): Probe => [`${what}: 400 with -32600 from the gateway`, async (url) => {
    const session = await open(url, '127.0.0.11');
    const answer = await rawRequest(url, { headers: { ...POST_HEADERS, 'mcp-session-id': session }, body, from: '127.0.0.11' });
    check(answer.status === 400 && error(answer).code === -32600, [answer.status, answer.body]);
  }]),
];

const URL_UPSTREAM: readonly Probe[] = [
  ...(['die-sse', 'empty'] as const).map((tool): Probe => [`a --url upstream that ends its answer without the response (${tool}): -32000 naming it`, async (url) => {
    const session = (await rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json' }, body: initializeBody() })).headers['mcp-session-id'] as string;
    const answer = await rawRequest(url, { headers: { ...POST_HEADERS, 'mcp-session-id': session }, body: call(4, tool) });
    check(/"code":-32000,"message":"schema-coerce gateway: http:\/\/127\.0\.0\.1:\d+\/mcp ended its answer \(HTTP 20[02]\) without the response"/.test(answer.body), answer.body);
  }]),
];

async function probe(probes: readonly Probe[], url: string): Promise<number> {
  let failed = 0;
  for (const [name, run] of probes) {
    try {
      await run(url);
      console.log(`ok    ${name}`);
    } catch (thrown) {
      failed++;
      console.log(`FAIL  ${name}: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
  }
  return failed;
}

async function main(): Promise<number> {
  const upstream = await startBrokenUpstream();
  const gateways: RunningGateway[] = [];
  try {
    const stdio = await startGatewayProcess([...LIMITS, '--', process.execPath, SERVER]);
    gateways.push(stdio);
    const remote = await startGatewayProcess([...LIMITS, '--url', upstream.url]);
    gateways.push(remote);
    const failed = (await probe(STDIO, stdio.url)) + (await probe(URL_UPSTREAM, remote.url));
    console.log(failed === 0 ? `gateway probes: all ${STDIO.length + URL_UPSTREAM.length} answered as they must` : `gateway probes: ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    // SIGTERM, as an operator stops it: each session's server is ended too (SIGKILL would leave the
    // one still working on its never-answered call running, and holding the gateway's stderr).
    await Promise.all(gateways.map((gateway) => gateway.stop('SIGTERM')));
    await upstream.close();
  }
}

process.exitCode = await main();
