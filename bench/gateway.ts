/**
 * `npm run bench -- gateway`: `schema-coerce gateway --lenient --url` against the bare upstream
 * it stands in front of (a Streamable HTTP server built with the SDK, JSON answers) and against a
 * bare Node HTTP pass-through to the same upstream (the floor of any gateway written in Node), at
 * 50 sessions each making one call at a time. The three routes run side by side, as long-lived
 * processes, and take turns block by block within every round, so a slow phase of the machine
 * falls on all of them; figures are medians over the rounds, ratios are taken within a round.
 * Every answer is checked against its call (id and content). The CPU time each route's own
 * process, the upstream and this client spend per call is read from `/proc` around every block,
 * so the cost of a hop is given in CPU as well as in latency. The `--url` gateway's resident size
 * per session is its marginal cost: its sessions are opened ten at a time, each step followed by a
 * block of calls of all the sessions open, and the slope of resident size over sessions (10 to 50,
 * least squares) is the figure; the peak growth over the whole run ÷ sessions is printed beside
 * it (it holds the heap the load grows, not only what a session keeps). `BENCH_GATEWAY_ROUNDS`,
 * `BENCH_GATEWAY_ROUTES` (the routes to run besides direct, bare and gateway: `gateway stdio`,
 * `supergateway`, `modern`) and
 * `BENCH_GATEWAY_PROFILE=<folder>` (the gateway under `--cpu-prof`) adjust a run. Two stdio routes run in the same rounds: the gateway
 * with `-- command` and supergateway (`--stdio … --outputTransport streamableHttp --stateful`, the
 * pass-through that hosts a stdio server over HTTP and repairs nothing), each starting one
 * process of the same stdio server per session. Two routes of the 2026-07-28 revision run in the
 * same rounds too: an SDK v2 upstream (`createMcpHandler`, JSON answers) directly and through
 * `schema-coerce gateway --lenient --url`, each of the 50 clients calling without a session (the
 * envelope on every call, the standard headers on every POST), so the gateway's hop for that
 * revision is set beside its hop for 2025-era sessions. Needs the built CLI (`npm run build`).
 * `npm run bench -- gateway side-by-side` is the other mode (`gateway-side-by-side.ts`): the gateway
 * beside supergateway and the bare stdio server, and the cost of each feature when on.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  block as callBlock, CLI, closeClient, cpuMs, fixed, httpCall, NO_SESSION, openSessions, overRounds, residentSize, rotated as rotatedOf, SERVERS, started, startSupergateway, STDIO_SERVER,
} from './gateway-client.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env['BENCH_GATEWAY_ROUNDS'] ?? 7);
const SESSIONS = 50;
/** Calls per session and block: each route makes `SESSIONS × CALLS` calls per round. */
const CALLS = 20;
const WARM_UP = 20;

type Route = 'direct' | 'bare' | 'gateway' | 'gateway stdio' | 'supergateway' | 'modern direct' | 'modern gateway';
const ALL_ROUTES: readonly Route[] = ['direct', 'bare', 'gateway', 'gateway stdio', 'supergateway', 'modern direct', 'modern gateway'];
/** The routes of the 2026-07-28 revision: no session (each of the `SESSIONS` clients just calls), an SDK v2 upstream. */
const MODERN: readonly Route[] = ['modern direct', 'modern gateway'];
/** `BENCH_GATEWAY_ROUTES=gateway stdio,modern` runs those besides direct, bare and gateway, which always run. */
const CHOSEN = process.env['BENCH_GATEWAY_ROUTES']?.split(',');
/** The routes run: direct, bare and gateway always; the others chosen (`modern` names both of that revision). */
const ROUTES: readonly Route[] = ALL_ROUTES.filter((route) => CHOSEN === undefined || ['direct', 'bare', 'gateway'].includes(route) || CHOSEN.includes(route) || (MODERN.includes(route) && CHOSEN.includes('modern')));

/** `BENCH_GATEWAY_PROFILE=<folder>` runs the `--url` gateway under `--cpu-prof`, its profile written there when it stops. */
const PROFILE = process.env['BENCH_GATEWAY_PROFILE'];

/** One route's figures in one round: latency, throughput, and CPU time per call of its own process, the upstream and the client. */
type Figures = Record<'p50' | 'throughput' | 'hopCpu' | 'upstreamCpu' | 'clientCpu', number>;

/** Every session makes `calls` checked calls through `url` one at a time, all sessions at once. */
const block = (url: string, sessions: readonly string[], calls: number): Promise<{ latencies: number[]; seconds: number }> => callBlock((session: string) => httpCall(url, session), sessions, calls);

/** The slope of the least-squares line through `points`. */
function slope(points: readonly (readonly [x: number, y: number])[]): number {
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const num = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const den = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return num / den;
}

const rotated = (turn: number): Route[] => rotatedOf(ROUTES, turn);

/** The session counts the gateway's resident size is read at, each after a block of calls of all the sessions open. */
const RSS_STEPS = [10, 20, 30, 40, 50] as const;

/**
 * Opens the gateway's sessions in steps of ten, each step followed by a block of calls of every
 * session open (warm-up first, at the first step), reading the gateway's resident size after each:
 * a session's marginal cost is the slope of resident size over sessions (least squares, 10 to 50).
 */
async function openMeasured(url: string, pid: number): Promise<{ sessions: string[]; points: [number, number][] }> {
  const sessions: string[] = [];
  const points: [number, number][] = [];
  for (const step of RSS_STEPS) {
    sessions.push(...(await openSessions(url, step - sessions.length)));
    if (points.length === 0) for (let i = 0; i < 5; i++) await block(url, sessions, WARM_UP);
    await block(url, sessions, WARM_UP);
    points.push([step, residentSize(pid).rss]);
  }
  return { sessions, points };
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('bench gateway: build the CLI first (npm run build)');
  console.log(`schema-coerce gateway bench (gateway --lenient --url): ${SESSIONS} sessions, each making one call at a time; ${ROUNDS} rounds of ${SESSIONS} × ${CALLS} calls per route, the routes taking turns block by block, after ${SESSIONS} × ${WARM_UP} warm-up calls each; 1 KB arguments with one 5.0 to repair`);
  const upstream = await started([process.execPath, SERVERS, 'upstream', '0']);
  const bare = await started([process.execPath, SERVERS, 'bare', '0', upstream.url]);
  const gateway = await started([process.execPath, ...(PROFILE === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', PROFILE]), CLI, 'gateway', '--listen', '127.0.0.1:0', '--lenient', '--max-sessions', String(2 * SESSIONS), '--url', upstream.url]);
  const gatewayStdio = ROUTES.includes('gateway stdio') ? await started([process.execPath, CLI, 'gateway', '--listen', '127.0.0.1:0', '--lenient', '--max-sessions', String(2 * SESSIONS), '--max-sessions-per-client', String(2 * SESSIONS), '--unused-timeout', '900', '--', ...STDIO_SERVER]) : undefined;
  const supergateway = ROUTES.includes('supergateway') ? await startSupergateway() : undefined;
  const modernUpstream = ROUTES.includes('modern direct') ? await started([process.execPath, SERVERS, 'modern', '0']) : undefined;
  const modernGateway = modernUpstream === undefined ? undefined : await started([process.execPath, CLI, 'gateway', '--listen', '127.0.0.1:0', '--lenient', '--url', modernUpstream.url]);
  const servers: Record<Route, { url: string; child: ChildProcess } | undefined> = { direct: upstream, bare, gateway, 'gateway stdio': gatewayStdio, supergateway, 'modern direct': modernUpstream, 'modern gateway': modernGateway };
  const upstreamOf = (route: Route): number => (MODERN.includes(route) ? modernUpstream! : upstream).child.pid!;
  const url = (route: Route): string => servers[route]!.url;
  const before = residentSize(gateway.child.pid!).rss;
  const sessions = {} as Record<Route, string[]>;
  const measured = await openMeasured(url('gateway'), gateway.child.pid!);
  sessions.gateway = measured.sessions;
  for (const route of ROUTES) if (route !== 'gateway') sessions[route] = MODERN.includes(route) ? Array.from({ length: SESSIONS }, () => NO_SESSION) : await openSessions(url(route), SESSIONS);
  for (const route of ROUTES) await block(url(route), sessions[route], WARM_UP);
  const rounds: Record<Route, Figures>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {} as Record<Route, Figures>;
    for (const route of rotated(round)) {
      // The CPU time the route's own process (none for direct), the upstream and this client spent on the block.
      const own = route === 'direct' || route === 'modern direct' ? undefined : servers[route]!.child.pid!;
      const cpu0 = [own === undefined ? 0 : cpuMs(own), cpuMs(upstreamOf(route)), process.cpuUsage()] as const;
      const { latencies, seconds } = await block(url(route), sessions[route], CALLS);
      const client = process.cpuUsage(cpu0[2]);
      const calls = latencies.length;
      figures[route] = {
        p50: median(latencies),
        throughput: calls / seconds,
        hopCpu: own === undefined ? 0 : (cpuMs(own) - cpu0[0]) / calls,
        upstreamCpu: (cpuMs(upstreamOf(route)) - cpu0[1]) / calls,
        clientCpu: (client.user + client.system) / 1000 / calls,
      };
    }
    rounds.push(figures);
  }
  const peak = residentSize(gateway.child.pid!).peak;
  for (const child of [gateway.child, gatewayStdio?.child, supergateway?.child, bare.child, upstream.child, modernGateway?.child, modernUpstream?.child]) child?.kill('SIGTERM');
  closeClient();

  const { med, ratios, ratio, shown } = overRounds(rounds);
  console.table(
    ROUTES.map((route) => ({
      route,
      'p50 ms': fixed(med(route, 'p50'), 3),
      [`calls/s (${SESSIONS} sessions)`]: fixed(med(route, 'throughput'), 0),
      'CPU ms/call: its process': route === 'direct' || route === 'modern direct' ? '' : fixed(med(route, 'hopCpu'), 3),
      'upstream': fixed(med(route, 'upstreamCpu'), 3),
      'client': fixed(med(route, 'clientCpu'), 3),
    })),
  );
  for (const key of ['p50', 'throughput'] as const) console.log(`per-round ratios gateway ÷ direct, ${key}: ${ratios('gateway', 'direct', key).map((value) => fixed(value)).join(' ')}`);
  const marginal = slope(measured.points);
  console.log(`gateway resident size at ${measured.points.map(([count, rss]) => `${count} sessions ${fixed(rss / 2 ** 20, 1)} MB`).join(', ')}`);
  const stdio = ROUTES.includes('gateway stdio');
  const targets = [
    { target: `p50 ≤ 1.25× the bare upstream, ${SESSIONS} sessions`, measured: shown('gateway', 'direct', 'p50'), result: ratio('gateway', 'direct', 'p50') <= 1.25 ? 'pass' : 'FAIL' },
    { target: `throughput ≥ 0.8× the bare upstream, ${SESSIONS} sessions`, measured: shown('gateway', 'direct', 'throughput'), result: ratio('gateway', 'direct', 'throughput') >= 0.8 ? 'pass' : 'FAIL' },
    { target: 'p50, gateway ÷ bare Node pass-through', measured: shown('gateway', 'bare', 'p50'), result: 'info' },
    { target: 'throughput, gateway ÷ bare Node pass-through', measured: shown('gateway', 'bare', 'throughput'), result: 'info' },
    { target: 'p50, bare pass-through ÷ direct (the cost of any extra hop)', measured: shown('bare', 'direct', 'p50'), result: 'info' },
    { target: 'throughput, bare pass-through ÷ direct', measured: shown('bare', 'direct', 'throughput'), result: 'info' },
    { target: 'CPU per call, gateway process ÷ bare pass-through process', measured: `${fixed(med('gateway', 'hopCpu') / med('bare', 'hopCpu'))}× (${fixed(med('gateway', 'hopCpu'), 3)} ms ÷ ${fixed(med('bare', 'hopCpu'), 3)} ms)`, result: 'info' },
    ...(ROUTES.includes('supergateway')
      ? [
          { target: 'p50, supergateway (stdio server, repairs nothing) ÷ the bare upstream', measured: shown('supergateway', 'direct', 'p50'), result: 'info' },
          { target: 'throughput, supergateway ÷ the bare upstream', measured: shown('supergateway', 'direct', 'throughput'), result: 'info' },
        ]
      : []),
    ...(stdio
      ? [
          { target: 'p50, gateway -- stdio server ÷ the bare upstream', measured: shown('gateway stdio', 'direct', 'p50'), result: 'info' },
          { target: 'throughput, gateway -- stdio server ÷ the bare upstream', measured: shown('gateway stdio', 'direct', 'throughput'), result: 'info' },
        ]
      : []),
    ...(stdio && ROUTES.includes('supergateway')
      ? [
          { target: 'p50, gateway -- stdio server ÷ supergateway (same stdio server)', measured: shown('gateway stdio', 'supergateway', 'p50'), result: 'info' },
          { target: 'throughput, gateway -- stdio server ÷ supergateway', measured: shown('gateway stdio', 'supergateway', 'throughput'), result: 'info' },
        ]
      : []),
    ...(ROUTES.includes('modern gateway')
      ? [
          { target: `p50, --url gateway ÷ its upstream, 2026-07-28 calls (no session; 2025-era sessions: ${shown('gateway', 'direct', 'p50')})`, measured: shown('modern gateway', 'modern direct', 'p50'), result: 'info' },
          { target: `throughput, --url gateway ÷ its upstream, 2026-07-28 calls (2025-era sessions: ${shown('gateway', 'direct', 'throughput')})`, measured: shown('modern gateway', 'modern direct', 'throughput'), result: 'info' },
          { target: 'CPU per call of the --url gateway process, 2026-07-28 calls ÷ 2025-era sessions', measured: `${fixed(med('modern gateway', 'hopCpu') / med('gateway', 'hopCpu'))}× (${fixed(med('modern gateway', 'hopCpu'), 3)} ms ÷ ${fixed(med('gateway', 'hopCpu'), 3)} ms)`, result: 'info' },
        ]
      : []),
    { target: `resident size per session of the --url gateway (marginal: slope over ${RSS_STEPS[0]}–${RSS_STEPS.at(-1)} sessions)`, measured: `${fixed(marginal / 1024, 1)} KB`, result: 'info' },
    { target: 'peak resident size growth over the run ÷ sessions (the load\'s heap included)', measured: `${fixed((peak - before) / SESSIONS / 1024, 1)} KB (${fixed((peak - before) / 2 ** 20, 1)} MB)`, result: 'info' },
  ];
  console.log('\ntargets');
  console.table(targets);
}

await main();
