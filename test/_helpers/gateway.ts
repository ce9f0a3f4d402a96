/**
 * Runs the built `schema-coerce gateway` as a child process on 127.0.0.1 and a free port, and
 * reads its URL from the line it writes once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BIN } from './run.js';

/** The strict Python stdio server (`test/peers/strict_server.py`). */
export const STRICT_SERVER: string = join(import.meta.dirname, '..', 'peers', 'strict_server.py');

/** A running gateway. */
export interface RunningGateway {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running: RunningGateway[] = [];

/** Starts `schema-coerce gateway --listen 127.0.0.1:0 …args`. */
export async function startGatewayProcess(args: readonly string[], env: Record<string, string> = {}): Promise<RunningGateway> {
  const child = spawn(process.execPath, [BIN, 'gateway', '--listen', '127.0.0.1:0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (\S+),/.exec(stderr);
      if (found !== null) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  });
  const gateway: RunningGateway = {
    url,
    child,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.push(gateway);
  return gateway;
}

/** Stops every gateway the tests started (for `afterEach`). */
export async function stopGateways(): Promise<void> {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop('SIGKILL')));
}

/** A stderr for an in-process gateway that keeps what is written. */
export function captureStream(): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}

/** What a raw request was answered. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** What a raw request sends: its method, headers and body, and the local address it comes from (another client on loopback: `127.0.0.2`). */
export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  readonly from?: string;
}

/** Sends one request over a fresh connection and reads the whole answer. */
export function rawRequest(url: string, sent: RawRequest = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: sent.method ?? 'POST', headers: sent.headers, agent: false, ...(sent.from === undefined ? {} : { localAddress: sent.from }) }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

/** A response read as it comes: its head, and everything written so far. */
export interface OpenAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  text(): string;
  /** Resolves once the answer has ended. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Sends one request and resolves with the answer as soon as its head comes. */
export function openRequest(url: string, sent: RawRequest = {}): Promise<OpenAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: sent.method ?? 'GET', headers: sent.headers, agent: false, ...(sent.from === undefined ? {} : { localAddress: sent.from }) }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const ended = new Promise<void>((done) => response.on('close', done));
      resolve({ status: response.statusCode!, headers: response.headers, text: () => text, ended, close: () => response.destroy() });
    });
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

/** The headers of a POST of JSON that takes either answer. */
export const POST_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** An `initialize` request's body, from a client named `name`. */
export function initializeBody(name = 'raw', id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '0' } } });
}

/** Waits until `check` holds, at most `ms`; resolves with whether it does. */
export async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}

/** Whether the process `pid` is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
