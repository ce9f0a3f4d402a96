/**
 * `schema-coerce gateway`: the proxy's repair as a Streamable HTTP endpoint, in front of a stdio
 * server (one process per client session) or of a remote Streamable HTTP server, for clients
 * that speak HTTP only. Runs until SIGTERM or SIGINT, then finishes the calls in flight.
 */
import type { Writable } from 'node:stream';
import { shownUrl } from '../proxy/secrets.js';
import { SharedSchemas } from '../shared/tool-schemas.js';
import { GatewayAuth } from './auth.js';
import type { Backend } from './backend.js';
import { Admission } from './admission.js';
import { stopRequested } from './drain.js';
import { startEndpoint, type Endpoint } from './endpoint.js';
import { Health } from './health.js';
import { GatewayLog } from './log.js';
import { startObservers } from './observe.js';
import { DEFAULT_LIMITS, type GatewayOptions, type GatewayUpstream } from './options.js';
import { StdioSessions } from './stdio-sessions.js';
import { UrlUpstream } from './url-upstream.js';

/** Distinct tool schemas the sessions of one gateway share (identical ones are compiled once). */
const SHARED_SCHEMAS = 4_096;

/** A gateway that is listening. */
export interface Gateway extends Endpoint {
  /** Waits for the log to be written (after `close`). */
  readonly log: GatewayLog;
  /** Where `/metrics` is served, when it is. */
  readonly metricsUrl: string | undefined;
}

/**
 * Starts a gateway to `upstream`; `stderr` takes its warnings (and reports, with `verbose`).
 *
 * @returns Once it listens.
 */
export async function startGateway(upstream: GatewayUpstream, options: GatewayOptions, stderr: Writable = process.stderr): Promise<Gateway> {
  const log = new GatewayLog(stderr, options.log, options.verbose === true);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const observers = await startObservers(options, () => backend.counts(), (text) => log.warn(text));
  const auth = options.auth === undefined ? undefined : await GatewayAuth.start(options.auth, options.path, (text) => log.warn(text)).catch(async (error: unknown) => {
    await observers.close();
    throw error;
  });
  const shared = { ...options, sharedSchemas: new SharedSchemas(SHARED_SCHEMAS), reports: observers.calls !== undefined };
  // A token the gateway checked is for the gateway: it goes on only when asked (the MCP specification forbids passing tokens through).
  const forward = auth === undefined || options.forwardAuthorization === true;
  const backend: Backend = upstream.kind === 'stdio' ? new StdioSessions(upstream.command, shared, limits, log) : new UrlUpstream(upstream.url, upstream.headers, shared, limits, log, forward);
  const operations = {
    calls: observers.calls,
    metrics: observers.metrics,
    ...(auth === undefined ? {} : { auth }),
    admission: new Admission(options.toolPolicy, options.rateLimits),
    ...(options.health === false ? {} : { health: new Health(upstream, log) }),
  };
  const endpoint = await startEndpoint(backend, options, operations).catch(async (error: unknown) => {
    await observers.close();
    throw error;
  });
  return { url: endpoint.url, metricsUrl: observers.metricsUrl, close: () => endpoint.close().then(() => observers.close()), log };
}

/**
 * Runs a gateway until the process gets SIGTERM or SIGINT.
 *
 * @returns 0 once it has shut down.
 */
export async function runGateway(upstream: GatewayUpstream, options: GatewayOptions): Promise<number> {
  const gateway = await startGateway(upstream, options);
  // A command's arguments may hold a secret: only the program is named.
  const target = upstream.kind === 'stdio' ? `${JSON.stringify(upstream.command[0])}, a process per session` : shownUrl(upstream.url);
  gateway.log.warn(`listening on ${gateway.url}, in front of ${target}`);
  if (gateway.metricsUrl !== undefined) gateway.log.warn(`metrics on ${gateway.metricsUrl}`);
  gateway.log.warn(`${await stopRequested()}: finishing the calls in flight`);
  await gateway.close();
  await gateway.log.close();
  return 0;
}
