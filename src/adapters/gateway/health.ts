/**
 * `/healthz` and `/readyz`, for the probes of an orchestrator or a balancer. `/healthz` answers
 * 200 while the process serves. `/readyz` answers 200 when the upstream answered the gateway's
 * last probe (a `--url` server: any HTTP answer below 500 to a GET; a stdio server: an answer to
 * `initialize` from a process started for the probe, then ended), 503 when it did not or the
 * gateway is shutting down. A probe is made at most once per `PROBE_KEPT_MS` however often
 * `/readyz` is asked, and requests asked meanwhile share it. The answers name nothing (no
 * upstream, no error); a change of readiness is said once on stderr.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { shownUrl } from '../proxy/secrets.js';
import type { GatewayLog } from './log.js';
import type { GatewayUpstream } from './options.js';

/** The paths served, beside the endpoint's. */
export const HEALTH_PATHS: readonly string[] = ['/healthz', '/readyz'];
/** How long a probe's answer stands. */
const PROBE_KEPT_MS = 5_000;
/** How long a probe may take. */
const PROBE_TIMEOUT_MS = 5_000;
/** How long a stdio probe's process has to exit once its input is closed, before SIGKILL. */
const PROBE_EXIT_MS = 1_000;

/** A probe of the upstream: whether it answered. */
type Probe = () => Promise<boolean>;

/** The health endpoints of one gateway. */
export class Health {
  private readonly probe: Probe;
  private readonly log: GatewayLog;
  private readonly shown: string;
  private last: { ready: boolean; at: number } | undefined;
  private pending: Promise<boolean> | undefined;

  constructor(upstream: GatewayUpstream, log: GatewayLog) {
    this.probe = upstream.kind === 'url' ? () => probeUrl(upstream.url) : () => probeCommand(upstream.command);
    this.shown = upstream.kind === 'url' ? shownUrl(upstream.url) : JSON.stringify(upstream.command[0]);
    this.log = log;
  }

  /**
   * Answers a request for a health path.
   *
   * @param closing - Whether the gateway is shutting down (it is then not ready).
   * @returns False when the request is for another path (it is not answered).
   */
  serve(request: IncomingMessage, response: ServerResponse, closing: boolean): boolean {
    const path = (request.url ?? '').split('?')[0]!;
    if (!HEALTH_PATHS.includes(path)) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end('{"status":"method not allowed"}');
      return true;
    }
    if (path === '/healthz') answer(response, 200, 'ok');
    else if (closing) answer(response, 503, 'shutting down');
    else void this.ready().then((ready) => answer(response, ready ? 200 : 503, ready ? 'ready' : 'not ready'));
    return true;
  }

  /** Whether the upstream answered its last probe, probing when that one is too old. */
  private ready(): Promise<boolean> {
    const now = Date.now();
    if (this.last !== undefined && now - this.last.at < PROBE_KEPT_MS) return Promise.resolve(this.last.ready);
    this.pending ??= this.probe()
      .catch(() => false)
      .then((ready) => {
        if (ready !== this.last?.ready) this.log.warn(ready ? `ready: ${this.shown} answered` : `not ready: ${this.shown} did not answer`);
        this.last = { ready, at: Date.now() };
        this.pending = undefined;
        return ready;
      });
    return this.pending;
  }
}

function answer(response: ServerResponse, status: number, text: string): void {
  if (!response.writableEnded) response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ status: text }));
}

/** Whether a Streamable HTTP server answers a GET (any status below 500: a 400, 401 or 405 is a server that is up). */
function probeUrl(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', headers: { accept: 'text/event-stream' }, timeout: PROBE_TIMEOUT_MS }, (answer) => {
      resolve((answer.statusCode ?? 500) < 500);
      request.destroy();
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
    request.on('close', () => resolve(false));
    request.end();
  });
}

/** The probe's `initialize`: an id of its own, the oldest revision the servers speak. */
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 'schema-coerce-readyz', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'schema-coerce-readyz', version: '1.0.0' } } })}\n`;

/** Whether a stdio server, started for the probe, answers `initialize`; the process is ended either way. */
function probeCommand(command: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
    let seen = '';
    let done = false;
    const finish = (ready: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      resolve(ready);
      child.stdin.end();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), PROBE_EXIT_MS);
      child.once('exit', () => clearTimeout(kill));
    };
    const timer = setTimeout(() => finish(false), PROBE_TIMEOUT_MS);
    child.on('error', () => finish(false));
    child.on('exit', () => finish(false));
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-65_536);
      if (seen.includes('"schema-coerce-readyz"')) finish(true);
    });
    child.stdin.write(INITIALIZE);
  });
}
