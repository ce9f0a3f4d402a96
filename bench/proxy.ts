/**
 * `npm run bench -- proxy`: the proxy's overhead against a bare Node stdio pass-through (the floor
 * for any proxy written in Node), with a raw precomputed-reply server and with the SDK's echo
 * server. The three routes (direct, bare pipe, `schema-coerce proxy --lenient`) run side by side,
 * as long-lived processes, and take turns within every round: call by call one at a time, block
 * by block with 100 calls in flight, result by result for 1 MB results. So a slow phase of the
 * machine, which lasts seconds here, falls on every route alike. The figures are medians over the
 * rounds, and the ratios compare routes within a round. Then, once per server, each of the bare
 * pipe and the proxy carries one large argument in a fresh process, for its peak memory. Needs the
 * built CLI (`npm run build`). Prints a table and checks the targets.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SERVERS = join(import.meta.dirname, 'proxy-servers.mjs');
const EDIT_MEMORY = join(ROOT, 'scripts', 'proxy-edit-memory.mjs');
const BARE = join(import.meta.dirname, 'proxy-bare.mjs');
const ROUNDS = Number(process.env['BENCH_PROXY_ROUNDS'] ?? 15);
/** The proxy's options: `--lenient` unless `BENCH_PROXY_OPTIONS` says otherwise (e.g. empty, for integer repair only). */
const OPTIONS = (process.env['BENCH_PROXY_OPTIONS'] ?? '--lenient').split(' ').filter((option) => option !== '');
/** Calls per route and round, one at a time. */
const SEQUENTIAL = 500;
/** Calls per route and round with `IN_FLIGHT` outstanding, in `BLOCKS` blocks, the routes taking turns block by block. */
const PIPELINED = 2_000;
const BLOCKS = 4;
const IN_FLIGHT = 100;
/** 1 MB results per route and round, one at a time. */
const LARGE = 40;
/**
 * Calls made before measuring, so every route is measured warm (compiled), as a long-lived proxy
 * runs: five 1 MB results, then `WARM_UP` calls with `IN_FLIGHT` outstanding, then
 * `SEQUENTIAL_WARM_UP` calls one at a time. The last are needed on their own: calls in flight
 * arrive many to a chunk, so the stream code that one call alone takes runs rarely, and V8 would
 * still be compiling it during the first sequential round.
 */
const WARM_UP = 5_000;
const SEQUENTIAL_WARM_UP = 1_000;
/** The arguments of every echo call: 1 KB, with one integer written as 5.0 for the proxy to repair. */
const ARGS = `{"text":"${'a'.repeat(1000)}","count":5.0}`;
/** The params of the measured call, and of a call whose result is 1 MB. */
const CALL = `{"name":"echo","arguments":${ARGS}}`;
/** The same call in the 2026-07-28 revision: no handshake, the envelope in its `_meta`. */
const MODERN_CALL = `{"name":"echo","arguments":${ARGS},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"}}}`;
const BIG = '{"name":"big","arguments":{"n":1}}';

type Route = 'direct' | 'bare' | 'proxy';
const ROUTES: readonly Route[] = ['direct', 'bare', 'proxy'];

interface Figures {
  /** Median round trip of one call at a time, in ms. */
  readonly p50: number;
  /** Calls per second with `IN_FLIGHT` outstanding. */
  readonly throughput: number;
  /** 1 MB results per second, one at a time. */
  readonly large: number;
}

/** What `measure` finds for one server. */
interface Measured {
  /** The figures of every route, round by round. */
  readonly rounds: readonly Record<Route, Figures>[];
  /** How far the resident size of the proxy (or of the pass-through) rose past its size once started, at its peak over the run, in bytes. */
  readonly growth: Record<Route, number>;
}

/** A running route: lines out, replies in, counted by newline. */
class Peer {
  private readonly child: ChildProcessWithoutNullStreams;
  private waiting: { count: number; wake: () => void } | undefined;
  private replies = 0;
  private nextId = 1;

  constructor(route: Route, server: string) {
    const serve = [process.execPath, SERVERS, server];
    const command = route === 'direct' ? serve : route === 'bare' ? [process.execPath, BARE, ...serve] : [process.execPath, CLI, 'proxy', ...OPTIONS, '--', ...serve];
    this.child = spawn(command[0]!, command.slice(1));
    this.child.stdout.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.replies++;
      if (this.waiting !== undefined && this.replies >= this.waiting.count) {
        const { wake } = this.waiting;
        this.waiting = undefined;
        wake();
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  notify(method: string): void {
    this.child.stdin.write(`{"jsonrpc":"2.0","method":"${method}"}\n`);
  }

  send(method: string, params: string): void {
    this.child.stdin.write(`{"jsonrpc":"2.0","id":${this.nextId++},"method":"${method}","params":${params}}\n`);
  }

  /** Resolves once `count` replies in all have arrived. */
  until(count: number): Promise<void> {
    if (this.replies >= count) return Promise.resolve();
    return new Promise((wake) => (this.waiting = { count, wake }));
  }

  get sent(): number {
    return this.nextId - 1;
  }

  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.child.on('close', resolve));
    this.child.stdin.end();
    await closed;
  }
}

function residentSize(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * Opens a route's session: initialize, the tools list, one call; resolves to its peer. A session
 * of the 2026-07-28 revision (`call` carries the envelope) has no handshake: its first call makes
 * the proxy list the tools itself.
 */
async function open(route: Route, server: string, call: string): Promise<Peer> {
  const peer = new Peer(route, server);
  if (call === CALL) {
    peer.send('initialize', '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}');
    await peer.until(1);
    peer.notify('notifications/initialized');
    peer.send('tools/list', '{}');
  }
  peer.send('tools/call', call);
  await peer.until(call === CALL ? 3 : 1);
  return peer;
}

/** One call at a time through `peer`: its round trip, in ms. */
async function roundTrip(peer: Peer, params: string): Promise<number> {
  const began = process.hrtime.bigint();
  peer.send('tools/call', params);
  await peer.until(peer.sent);
  return Number(process.hrtime.bigint() - began) / 1e6;
}

/** `count` calls of `params` through each route, one at a time, the routes taking turns call by call. */
async function interleaved(peers: Record<Route, Peer>, params: string, count: number): Promise<Record<Route, number[]>> {
  const times: Record<Route, number[]> = { direct: [], bare: [], proxy: [] };
  for (let i = 0; i < count; i++) {
    for (const route of rotated(i)) times[route].push(await roundTrip(peers[route], params));
  }
  return times;
}

/** The routes, starting at the `turn`th. */
const rotated = (turn: number): Route[] => ROUTES.map((_, i) => ROUTES[(i + turn) % ROUTES.length]!);

/** Measures the three routes side by side against `server`, with `call` (2025-era or 2026-07-28). */
async function measure(server: string, call: string): Promise<Measured> {
  const peers = {} as Record<Route, Peer>;
  const started = {} as Record<Route, number>;
  for (const route of ROUTES) {
    peers[route] = await open(route, server, call);
    started[route] = route === 'direct' ? 0 : residentSize(peers[route].pid).rss;
  }
  // The warm-up makes every kind of call measured below, the 1 MB results first: a kind of call
  // first seen after it deoptimizes the code it takes, which then runs slow until compiled again
  // (a quarter of a second here), in the middle of what is measured.
  for (const route of ROUTES) {
    for (let i = 0; i < 5; i++) await roundTrip(peers[route], BIG);
    await pipeline(peers[route], WARM_UP, call);
  }
  await interleaved(peers, call, SEQUENTIAL_WARM_UP);

  const rounds: Record<Route, Figures>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sequential = await interleaved(peers, call, SEQUENTIAL);
    const busy: Record<Route, number> = { direct: 0, bare: 0, proxy: 0 };
    for (let block = 0; block < BLOCKS; block++) {
      for (const route of rotated(round + block)) {
        const began = process.hrtime.bigint();
        await pipeline(peers[route], PIPELINED / BLOCKS, call);
        busy[route] += Number(process.hrtime.bigint() - began) / 1e9;
      }
    }
    const large = await interleaved(peers, BIG, LARGE);
    const figures = {} as Record<Route, Figures>;
    for (const route of ROUTES) {
      const seconds = large[route].reduce((sum, ms) => sum + ms, 0) / 1e3;
      figures[route] = { p50: median(sequential[route]), throughput: PIPELINED / busy[route], large: LARGE / seconds };
    }
    rounds.push(figures);
  }
  const growth = {} as Record<Route, number>;
  for (const route of ROUTES) growth[route] = route === 'direct' ? 0 : residentSize(peers[route].pid).peak - started[route];
  await Promise.all(ROUTES.map((route) => peers[route].close()));
  return { rounds, growth };
}

/**
 * The size of the one large argument each route carries, the largest message of the run: 50 MB,
 * and 8 MB for the SDK server, whose stdio transport refuses messages past 10 MB.
 */
const LARGEST: Record<string, number> = { raw: 50 * 2 ** 20, sdk: 8 * 2 ** 20 };

/**
 * How far the route's resident size rises, at its peak, while it carries one tools/call whose
 * argument is `LARGEST[server]` bytes: a fresh process, warmed by a small call first.
 */
async function largeArgumentGrowth(route: Route, server: string): Promise<{ growth: number; message: number }> {
  const peer = new Peer(route, server);
  peer.send('initialize', '{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}');
  await peer.until(1);
  peer.notify('notifications/initialized');
  peer.send('tools/call', CALL);
  await peer.until(2);
  const before = residentSize(peer.pid).rss;
  const params = `{"name":"echo","arguments":{"text":"${'a'.repeat(LARGEST[server]!)}","count":5.0}}`;
  peer.send('tools/call', params);
  await peer.until(3);
  const growth = residentSize(peer.pid).peak - before;
  await peer.close();
  return { growth, message: params.length + 60 };
}

/**
 * The proxy's peak memory for a call whose edits are many or whose arguments are not ASCII, as a
 * multiple of the call (`scripts/proxy-edit-memory.mjs`): once 63 MB (21×) and 7.4× before the
 * edits stopped costing an object each and a long line stopped being copied.
 */
const EDIT_MEMORY_TARGETS: readonly [kind: string, call: string, most: number][] = [
  ['ascii', 'a 3 MB call of 231,000 respellings', 10],
  ['nonascii', 'a 2.4 MB non-ASCII call, one respelling', 7],
];

/** The peak resident growth of a fresh proxy carrying the call of `kind`, as a multiple of the call. */
function editMemory(kind: string): number {
  const run = spawnSync(process.execPath, [EDIT_MEMORY, kind, CLI, '--json'], { encoding: 'utf8' });
  const { callBytes, peakGrowthBytes } = JSON.parse(run.stdout) as { callBytes: number; peakGrowthBytes: number };
  return peakGrowthBytes / callBytes;
}

/** Makes `count` calls of `call` keeping `IN_FLIGHT` outstanding. */
async function pipeline(peer: Peer, count: number, call: string): Promise<void> {
  const base = peer.sent;
  for (let i = 0; i < IN_FLIGHT; i++) peer.send('tools/call', call);
  for (let done = 0; done < count; done++) {
    await peer.until(base + done + 1);
    if (peer.sent - base < count) peer.send('tools/call', call);
  }
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('bench proxy: build the CLI first (npm run build)');
  console.log(`schema-coerce proxy bench (proxy ${OPTIONS.join(' ') || 'without options'}): the routes side by side, each warmed by five 1 MB results, ${WARM_UP} calls with ${IN_FLIGHT} in flight and ${SEQUENTIAL_WARM_UP} one at a time; then ${ROUNDS} rounds of ${SEQUENTIAL} calls one at a time (the routes taking turns call by call), ${PIPELINED} with ${IN_FLIGHT} in flight (${BLOCKS} blocks each, taking turns) and ${LARGE} 1 MB results (taking turns); 1 KB arguments`);
  const targets: { target: string; measured: string; result: string }[] = [];
  /** The proxy ÷ bare pipe ratios of the raw server, 2025-era calls, for the 2026-07-28 run to be set beside. */
  let legacy: Record<'p50' | 'throughput', number> | undefined;
  for (const [server, call] of [['raw', CALL], ['sdk', CALL], ['raw', MODERN_CALL]] as const) {
    const modern = call === MODERN_CALL;
    const { rounds, growth } = await measure(server, call);
    const med = (route: Route, key: keyof Figures): number => median(rounds.map((figures) => figures[route][key]));
    const ratios = (key: keyof Figures): number[] => rounds.map((figures) => figures.proxy[key] / figures.bare[key]);
    const ratio = (key: keyof Figures): number => median(ratios(key));
    const spread = (key: keyof Figures): string => `${fixed(Math.min(...ratios(key)))}–${fixed(Math.max(...ratios(key)))}`;
    console.log(`\n${server} server${modern ? ', 2026-07-28 calls (no session, the envelope on each)' : ''}`);
    console.table(
      ROUTES.map((route) => ({
        route,
        'p50 ms': fixed(med(route, 'p50'), 3),
        'calls/s (100 in flight)': fixed(med(route, 'throughput'), 0),
        '1 MB results/s': fixed(med(route, 'large'), 1),
        'RSS growth MB': route === 'direct' ? '' : fixed(growth[route] / 2 ** 20, 1),
      })),
    );
    for (const key of ['p50', 'throughput', 'large'] as const) console.log(`per-round ratios, ${key}: ${ratios(key).map((value) => fixed(value)).join(' ')}`);
    const p50 = ratio('p50');
    const throughput = ratio('throughput');
    const results = ratio('large');
    if (modern) {
      // The same hop for the 2026-07-28 revision: its ratios beside those of 2025-era calls.
      console.log(`proxy ÷ bare pipe, 2026-07-28 calls: p50 ${fixed(p50)}× (${spread('p50')}), throughput ${fixed(throughput)}× (${spread('throughput')})`);
      targets.push(
        { target: `${server}, 2026-07-28 calls: p50, proxy ÷ bare pipe (2025-era calls: ${fixed(legacy!.p50)}×)`, measured: `${fixed(p50)}× (${spread('p50')})`, result: 'info' },
        { target: `${server}, 2026-07-28 calls: throughput, proxy ÷ bare pipe (2025-era calls: ${fixed(legacy!.throughput)}×)`, measured: `${fixed(throughput)}× (${spread('throughput')})`, result: 'info' },
      );
      continue;
    }
    if (server === 'raw') legacy = { p50, throughput };
    // What the proxy's resident size grows by beyond the growth of any Node pass-through over the
    // run, whose largest message is 1 MB: at that size mostly the collector's young generation.
    const extra = (growth.proxy - growth.bare) / 2 ** 20;
    const large = { bare: await largeArgumentGrowth('bare', server), proxy: await largeArgumentGrowth('proxy', server) };
    const peak = large.proxy.growth / large.proxy.message;
    const peakBeyond = (large.proxy.growth - large.bare.growth) / large.proxy.message;
    console.log(`proxy ÷ bare pipe (median of per-round ratios, their range in brackets): p50 ${fixed(p50)}× (${spread('p50')}), throughput ${fixed(throughput)}× (${spread('throughput')}), 1 MB results ${fixed(results)}× (${spread('large')}); bare pipe ÷ direct p50 ${fixed(med('bare', 'p50') / med('direct', 'p50'))}×`);
    targets.push(
      { target: `${server}: p50 ≤ 1.25× the bare pipe`, measured: `${fixed(p50)}×`, result: p50 <= 1.25 ? 'pass' : 'FAIL' },
      { target: `${server}: throughput, 100 in flight ≥ 0.8×`, measured: `${fixed(throughput)}×`, result: throughput >= 0.8 ? 'pass' : 'FAIL' },
      { target: `${server}: 1 MB results ≥ 0.8×`, measured: `${fixed(results)}×`, result: results >= 0.8 ? 'pass' : 'FAIL' },
      {
        target: `${server}: peak RSS growth beyond the bare pipe's ≤ 3× the largest message (a ${LARGEST[server]! / 2 ** 20} MB argument)`,
        measured: `${fixed(peakBeyond)}× (the proxy's own ${fixed(peak)}×, the bare pipe's ${fixed(large.bare.growth / large.bare.message)}×)`,
        result: peakBeyond <= 3 ? 'pass' : 'FAIL',
      },
      { target: `${server}: RSS growth beyond the bare pipe's over the run (1 MB messages)`, measured: `${fixed(extra, 1)} MB`, result: 'info' },
    );
  }
  for (const [kind, call, most] of EDIT_MEMORY_TARGETS) {
    const multiple = editMemory(kind);
    targets.push({ target: `${call}: peak RSS growth ≤ ${most}× the call`, measured: `${fixed(multiple, 1)}×`, result: multiple <= most ? 'pass' : 'FAIL' });
  }
  console.log('\ntargets');
  console.table(targets);
}

await main();
