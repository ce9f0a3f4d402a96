/** What the gateway is told, and the limits it keeps when it is not told otherwise. */
import type { ProxyOptions } from '../proxy/session.js';
import type { AuthOptions } from './auth.js';
import type { ObserveOptions } from './observe.js';
import type { ToolPolicyRules } from './policy.js';
import type { RateLimitRules } from './rate-limit.js';

/** The server behind the gateway: a command run once per client session, or a Streamable HTTP endpoint. */
export type GatewayUpstream =
  | { readonly kind: 'stdio'; readonly command: readonly string[] }
  | { readonly kind: 'url'; readonly url: URL; readonly headers: Readonly<Record<string, string>> };

/** The gateway's options: where it listens, what it lets in, and how it repairs (the proxy's options). */
export interface GatewayOptions extends ProxyOptions, ObserveOptions {
  /** The address to listen on (loopback unless told otherwise). */
  readonly host: string;
  /** The port; 0 lets the system choose. */
  readonly port: number;
  /** The endpoint's path. */
  readonly path: string;
  /** Host names (or `name:port`) a request's `Host` may carry; loopback names when absent. */
  readonly allowedHosts?: readonly string[];
  /** Origins a browser's request may come from; loopback origins when absent. */
  readonly allowedOrigins?: readonly string[];
  /** Answer a POST with a JSON body rather than an SSE stream when the client accepts both. */
  readonly jsonResponse?: boolean;
  readonly limits?: Partial<GatewayLimits>;
  /** Which tools are listed and called (every tool when absent). */
  readonly toolPolicy?: ToolPolicyRules;
  /** Rate limits per caller and per caller and tool (none when absent). */
  readonly rateLimits?: RateLimitRules;
  /** Serve `/healthz` and `/readyz` (default true). */
  readonly health?: boolean;
  /** Bearer-token auth of the gateway's clients (none when absent). */
  readonly auth?: AuthOptions;
  /**
   * Send the client's `Authorization` on to a `--url` upstream although the gateway checked it
   * (`--forward-authorization`); without it a checked token stays at the gateway (without auth,
   * the client's `Authorization` is the upstream's and goes on).
   */
  readonly forwardAuthorization?: boolean;
}

/** The gateway's bounds (each a flag and a config-file key: `GATEWAY_LIMITS` in limits.ts). */
export interface GatewayLimits {
  /** The largest request body, in bytes; larger ones are answered 413. */
  readonly maxBody: number;
  /** The largest request head (request line and headers), in bytes; larger ones are answered 431. */
  readonly maxHeaderBytes: number;
  /** How deep a message may nest its arrays and objects (the envelope is 1); deeper ones are answered 400. */
  readonly maxDepth: number;
  /** How long a client may take to send its request headers. */
  readonly headersTimeoutMs: number;
  /** How long a client may take to send its whole request. */
  readonly requestTimeoutMs: number;
  /** How long a client's connection is kept open with no request on it, for its next one. */
  readonly keepAliveMs: number;
  /** SSE streams open at once (POST answers and GET streams); more are answered 503. */
  readonly maxStreams: number;
  /** Bytes written to a client that it has not read yet; past this the client is dropped. */
  readonly maxUnread: number;
  /**
   * Client sessions at once (one server process each, for a stdio server): past it the oldest
   * session with nothing in flight is ended to make room, and without one `initialize` is answered 503.
   */
  readonly maxSessions: number;
  /** Sessions one client (its remote address) holds at once, by the same rule: its own oldest idle one makes room. */
  readonly maxSessionsPerClient: number;
  /** A session in use (a request since its `initialize`, or a GET stream) without a request for this long is ended. */
  readonly idleMs: number;
  /** A session with no request since its `initialize` (and no GET stream) is ended this long after it. */
  readonly unusedIdleMs: number;
  /** How long a request waits for its response before it is answered with an error and cancelled; 0: without end. */
  readonly callTimeoutMs: number;
  /** How often an SSE answer or stream with nothing to say gets a comment line, so no one between takes it for dead; 0: never. */
  readonly keepaliveMs: number;
  /** How long a shutdown waits for calls in flight. */
  readonly drainMs: number;
  /** Sessions whose tool schemas a `--url` gateway keeps at once (least recently used dropped). */
  readonly cachedSessions: number;
}

/** The limits used where none is given. */
export const DEFAULT_LIMITS: GatewayLimits = {
  maxBody: 4 * 1024 * 1024,
  // Node's own default.
  maxHeaderBytes: 16 * 1024,
  // Deep enough for any tool's arguments seen; a Python server's parser stops near 1,000.
  maxDepth: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Node's default is 5 s: a client whose calls come seconds apart (a model thinking between
  // them) would open a connection for nearly every call.
  keepAliveMs: 60_000,
  maxStreams: 512,
  maxUnread: 8 * 1024 * 1024,
  maxSessions: 64,
  maxSessionsPerClient: 16,
  idleMs: 15 * 60_000,
  unusedIdleMs: 60_000,
  callTimeoutMs: 60_000,
  keepaliveMs: 15_000,
  drainMs: 10_000,
  cachedSessions: 1_024,
};

/** The protocol revisions the gateway serves: the current one and those before it that the SDKs speak. */
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
