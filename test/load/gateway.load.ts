/**
 * The gateway under load and faults, on loopback, bounded: 50 concurrent sessions × 200 calls
 * through one `--url` gateway and through three replicas behind HAProxy (round-robin, no sticky
 * sessions), every answer checked against the call it answers (id and content), with the
 * operator's features on (`--auth-tokens`, `--metrics`, `--audit`; `OPERATED`): at the end each
 * replica's `/metrics` is scraped once and its audit file read, and both count every call; the upstream
 * killed mid-load (the calls in flight get a JSON-RPC error naming it, the gateway stays up and
 * serves new sessions once it is back); one replica killed mid-load (the others keep serving); a
 * flood of abandoned sessions beside well-behaved clients in front of a stdio server (every
 * well-behaved call answered).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { initializeBody, POST_HEADERS, rawRequest, startGatewayProcess, stopGateways, until, type RunningGateway } from '../_helpers/gateway.js';
import { ROOT } from '../_helpers/run.js';
import { makeTempDir, removeTempDirs } from '../_helpers/temp.js';
import { startHttpPeer, type HttpPeer } from '../peers/http-server.js';
import { freePort } from '../_helpers/ports.js';

const SESSIONS = 50;
const CALLS = 200;
const HAPROXY_CONFIG = join(ROOT, 'examples', 'gateway-haproxy.cfg');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
  await stopGateways();
});
afterAll(removeTempDirs);

async function upstream(port?: number): Promise<HttpPeer> {
  const peer = await startHttpPeer({ json: true, ...(port === undefined ? {} : { port }) });
  cleanups.push(() => peer.close());
  return peer;
}

/** What became of the calls of a run. */
interface Tally {
  ok: number;
  /** Answers that were JSON-RPC errors or HTTP refusals, by their text. */
  failed: string[];
  /** Answers to another call than the one sent (wrong id or content): must stay 0. */
  misrouted: number;
}

/**
 * The operator's features the load runs have on, given the replica's audit file and token list:
 * bearer-token auth (a static list), Prometheus metrics on a listener of its own and the audit log.
 */
const OPERATED = (audit: string, tokens: string): string[] => ['--auth-tokens', tokens, '--metrics', '127.0.0.1:0', '--audit', audit];
/** The token every request of a load run's sessions sends. */
const LOAD_TOKEN = 'l'.repeat(40);
const AUTH_HEADERS: Readonly<Record<string, string>> = { authorization: `Bearer ${LOAD_TOKEN}` };
/** A token list holding `LOAD_TOKEN`, written beside `audit`. */
function tokenList(audit: string): string {
  const path = `${audit}.tokens.json`;
  writeFileSync(path, JSON.stringify([{ token: LOAD_TOKEN, subject: 'load', scopes: [] }]));
  return path;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json', ...AUTH_HEADERS };

/** The calls a replica counted, by outcome: in `calls_total` of its `/metrics` (scraped once) and in its audit file's lines. */
async function recorded(gateway: RunningGateway, audit: string): Promise<{ metrics: Record<string, number>; audit: Record<string, number> }> {
  const url = /metrics on (\S+)\n/.exec(gateway.stderr())![1]!;
  const text = await (await fetch(url)).text();
  const metrics: Record<string, number> = {};
  for (const [, outcome, n] of text.matchAll(/^schema_coerce_gateway_calls_total\{tool="echo",outcome="(\w+)"\} (\d+)$/gm)) metrics[outcome!] = Number(n);
  const repairs = /^schema_coerce_gateway_repairs_total\{tool="echo",rule="string-to-integer"\} (\d+)$/m.exec(text)?.[1];
  expect(Number(repairs ?? 0)).toBe(metrics['repaired'] ?? 0);
  // An audit line is written once its call's answer has ended: the last ones may still be on their way.
  const lines = (): string[] => readFileSync(audit, 'utf8').split('\n').filter((line) => line !== '');
  await until(() => existsSync(audit) && lines().length >= Object.values(metrics).reduce((sum, count) => sum + count, 0));
  const outcomes: Record<string, number> = {};
  for (const line of lines()) {
    const { outcome } = JSON.parse(line) as { outcome: string };
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return { metrics, audit: outcomes };
}

/** One session: initialize, initialized, then `calls` calls of `echo` with `count` as a string, one at a time. */
async function session(url: string, calls: number, tally: Tally, index: number): Promise<void> {
  const init = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `load-${index}`, version: '0' } } }) });
  const id = init.headers.get('mcp-session-id');
  const initialized = await init.text();
  if (id === null) {
    // The session never began (the upstream was down): each of its calls is counted as failed, for the reason given.
    const reason = init.headers.get('content-type')?.includes('application/json') === true ? (JSON.parse(initialized) as { error?: { message: string } }).error?.message : undefined;
    for (let call = 1; call <= calls; call++) tally.failed.push(reason ?? `HTTP ${init.status}`);
    return;
  }
  const headers = { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(url, { method: 'POST', headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).arrayBuffer();
  for (let call = 1; call <= calls; call++) {
    const count = index * 100_000 + call;
    try {
      const answer = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: call, method: 'tools/call', params: { name: 'echo', arguments: { count: String(count) } } }) });
      const text = await answer.text();
      const message = answer.headers.get('content-type')?.includes('application/json') === true ? (JSON.parse(text) as { id?: unknown; result?: { content: { text: string }[] }; error?: { message: string } }) : undefined;
      if (message?.result !== undefined) {
        if (message.id === call && message.result.content[0]!.text === `{"count":${count}}`) tally.ok++;
        else tally.misrouted++;
      } else if (message?.error !== undefined) {
        if (message.id !== call && message.id !== null) tally.misrouted++;
        tally.failed.push(message.error.message);
      } else tally.failed.push(`HTTP ${answer.status}`);
    } catch (error) {
      tally.failed.push(`fetch: ${(error as Error).message}`);
    }
  }
}

/** `sessions` sessions of `calls` calls each through `url`, all at once; `tally` is counted as they go. */
async function load(url: string, sessions: number, calls: number, tally: Tally = { ok: 0, failed: [], misrouted: 0 }): Promise<Tally> {
  await Promise.all(Array.from({ length: sessions }, (_, index) => session(url, calls, tally, index + 1)));
  return tally;
}

/** The number of repaired calls a replica's `--log` recorded. */
function changes(log: string): number {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"kind":"change"')).length : 0;
}

async function haproxy(replicas: readonly string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const [gw1, gw2, gw3] = replicas.map((url) => new URL(url).host);
  const child = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], { env: { ...process.env, FRONT: `127.0.0.1:${port}`, GW1: gw1!, GW2: gw2!, GW3: gw3! }, stdio: ['ignore', 'ignore', 'pipe'] });
  cleanups.push(async () => {
    child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let tries = 0; tries < 100; tries++) {
    if (await fetch(url, { method: 'DELETE' }).then(() => true, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child };
}

const HAS_HAPROXY = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;

describe('gateway under load', () => {
  test(`${SESSIONS} sessions × ${CALLS} calls through one gateway: every call repaired and answered to its own caller`, async () => {
    const server = await upstream();
    const audit = join(makeTempDir('schema-coerce-gateway-load-'), 'audit.jsonl');
    const gateway = await startGatewayProcess(['--lenient', '--max-sessions', '100', ...OPERATED(audit, tokenList(audit)), '--url', server.url]);
    const tally = await load(gateway.url, SESSIONS, CALLS);
    expect(tally.failed).toEqual([]);
    expect(tally.misrouted).toBe(0);
    expect(tally.ok).toBe(SESSIONS * CALLS);
    expect(await recorded(gateway, audit)).toEqual({ metrics: { repaired: SESSIONS * CALLS }, audit: { repaired: SESSIONS * CALLS } });
  });

  test.runIf(HAS_HAPROXY)(`${SESSIONS} sessions × ${CALLS} calls through three replicas behind HAProxy, round-robin: the calls of each session spread over all three, each repaired`, async () => {
    const server = await upstream();
    const dir = makeTempDir('schema-coerce-gateway-load-');
    const audits = [1, 2, 3].map((n) => join(dir, `replica-${n}.audit.jsonl`));
    const replicas = await Promise.all(audits.map((audit) => startGatewayProcess(['--lenient', ...OPERATED(audit, tokenList(audit)), '--url', server.url])));
    const { url } = await haproxy(replicas.map((replica) => replica.url));
    const tally = await load(url, SESSIONS, CALLS);
    expect(tally.failed).toEqual([]);
    expect(tally.misrouted).toBe(0);
    expect(tally.ok).toBe(SESSIONS * CALLS);
    // Each replica's metrics and audit log count the calls it served, every one repaired.
    const records = await Promise.all(replicas.map((replica, i) => recorded(replica, audits[i]!)));
    const counts = records.map(({ metrics, audit }) => {
      expect(Object.keys(metrics)).toEqual(['repaired']);
      expect(audit).toEqual(metrics);
      return metrics['repaired']!;
    });
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(SESSIONS * CALLS);
    // Round-robin: each replica took about a third of the calls.
    for (const count of counts) expect(count).toBeGreaterThan((SESSIONS * CALLS) / 4);
  });
});

describe('gateway faults', () => {
  test('the upstream killed mid-load: the calls in flight get a JSON-RPC error naming it; the gateway stays up and serves new sessions once it is back', async () => {
    let server = await upstream();
    const port = Number(new URL(server.url).port);
    const gateway = await startGatewayProcess(['--lenient', '--url', server.url]);
    const counted: Tally = { ok: 0, failed: [], misrouted: 0 };
    const running = load(gateway.url, 20, 100, counted);
    // Mid-load: once a tenth of the calls are answered (a fixed wait found none answered yet on a busy machine).
    await until(() => counted.ok >= 200, 60_000);
    await server.close();
    const tally = await running;
    expect(tally.misrouted).toBe(0);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.failed.length).toBeGreaterThan(0);
    expect(tally.ok + tally.failed.length).toBe(20 * 100);
    for (const reason of tally.failed) expect(reason).toMatch(new RegExp(`^schema-coerce gateway: ${server.url.replace(/[.]/g, '\\.')} cannot be reached: |^HTTP 404$`));
    server = await upstream(port);
    const after = await load(gateway.url, 5, 20);
    expect(after).toEqual({ ok: 100, failed: [], misrouted: 0 });
    expect(gateway.child.exitCode).toBeNull();
  });

  test.runIf(HAS_HAPROXY)('one replica killed mid-load: the other two keep serving the same sessions', async () => {
    const server = await upstream();
    const dir = makeTempDir('schema-coerce-gateway-load-');
    const logs = [1, 2, 3].map((n) => join(dir, `replica-${n}.jsonl`));
    const replicas = await Promise.all(logs.map((log) => startGatewayProcess(['--lenient', '--log', log, '--url', server.url])));
    const { url } = await haproxy(replicas.map((replica) => replica.url));
    const running = load(url, 20, 150);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    replicas[0]!.child.kill('SIGKILL');
    const atKill = logs.map(changes);
    const tally = await running;
    expect(tally.misrouted).toBe(0);
    // At most the calls in flight at the dead replica fail (one per session at a time).
    expect(tally.failed.length).toBeLessThanOrEqual(20);
    expect(tally.ok + tally.failed.length).toBe(20 * 150);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const atEnd = logs.map(changes);
    expect(atEnd[0]).toBe(atKill[0]);
    expect(atEnd[1]! - atKill[1]!).toBeGreaterThan(100);
    expect(atEnd[2]! - atKill[2]!).toBeGreaterThan(100);
  });
});

describe('gateway under a flood of abandoned sessions', () => {
  /** A well-behaved client on `from`: a session, then `calls` calls one at a time; what each was answered. */
  async function wellBehaved(url: string, from: string, calls: number): Promise<string[]> {
    const init = await rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json' }, body: initializeBody(`client-${from}`), from });
    const session = init.headers['mcp-session-id'];
    if (typeof session !== 'string') return [`initialize: HTTP ${init.status} ${init.body}`];
    const headers = { ...POST_HEADERS, accept: 'application/json', 'mcp-session-id': session };
    await rawRequest(url, { headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', from });
    const failed: string[] = [];
    for (let n = 1; n <= calls; n++) {
      const answer = await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { n } } }), from });
      if (answer.status !== 200 || !answer.body.includes(`"id":${n},"result":{"content":[{"type":"text","text":"n:${n}"}]}`)) failed.push(`${from} call ${n}: HTTP ${answer.status} ${answer.body}`);
    }
    return failed;
  }

  /** `count` sessions opened from `from`, `parallel` at a time, each abandoned after its initialize: the statuses. */
  async function flood(url: string, from: string, count: number, parallel: number): Promise<number[]> {
    const statuses: number[] = [];
    let opened = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (opened < count) {
          opened++;
          statuses.push((await rawRequest(url, { headers: { ...POST_HEADERS, accept: 'application/json' }, body: initializeBody('abandoned'), from })).status);
        }
      }),
    );
    return statuses;
  }

  test('6 clients making calls beside 90 sessions opened and abandoned, from an address of their own and from a client\'s: every call answered', async () => {
    const gateway = await startGatewayProcess(['--max-sessions', '16', '--max-sessions-per-client', '8', '--', process.execPath, join(ROOT, 'test', 'peers', 'gateway-stdio.mjs')]);
    const clients = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    const [served, foreign, beside] = await Promise.all([
      Promise.all(clients.map((from) => wellBehaved(gateway.url, from, 40))),
      flood(gateway.url, '127.0.0.20', 60, 3),
      // From the address of a well-behaved client: it makes room from its own abandoned sessions.
      new Promise((resolve) => setTimeout(resolve, 500)).then(() => flood(gateway.url, '127.0.0.2', 30, 2)),
    ]);
    expect(served.flat()).toEqual([]);
    // Every abandoned session was opened: room was made each time, from the flood's own.
    expect([...foreign, ...beside].filter((status) => status !== 200)).toEqual([]);
    expect(gateway.stderr()).toContain('ended the least recently used idle session to make room (127.0.0.20 is at the limit of 8 sessions per client)');
    expect(gateway.stderr()).toContain('ended the least recently used idle session to make room (127.0.0.2 is at the limit of 8 sessions per client)');
  });
});
