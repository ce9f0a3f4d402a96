/**
 * What both gateway benchmarks (`npm run bench -- gateway` and `npm run bench -- gateway
 * side-by-side`) share: the call every route makes and its checked answer, the HTTP client of a
 * Streamable HTTP route (sessions, calls), the start of a server process, blocks of calls taking
 * turns, the CPU time and resident size of a process read from `/proc`, and the ratios taken
 * within a round.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { median } from './stats.js';

export const ROOT: string = join(import.meta.dirname, '..');
/** The built CLI (`npm run build`). */
export const CLI: string = join(ROOT, 'dist', 'cli.js');
/** The bench's servers (`bench/gateway-servers.mjs`). */
export const SERVERS: string = join(import.meta.dirname, 'gateway-servers.mjs');
/** supergateway's entry point (the full install: `npm run setup:full`). */
const SUPERGATEWAY: string = join(ROOT, 'node_modules', 'supergateway', 'dist', 'index.js');
/** 1 KB of arguments with one integer written as 5.0, for the gateway to repair. */
export const ARGS: string = `{"text":"${'a'.repeat(1000)}","count":5.0}`;
/** The text of the echo tool's answer to `ARGS`, repaired. */
export const ANSWER: string = `{"text":"${'a'.repeat(1000)}","count":5}`;
/** A client of the 2026-07-28 revision has no session: its slot in a route's sessions holds this. */
export const NO_SESSION = '';
/** The standard headers and the envelope of a call of that revision. */
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
const ENVELOPE = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"}}';

// An idle socket is closed by this client after 30 s, before any server here closes it (the
// gateway, the upstream and the pass-through keep one 60 s): Node's agent does not read a server's
// `Keep-Alive: timeout`, and on a loaded machine a route can idle for a minute between its blocks,
// so a reuse would meet the server's close (ECONNRESET).
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 });

/** Closes the client's idle sockets, once the bench is done. */
export function closeClient(): void {
  agent.destroy();
}

interface Answer {
  readonly status: number;
  readonly session: string | undefined;
  readonly body: string;
}

/** Headers every request of a route carries besides the protocol's (e.g. an `Authorization`). */
export type ExtraHeaders = Readonly<Record<string, string>>;

function post(url: string, body: string, session?: string, extra: ExtraHeaders = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: new URL(url).host, ...extra };
    if (session === NO_SESSION) Object.assign(headers, MODERN_HEADERS);
    else if (session !== undefined) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    const sent = request(url, { method: 'POST', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, session: response.headers['mcp-session-id'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The message of an answer: its JSON body, or the data of its SSE event. */
function messageOf(body: string): unknown {
  const data = /^data: (.*)$/m.exec(body);
  return JSON.parse(data === null ? body : data[1]!);
}

/** Throws unless `message` is the echo tool's answer to call `id` (the arguments repaired). */
export function checkAnswer(where: string, id: number, message: unknown, raw: string): void {
  const answer = message as { id?: number; result?: { content: { text: string }[] } } | undefined;
  if (answer?.id !== id || answer.result?.content[0]?.text !== ANSWER) throw new Error(`${where}: call ${id} answered ${raw.slice(0, 200)}`);
}

/** A port free on loopback now (for supergateway, which is told its port). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A server process of the bench, and its MCP endpoint. */
export interface Started {
  readonly url: string;
  readonly child: ChildProcess;
  /** What it wrote, stdout and stderr: the first 64 KB and, after a gap, the last 64 KB. */
  output(): string;
}

/** How much of a process's output `Started.output` keeps at each end. */
const KEPT = 65_536;

/** Resolves once `url`'s port accepts a connection (tried every 50 ms). */
async function accepting(url: string): Promise<void> {
  const { port } = new URL(url);
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.unref();
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a process that prints `listening <url>` (on stdout or stderr), or `listening on port N`
 * as supergateway does, and resolves with the URL; or, given the `url` it will listen at, once
 * that port accepts a connection (a process that prints nothing). Its output is kept only in part, and read for
 * the line only until it is found: supergateway logs every message at its default level (`info`),
 * and a client that kept and searched all of it would spend more and more of its time there.
 */
export function started(command: readonly string[], known?: string): Promise<Started> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let head = '';
  let tail = '';
  const output = (): string => (tail === '' ? head : `${head}\n…\n${tail}`);
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    const read = (chunk: Buffer): void => {
      if (head.length < KEPT) head += chunk.toString();
      else tail = (tail + chunk.toString()).slice(-KEPT);
      if (url !== undefined) return;
      const found = /listening (?:on )?(http:\/\/\S+?\/mcp)/i.exec(head);
      const port = /listening on port (\d+)/i.exec(head);
      url = found?.[1] ?? (port === null ? undefined : `http://127.0.0.1:${port[1]}/mcp`);
      if (url !== undefined) resolve({ url, child, output });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('close', (code) => reject(new Error(`${command.join(' ')} exited (${code}): ${output()}`)));
    if (known !== undefined) void accepting(known).then(() => resolve({ url: (url = known), child, output }));
  });
}

/** The stdio server both gateways and the bare route run, one process per session: no SDK, the echo tool. */
export const STDIO_SERVER: readonly string[] = [process.execPath, SERVERS, 'stdio'];

/**
 * supergateway in front of `STDIO_SERVER` (`--stdio … --outputTransport streamableHttp --stateful`:
 * it hosts a stdio server over HTTP, a process per session, and repairs nothing). At its default
 * log level, `info`, it writes every message it carries to stdout; `none` writes nothing.
 */
export async function startSupergateway(logLevel: 'info' | 'none' = 'info'): Promise<Started> {
  const port = await freePort();
  const command = [process.execPath, SUPERGATEWAY, '--stdio', STDIO_SERVER.map((word) => JSON.stringify(word)).join(' '), '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', logLevel];
  return started(command, logLevel === 'none' ? `http://127.0.0.1:${port}/mcp` : undefined);
}

let opened = 0;
/** Opens `count` sessions through `url`. */
export async function openSessions(url: string, count: number, extra: ExtraHeaders = {}): Promise<string[]> {
  const sessions: string[] = [];
  for (let i = 0; i < count; i++) {
    const init = await post(url, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-${opened++}","version":"0"}}}`, undefined, extra);
    if (init.session === undefined) throw new Error(`initialize through ${url}: HTTP ${init.status} ${init.body}`);
    await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', init.session, extra);
    sessions.push(init.session);
  }
  return sessions;
}

let nextId = 1;
/** The id of the next call. */
export function callId(): number {
  return nextId++;
}

/** One checked call of echo through `url` in `session` (`NO_SESSION`: a call of the 2026-07-28 revision). */
export async function httpCall(url: string, session: string, extra: ExtraHeaders = {}): Promise<void> {
  const id = callId();
  const answer = await post(url, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${ARGS}${session === NO_SESSION ? `,${ENVELOPE}` : ''}}}`, session, extra);
  checkAnswer(`${url} (HTTP ${answer.status})`, id, answer.status === 200 ? messageOf(answer.body) : undefined, answer.body);
}

/**
 * Every session makes `calls` calls one at a time (`call`, checked), all sessions at once: the
 * latencies, in ms, and the block's seconds.
 */
export async function block<S>(call: (session: S) => Promise<void>, sessions: readonly S[], calls: number): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const began = process.hrtime.bigint();
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = 0; i < calls; i++) {
        const sent = process.hrtime.bigint();
        await call(session);
        latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
      }
    }),
  );
  return { latencies, seconds: Number(process.hrtime.bigint() - began) / 1e9 };
}

/** The resident size of a process now, in bytes, and its high-water mark. */
export function residentSize(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** The CPU time a process has used so far (user and system), in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command's name (in parentheses, which may hold spaces): state, then fields 4…; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/** `value` with `digits` decimals. */
export const fixed = (value: number, digits: number = 2): string => value.toFixed(digits);

/** `routes`, starting at the `turn`th: the order of a round's turns. */
export function rotated<R>(routes: readonly R[], turn: number): R[] {
  return routes.map((_, i) => routes[(i + turn) % routes.length]!);
}

/** What `overRounds` gives. */
export interface RoundStats<R extends string, F> {
  /** A figure's median over the rounds. */
  med(route: R, key: keyof F): number;
  /** `route`'s figure ÷ `over`'s, round by round. */
  ratios(route: R, over: R, key: keyof F): number[];
  /** Their median. */
  ratio(route: R, over: R, key: keyof F): number;
  /** The median of the per-round ratios and their range, e.g. `1.11× (1.10–1.16)`. */
  shown(route: R, over: R, key: keyof F): string;
}

/**
 * The statistics of rounds of figures per route: a figure's median over the rounds, and a ratio
 * between two routes as the median of its per-round values, with their range.
 */
export function overRounds<R extends string, F extends Record<string, number>>(rounds: readonly Record<R, F>[]): RoundStats<R, F> {
  const ratios = (route: R, over: R, key: keyof F): number[] => rounds.map((figures) => figures[route][key] / figures[over][key]);
  const ratio = (route: R, over: R, key: keyof F): number => median(ratios(route, over, key));
  return {
    med: (route: R, key: keyof F): number => median(rounds.map((figures) => figures[route][key])),
    ratios,
    ratio,
    shown: (route: R, over: R, key: keyof F): string => {
      const values = ratios(route, over, key);
      return `${fixed(ratio(route, over, key))}× (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
    },
  };
}
