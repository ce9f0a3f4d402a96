/**
 * What operators watch the gateway with, all off unless asked for: the metrics (`/metrics`, in
 * Prometheus text, on a listener of its own, loopback unless told otherwise), the audit log and
 * the traces. All follow the same call events; nothing here is on the path of a call when all are off.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUDIT_DEFAULTS, AuditLog } from './audit.js';
import type { BackendCounts } from './backend.js';
import { CallEvents, type CallSink } from './call-events.js';
import { HostGuard } from './guard.js';
import { Metrics } from './metrics.js';
import { loadTracer } from './tracing.js';

/** The path the metrics are served at. */
const METRICS_PATH = '/metrics';

/** The gateway's observability options. */
export interface ObserveOptions {
  /** Where `/metrics` listens (`--metrics host:port`); none: no metrics. */
  readonly metrics?: { readonly host: string; readonly port: number };
  /** The audit log's file, or `-` for stdout (`--audit`); none: no audit log. */
  readonly audit?: string;
  /** Keep argument values in the audit log (`--audit-values`). */
  readonly auditValues?: boolean;
  /** Bytes an audit file reaches before it is rotated (`--audit-max-bytes`). */
  readonly auditMaxBytes?: number;
  /** Rotated audit files kept (`--audit-keep`). */
  readonly auditKeep?: number;
  /** A span per call through `@opentelemetry/api` (`--trace`). */
  readonly trace?: boolean;
  /** Host names (or `name:port`) a request's `Host` may carry; loopback names when absent (the gateway's own list). */
  readonly allowedHosts?: readonly string[];
}

/** The observers of a gateway. */
export interface Observers {
  /** The call events, when anything consumes them. */
  readonly calls: CallEvents | undefined;
  /** The metrics, when asked for (the endpoint's server is watched by them). */
  readonly metrics: Metrics | undefined;
  /** The metrics' URL, when they listen. */
  readonly metricsUrl: string | undefined;
  /** Stops the metrics listener and waits for the audit log to be written. */
  close(): Promise<void>;
}

/**
 * Starts what `options` asks for; `counts` reads the backend's sessions and processes at each
 * scrape, `warn` takes the gateway's warnings.
 *
 * @throws {MissingPeerError} (as a rejection) Under `trace`, when `@opentelemetry/api` cannot be loaded.
 */
export async function startObservers(options: ObserveOptions, counts: () => BackendCounts, warn: (text: string) => void): Promise<Observers> {
  const metrics = options.metrics === undefined ? undefined : new Metrics(counts);
  const audit = options.audit === undefined ? undefined : new AuditLog({ target: options.audit, maxBytes: options.auditMaxBytes ?? AUDIT_DEFAULTS.maxBytes, keep: options.auditKeep ?? AUDIT_DEFAULTS.keep }, warn);
  const sinks: CallSink[] = [metrics, audit].filter((sink) => sink !== undefined);
  const tracer = options.trace === true ? await loadTracer() : undefined;
  const server = metrics === undefined ? undefined : await serveMetrics(metrics, options.metrics!, new HostGuard(options.allowedHosts, undefined));
  const address = server?.address() as AddressInfo | undefined;
  return {
    calls: sinks.length === 0 && tracer === undefined ? undefined : new CallEvents(sinks, options.auditValues === true, tracer),
    metrics,
    metricsUrl: address === undefined ? undefined : `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}${METRICS_PATH}`,
    close: async () => {
      if (server !== undefined) await new Promise((resolve) => server.close(resolve).closeAllConnections());
      await audit?.close();
    },
  };
}

/**
 * The metrics listener: `GET /metrics` only, its `Host` checked as the endpoint's is and any
 * `Origin` refused (403), no body read, short timeouts.
 */
async function serveMetrics(metrics: Metrics, at: { readonly host: string; readonly port: number }, guard: HostGuard): Promise<Server> {
  const server = createServer({ headersTimeout: 5_000, requestTimeout: 10_000 }, (request, response) => {
    const refuse = (status: number, text: string): void => void response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
    if (!guard.hostAllowed(request)) return refuse(403, 'Forbidden: this Host is not served');
    // Prometheus sends no Origin: no browser page reads the metrics.
    if (request.headers.origin !== undefined) return refuse(403, 'Forbidden: no browser origin is served');
    if (new URL(request.url ?? '/', 'http://metrics').pathname !== METRICS_PATH) return refuse(404, 'Not Found');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return refuse(405, 'Method Not Allowed');
    }
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : metrics.exposition());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
