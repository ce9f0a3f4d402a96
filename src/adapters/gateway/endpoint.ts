/**
 * The gateway's Streamable HTTP endpoint: POST (one JSON-RPC message, answered with JSON or an
 * SSE stream as the client accepts), GET (the session's stream), DELETE (the session ends), with
 * `Mcp-Session-Id` and `MCP-Protocol-Version`. Every request is checked before it is read: its
 * `Host` and `Origin` against the allow-lists (403), its head and body against the limits (431,
 * 413), its headers and body against the timeouts (Node's `headersTimeout` and `requestTimeout`),
 * and a stream against the bound on open streams (503). A POSTed message that is not JSON-RPC 2.0
 * as MCP writes it is answered 400 and never forwarded (`jsonrpc-check.ts`). The operator's
 * controls are hooked in by a line each (`Operations`): the rate limits and the tool policy
 * (`admission.ts`), the health paths, CORS (`cors.ts`), the observers of each call. An SSE answer
 * with nothing to say gets a comment line now and then. An answer carries no stack trace and no
 * secret.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageId } from '../proxy/message.js';
import { MODERN_VERSIONS } from '../proxy/modern.js';
import type { Admission } from './admission.js';
import type { GatewayAuth } from './auth.js';
import { oneLine, TRANSPORT_ERROR, type Backend } from './backend.js';
import { ALLOWED_METHODS, corsHeaders, preflight } from './cors.js';
import { HostGuard, readBody } from './guard.js';
import type { Health } from './health.js';
import type { Observers } from './observe.js';
import { readMessage } from './jsonrpc-check.js';
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

/** What an endpoint serves beside the protocol: the operator's checks, the health paths, and the observers of its calls. */
export interface Operations extends Partial<Pick<Observers, 'calls' | 'metrics'>> {
  /** The check of each request's bearer token, and the protected-resource metadata. */
  readonly auth?: GatewayAuth;
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
    const read = readMessage(body, limits.maxDepth);
    if (!read.ok) return deny(response, 400, read.message, read.code, read.id);
    const { method, requestId } = read;
    const mode: ReplyMode = requestId !== undefined && sse && !(options.jsonResponse === true && json) ? 'sse' : 'json';
    if (mode === 'sse' && !streams.take()) return deny(response, 503, 'Service Unavailable: too many streams are open');
    const reply = new Reply(response, mode, limits.maxUnread, streams, { json, sse });
    inFlight.add(reply);
    reply.onClose(() => inFlight.delete(reply));
    if (requestId !== undefined && method === 'tools/call') operations.calls?.begin(request, body, reply);
    if (operations.admission?.refused(request, body, method, requestId, reply) === true) return;
    backend.post(request, { body, method, requestId }, reply);
    if (requestId !== undefined) reply.keepAlive(limits.keepaliveMs);
  };

  const listen = (request: IncomingMessage, reply: Reply): void => {
    backend.listen(request, reply);
    reply.keepAlive(limits.keepaliveMs);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!guard.hostAllowed(request)) return deny(response, 403, 'Forbidden: this Host is not served');
    const origin = request.headers.origin;
    if (!guard.originAllowed(origin)) return deny(response, 403, 'Forbidden: this Origin is not allowed');
    corsHeaders(origin, response);
    if (request.url !== plainPath && operations.health?.serve(request, response, closing) === true) return;
    if (request.url !== plainPath && operations.auth?.servesMetadata(request, response) === true) return;
    if (request.url !== plainPath && new URL(request.url ?? '/', 'http://gateway').pathname !== options.path) return deny(response, 404, 'Not Found');
    if (closing) return deny(response.setHeader('connection', 'close'), 503, 'Service Unavailable: the gateway is shutting down');
    if (request.method !== 'OPTIONS' && operations.auth !== undefined && !(await operations.auth.admit(request, response))) return;
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
        return listen(request, new Reply(response, 'sse', limits.maxUnread, streams));
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
    { maxHeaderSize: limits.maxHeaderBytes, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveMs, connectionsCheckingInterval: Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4) },
    (request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) deny(response, 500, 'Internal error');
        else response.destroy();
      });
    },
  );
  operations.metrics?.watch(server);
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
function deny(response: ServerResponse, status: number, message: string, code = TRANSPORT_ERROR, id: MessageId | null = null): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(rpcError(code, message, id));
}

/** Whether a `Content-Type` is JSON (`application/json`, with parameters or not). */
function isJson(type: string | undefined): boolean {
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
