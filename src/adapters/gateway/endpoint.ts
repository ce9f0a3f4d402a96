/**
 * The gateway's Streamable HTTP endpoint: POST (one JSON-RPC message, answered with JSON or an
 * SSE stream as the client accepts), GET (the session's stream), DELETE (the session ends), with
 * `Mcp-Session-Id` and `MCP-Protocol-Version`. Every request is checked before it is read: its
 * `Host` and `Origin` against the allow-lists (403), its body against the limit (413), its
 * headers and body against the timeouts (Node's `headersTimeout` and `requestTimeout`), and a
 * stream against the bound on open streams (503). An answer carries no stack trace and no secret.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageId } from '../proxy/message.js';
import { MODERN_VERSIONS } from '../proxy/modern.js';
import type { Admission } from './admission.js';
import { oneLine, TRANSPORT_ERROR, type Backend } from './backend.js';
import { ALLOWED_METHODS, corsHeaders, preflight } from './cors.js';
import { HostGuard, readBody } from './guard.js';
import type { Health } from './health.js';
import { DEFAULT_LIMITS, PROTOCOL_VERSIONS, type GatewayLimits, type GatewayOptions } from './options.js';
import { Reply, rpcError, StreamCount, type ReplyMode } from './reply.js';

/** A running gateway endpoint. */
export interface Endpoint {
  /** The endpoint's URL, with the port the system chose. */
  readonly url: string;
  /**
   * Stops taking requests, waits (up to the drain limit) for the POSTs in flight to be answered,
   * ends every session and closes every connection.
   */
  close(): Promise<void>;
}

/** What an endpoint serves beside the protocol: the operator's checks, and the health paths. */
export interface Operations {
  readonly admission?: Admission;
  readonly health?: Health;
}

/** Starts listening; resolves once the port is bound. */
export async function startEndpoint(backend: Backend, options: GatewayOptions, operations: Operations = {}): Promise<Endpoint> {
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const guard = new HostGuard(options.allowedHosts, options.allowedOrigins);
  const streams = new StreamCount(limits.maxStreams);
  const inFlight = new Set<Reply>();
  // A request for exactly the endpoint's path (no query) is served without a URL parsed, when the path is already as a URL writes it.
  const plainPath = new URL(options.path, 'http://gateway').pathname === options.path ? options.path : undefined;
  let closing = false;

  const post = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!isJson(request.headers['content-type'])) return deny(response, 415, 'Unsupported Media Type: Content-Type must be application/json');
    const accept = request.headers.accept ?? '';
    const sse = accept.includes('text/event-stream') || accept.includes('*/*');
    const json = accept.includes('application/json') || accept.includes('*/*');
    if (!sse && !json) return deny(response, 406, 'Not Acceptable: Accept must list application/json or text/event-stream');
    const body = await readBody(request, limits.maxBody);
    if (body === 'gone') return;
    if (body === 'too large') {
      response.setHeader('connection', 'close');
      return deny(response, 413, `Payload Too Large: the limit is ${limits.maxBody} bytes`);
    }
    oneLine(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return deny(response, 400, 'Parse error: the body is not JSON', -32700);
    }
    if (Array.isArray(parsed)) return deny(response, 400, 'Invalid Request: batches are not supported (one message per POST)', -32600);
    if (typeof parsed !== 'object' || parsed === null) return deny(response, 400, 'Invalid Request: the body is not a JSON-RPC message', -32600);
    const { id, method } = parsed as { id?: unknown; method?: unknown };
    const requestId = typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? (id as MessageId) : undefined;
    const mode: ReplyMode = requestId !== undefined && sse && !(options.jsonResponse === true && json) ? 'sse' : 'json';
    if (mode === 'sse' && !streams.take()) return deny(response, 503, 'Service Unavailable: too many streams are open');
    const reply = new Reply(response, mode, limits.maxUnread, streams, { json, sse });
    inFlight.add(reply);
    reply.onClose(() => inFlight.delete(reply));
    if (operations.admission?.refused(request, parsed, requestId, reply) === true) return;
    backend.post(request, { body, method: typeof method === 'string' ? method : undefined, requestId }, reply);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!guard.hostAllowed(request)) return deny(response, 403, 'Forbidden: this Host is not served');
    const origin = request.headers.origin;
    if (!guard.originAllowed(origin)) return deny(response, 403, 'Forbidden: this Origin is not allowed');
    corsHeaders(origin, response);
    if (request.url !== plainPath && operations.health?.serve(request, response, closing) === true) return;
    if (request.url !== plainPath && new URL(request.url ?? '/', 'http://gateway').pathname !== options.path) return deny(response, 404, 'Not Found');
    if (closing) return deny(response.setHeader('connection', 'close'), 503, 'Service Unavailable: the gateway is shutting down');
    if (request.method !== 'OPTIONS' && operations.admission?.admit(request, response) === false) return;
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !PROTOCOL_VERSIONS.includes(version) && !MODERN_VERSIONS.includes(version)) {
      return deny(response, 400, `Bad Request: unsupported protocol version ${JSON.stringify(version)} (supported: ${[...MODERN_VERSIONS, ...PROTOCOL_VERSIONS].join(', ')})`);
    }
    switch (request.method) {
      case 'POST':
        return post(request, response);
      case 'GET':
        if (!(request.headers.accept ?? '').includes('text/event-stream')) return deny(response, 406, 'Not Acceptable: Accept must list text/event-stream');
        if (!streams.take()) return deny(response, 503, 'Service Unavailable: too many streams are open');
        return backend.listen(request, new Reply(response, 'sse', limits.maxUnread, streams));
      case 'DELETE':
        return backend.remove(request, response);
      case 'OPTIONS':
        return preflight(request, response);
      default:
        response.setHeader('allow', ALLOWED_METHODS);
        return deny(response, 405, 'Method Not Allowed');
    }
  };

  const server: Server = createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveMs, connectionsCheckingInterval: Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4) },
    (request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) deny(response, 500, 'Internal error');
        else response.destroy();
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${options.path}`,
    close: async () => {
      // New requests are answered 503 (and /readyz so) while the calls in flight finish; then the listener closes.
      closing = true;
      const drained = Promise.all([...inFlight].map((reply) => new Promise<void>((resolve) => reply.onClose(resolve))));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, limits.drainMs)))]);
      clearTimeout(timer);
      server.close();
      await backend.close();
      server.closeAllConnections();
    },
  };
}

/** Answers with an HTTP status and a JSON-RPC error naming why. */
function deny(response: ServerResponse, status: number, message: string, code = TRANSPORT_ERROR): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(rpcError(code, message));
}

/** Whether a `Content-Type` is JSON (`application/json`, with parameters or not). */
function isJson(type: string | undefined): boolean {
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
