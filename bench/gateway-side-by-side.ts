/**
 * `npm run bench -- gateway side-by-side` (issue #41, item 8): the gateway beside supergateway and
 * the bare upstream, all three in front of the same stdio server, and the cost of each of the
 * gateway's features when on, each a row measured against the gateway with every feature off in
 * the same rounds. Needs the built CLI (`npm run build`) and the full install (`npm run
 * setup:full`: supergateway 4.0.0).
 *
 * The server is `node bench/gateway-servers.mjs stdio` (newline-delimited JSON-RPC, an `echo` tool,
 * no SDK), one process per session on every route:
 * - `stdio direct`, the bare upstream: this client speaks to the server's stdin and stdout itself;
 * - `supergateway`: `--stdio … --outputTransport streamableHttp --stateful` (repairs nothing), at
 *   its default log level (`info`: every message it carries written to stdout), and `supergateway,
 *   quiet`: the same with `--logLevel none`;
 * - `gateway`: `schema-coerce gateway --lenient -- <server>`, every feature off;
 * - `gateway + <feature>`: the same with one feature on (`FEATURES` below: its flags, the Node
 *   options of the gateway's process, the headers its clients send), and `gateway + all` with
 *   every feature chosen on at once.
 * Every route is a long-lived process of its own; the routes run side by side and take turns in
 * an order that rotates, so a slow phase of the machine falls on all of them. Each round, every
 * route makes `BENCH_GATEWAY_SEQUENTIAL` (2,000) calls one at a time on one session, in turns of
 * 200, for its p50 and p95; then 20 sessions each make one call at a time, in 4 blocks of
 * 20 × 25 calls per route taking turns, for its throughput. The CPU time of the route's own
 * process per call is read from `/proc` around every turn. Calls carry 1 KB of arguments with one
 * integer written as 5.0 (repaired by the gateway), and every answer is checked (its id and the
 * repaired arguments). Figures are medians over the rounds; a ratio is the median of its per-round
 * values, its range in brackets. At the end each feature's work is counted against the calls its
 * route made: `/metrics` scraped once (`calls_total`), the audit file's lines, the spans exported.
 *
 * Options (environment): `BENCH_GATEWAY_ROUNDS` (3), `BENCH_GATEWAY_SEQUENTIAL` (2000, a multiple
 * of 200), `BENCH_GATEWAY_FEATURES` (the features to give a row, comma-separated, of those in
 * `FEATURES`; `none` for no feature row; all of them by default; `all` is added when two or more
 * are chosen).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  block, callId, checkAnswer, CLI, closeClient, cpuMs, fixed, httpCall, openSessions, overRounds, rotated, started, startSupergateway, STDIO_SERVER, ARGS, type ExtraHeaders, type Started,
} from './gateway-client.js';
import { median, quantile } from './stats.js';

const ROUNDS = Number(process.env['BENCH_GATEWAY_ROUNDS'] ?? 3);
const TURN = 200;
const SEQUENTIAL = Math.max(TURN, Math.round(Number(process.env['BENCH_GATEWAY_SEQUENTIAL'] ?? 2_000) / TURN) * TURN);
const SESSIONS = 20;
const CALLS = 25;
const BLOCKS = 4;
const OTEL = join(import.meta.dirname, 'otel.mjs');

/** A feature of the gateway, on: its flags, the Node options its process needs, the headers its clients send, and how its work is counted. */
interface Feature {
  readonly flags: readonly string[];
  readonly node?: readonly string[];
  readonly headers?: ExtraHeaders;
  /** What the feature recorded of the route's `calls` calls, or throws when it missed one. */
  readonly check?: (gateway: Started, calls: number) => Promise<string>;
}

/**
 * The features given a row, by name, each made in the run's temp folder `work`. A new feature is
 * one line here.
 */
/** The bearer token of the `auth` row's clients (a static list of one). */
const BENCH_TOKEN = 'b'.repeat(40);

const FEATURES: Record<string, (work: string) => Feature> = {
  metrics: () => ({ flags: ['--metrics', '127.0.0.1:0'], check: scrapeCalls }),
  audit: (work) => {
    const path = join(work, `audit-${callId()}.jsonl`);
    return { flags: ['--audit', path], check: (_gateway, calls) => auditLines(path, calls) };
  },
  trace: () => ({ flags: ['--trace'], node: ['--import', OTEL], check: spansExported }),
  // The echo tool allowed by one glob and not denied by another: each list and call matched against both.
  policy: () => ({ flags: ['--allow-tool', 'ech?', '--deny-tool', 'delete_*'] }),
  // Limits never reached, so every bucket is counted and none refuses: per caller, and per caller and tool.
  'rate-limits': () => ({ flags: ['--rate-limit', '1000000/s', '--tool-rate-limit', 'echo=1000000/s'] }),
  // A static token list; every request of the route sends its bearer token.
  auth: (work) => {
    const path = join(work, 'tokens.json');
    writeFileSync(path, JSON.stringify([{ token: BENCH_TOKEN, subject: 'bench', scopes: [] }]));
    return { flags: ['--auth-tokens', path], headers: { authorization: `Bearer ${BENCH_TOKEN}` } };
  },
};

/** The sum of the `calls_total` counters the gateway's `/metrics` shows: every call must be counted. */
async function scrapeCalls(gateway: Started, calls: number): Promise<string> {
  const url = /metrics on (http:\/\/\S+)/.exec(gateway.output())?.[1];
  if (url === undefined) throw new Error(`no metrics line: ${gateway.output()}`);
  const text = await (await fetch(url)).text();
  const counted = [...text.matchAll(/^schema_coerce_gateway_calls_total\{[^}]*\} (\d+)$/gm)].reduce((sum, [, n]) => sum + Number(n), 0);
  if (counted !== calls) throw new Error(`/metrics counted ${counted} calls of ${calls}`);
  return `/metrics: calls_total ${counted}`;
}

/** The audit file's lines: one per call. */
async function auditLines(path: string, calls: number): Promise<string> {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"tool":"echo"')).length;
  if (lines !== calls) throw new Error(`the audit log has ${lines} lines for ${calls} calls`);
  return `audit: ${lines} lines`;
}

/** The spans the OpenTelemetry SDK exported (`bench/otel.mjs` counts them on stderr): one per call. */
async function spansExported(gateway: Started, calls: number): Promise<string> {
  const counts = [...gateway.output().matchAll(/otel: (\d+) spans exported/g)];
  const spans = Number(counts.at(-1)?.[1] ?? 0);
  if (spans !== calls) throw new Error(`${spans} spans exported for ${calls} calls`);
  return `trace: ${spans} spans`;
}

/** A route: its process (none for the bare upstream), a checked call in its `i`th session, and the calls it made. */
interface Route {
  readonly name: string;
  readonly pid: number | undefined;
  call(i: number): Promise<void>;
  calls: number;
  /** What its features recorded (empty without). */
  check(): Promise<string[]>;
  close(): void;
}

/** The bare upstream: `SESSIONS` processes of the server, spoken to over their stdin and stdout. */
async function stdioDirect(): Promise<Route> {
  const servers = Array.from({ length: SESSIONS }, () => {
    const child = spawn(STDIO_SERVER[0]!, STDIO_SERVER.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    const waiting = new Map<number, (line: string) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const id = (JSON.parse(line) as { id: number }).id;
      waiting.get(id)?.(line);
      waiting.delete(id);
    });
    const ask = (id: number, method: string, params: string): Promise<string> => {
      const answer = new Promise<string>((resolve) => waiting.set(id, resolve));
      child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}\n`);
      return answer;
    };
    return { child, ask };
  });
  for (const { child, ask } of servers) {
    await ask(callId(), 'initialize', '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }
  const route: Route = {
    name: 'stdio direct',
    pid: undefined,
    calls: 0,
    call: async (i) => {
      const id = callId();
      const line = await servers[i]!.ask(id, 'tools/call', `{"name":"echo","arguments":${ARGS}}`);
      checkAnswer('stdio direct', id, JSON.parse(line), line);
      route.calls++;
    },
    check: () => Promise.resolve([]),
    close: () => servers.forEach(({ child }) => child.stdin.end()),
  };
  return route;
}

/** A route over HTTP: `SESSIONS` sessions through the server `http` started, with `features` on. */
async function httpRoute(name: string, http: Started, features: readonly Feature[] = []): Promise<Route> {
  const headers = Object.assign({}, ...features.map((feature) => feature.headers ?? {})) as ExtraHeaders;
  const sessions = await openSessions(http.url, SESSIONS, headers);
  const route: Route = {
    name,
    pid: http.child.pid,
    calls: 0,
    call: async (i) => {
      await httpCall(http.url, sessions[i]!, headers);
      route.calls++;
    },
    check: async () => {
      // The audit line and the span are written once the answer has ended: give them a moment.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return Promise.all(features.flatMap((feature) => (feature.check === undefined ? [] : [feature.check(http, route.calls)])));
    },
    close: () => http.child.kill('SIGTERM'),
  };
  return route;
}

/** `schema-coerce gateway --lenient -- <server>` with `features` on. */
async function gateway(name: string, features: readonly Feature[]): Promise<Route> {
  const node = features.flatMap((feature) => feature.node ?? []);
  const flags = features.flatMap((feature) => feature.flags);
  const limits = ['--max-sessions', String(2 * SESSIONS), '--max-sessions-per-client', String(2 * SESSIONS), '--unused-timeout', '900'];
  return httpRoute(name, await started([process.execPath, ...node, CLI, 'gateway', '--listen', '127.0.0.1:0', '--lenient', ...limits, ...flags, '--', ...STDIO_SERVER]), features);
}

/** One route's figures in one round. */
type Figures = Record<'p50' | 'p95' | 'throughput' | 'cpu', number>;

/** `count` calls through `route`, its CPU time added to `cpu`. */
async function turn(route: Route, sessions: readonly number[], calls: number, cpu: Map<string, number>): Promise<{ latencies: number[]; seconds: number }> {
  const before = route.pid === undefined ? 0 : cpuMs(route.pid);
  const measured = await block((i: number) => route.call(i), sessions, calls);
  if (route.pid !== undefined) cpu.set(route.name, (cpu.get(route.name) ?? 0) + cpuMs(route.pid) - before);
  return measured;
}

async function main(): Promise<void> {
  const chosen = process.env['BENCH_GATEWAY_FEATURES']?.split(',').map((name) => name.trim()) ?? Object.keys(FEATURES);
  const names = chosen.filter((name) => name !== 'none');
  const unknown = names.filter((name) => FEATURES[name] === undefined);
  if (unknown.length > 0) throw new Error(`BENCH_GATEWAY_FEATURES: no feature ${unknown.join(', ')} (the features: ${Object.keys(FEATURES).join(', ')})`);
  const work = mkdtempSync(join(tmpdir(), 'schema-coerce-bench-'));
  console.log(`schema-coerce gateway side by side: the gateway, supergateway and the bare upstream in front of one stdio server, features ${names.join(', ') || 'none'}; ${ROUNDS} rounds of ${SEQUENTIAL} calls one at a time (turns of ${TURN}) and ${BLOCKS} blocks of ${SESSIONS} sessions × ${CALLS} calls per route, the routes taking turns; 1 KB arguments with one 5.0 to repair. Load average ${loadavg().map((load) => fixed(load)).join(' ')}`);
  const routes: Route[] = [await stdioDirect(), await httpRoute('supergateway', await startSupergateway()), await httpRoute('supergateway, quiet', await startSupergateway('none')), await gateway('gateway', [])];
  for (const name of names) routes.push(await gateway(`gateway + ${name}`, [FEATURES[name]!(work)]));
  if (names.length > 1) routes.push(await gateway('gateway + all', names.map((name) => FEATURES[name]!(work))));
  const everyone = Array.from({ length: SESSIONS }, (_, i) => i);
  for (const route of routes) {
    await block((i: number) => route.call(i), [0], TURN);
    await block((i: number) => route.call(i), everyone, CALLS);
  }

  const rounds: Record<string, Figures>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const latencies = new Map<string, number[]>(routes.map((route) => [route.name, []]));
    const seconds = new Map<string, number>();
    const cpu = new Map<string, number>();
    for (let t = 0; t < SEQUENTIAL / TURN; t++) {
      for (const route of rotated(routes, round + t)) latencies.get(route.name)!.push(...(await turn(route, [0], TURN, cpu)).latencies);
    }
    for (let b = 0; b < BLOCKS; b++) {
      for (const route of rotated(routes, round + b)) seconds.set(route.name, (seconds.get(route.name) ?? 0) + (await turn(route, everyone, CALLS, cpu)).seconds);
    }
    const calls = SEQUENTIAL + BLOCKS * SESSIONS * CALLS;
    rounds.push(Object.fromEntries(routes.map(({ name }) => {
      const times = latencies.get(name)!;
      return [name, { p50: median(times), p95: quantile(times, 0.95), throughput: (BLOCKS * SESSIONS * CALLS) / seconds.get(name)!, cpu: (cpu.get(name) ?? 0) / calls }];
    })));
    console.log(`round ${round + 1} of ${ROUNDS} done, load average ${loadavg().map((load) => fixed(load)).join(' ')}`);
  }
  const checks = (await Promise.all(routes.map(async (route) => (await route.check()).map((line) => `${route.name}: ${line}`)))).flat();
  for (const route of routes) route.close();
  closeClient();
  rmSync(work, { recursive: true, force: true });

  const { med, shown } = overRounds(rounds);
  console.table(routes.map(({ name, pid }) => ({
    route: name,
    'p50 ms': fixed(med(name, 'p50'), 3),
    'p95 ms': fixed(med(name, 'p95'), 3),
    [`calls/s (${SESSIONS} sessions)`]: fixed(med(name, 'throughput'), 0),
    'CPU ms/call of its process': pid === undefined ? '' : fixed(med(name, 'cpu'), 3),
  })));
  const row = (ratio: string, route: string, over: string): Record<string, string> => ({
    ratio,
    p50: shown(route, over, 'p50'),
    p95: shown(route, over, 'p95'),
    'calls/s': shown(route, over, 'throughput'),
    'CPU/call': over === 'stdio direct' ? '' : shown(route, over, 'cpu'),
  });
  console.log('\nratios (median of the per-round ratios, their range)');
  console.table([
    row('gateway ÷ the bare upstream (stdio direct)', 'gateway', 'stdio direct'),
    row('supergateway ÷ the bare upstream', 'supergateway', 'stdio direct'),
    row('supergateway, quiet ÷ the bare upstream', 'supergateway, quiet', 'stdio direct'),
    row('gateway ÷ supergateway', 'gateway', 'supergateway'),
    row('gateway ÷ supergateway, quiet', 'gateway', 'supergateway, quiet'),
    ...routes.slice(4).map(({ name }) => row(`${name} ÷ gateway (features off)`, name, 'gateway')),
  ]);
  if (checks.length > 0) console.log(`\nthe features' records, against the calls made:\n${checks.join('\n')}`);
}

await main();
