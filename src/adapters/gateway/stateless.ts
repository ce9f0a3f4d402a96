/**
 * Requests of MCP's 2026-07-28 revision at the gateway: no `initialize`, no `Mcp-Session-Id`,
 * each request carrying its era in its own `_meta` envelope, so any replica serves any of them
 * and no request needs another's state. What the gateway keeps for them is a cache: per caller
 * (the digest of its `Authorization`, so one caller's tools never repair another's calls), the
 * tools' schemas the upstream listed, and a few conversations (or, in front of a stdio server,
 * server processes) that are free between requests. One serves one request at a time, so what
 * the server sends while it answers belongs to that request alone.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MODERN_VERSIONS, modernHeaders } from '../proxy/modern.js';
import type { SchemaMaps } from '../proxy/options.js';
import { sessionIdOf } from './backend.js';

/** The envelope's key in a request's `params._meta` (its bytes, searched for in a body). */
const ENVELOPE_CLAIM = Buffer.from('"io.modelcontextprotocol/protocolVersion"');

/**
 * Whether a POSTed message is one of the 2026-07-28 revision, served without a session: it names
 * no session, and its `MCP-Protocol-Version` header names that revision or its body carries the
 * envelope (the upstream, or the server, judges whether the two agree).
 */
export function isStateless(request: IncomingMessage, body: Buffer): boolean {
  if (sessionIdOf(request) !== undefined) return false;
  const version = request.headers['mcp-protocol-version'];
  return (typeof version === 'string' && MODERN_VERSIONS.includes(version)) || body.includes(ENVELOPE_CLAIM);
}

/** The headers a client derives from a request's body (2026-07-28), which go to the upstream with it. */
const STANDARD = ['mcp-method', 'mcp-name'] as const;
/** The prefix of the headers mirroring a call's arguments (a tool's `x-mcp-header` properties). */
const PARAM_PREFIX = 'mcp-param-';

/** `headers` with the client's standard headers of the request added (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
export function withStandardHeaders(request: IncomingMessage, headers: Record<string, string>): Record<string, string> {
  for (const name of STANDARD) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  for (const name in request.headers) {
    const value = request.headers[name];
    if (name.startsWith(PARAM_PREFIX) && typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * The headers of a request the gateway makes itself (its `tools/list`): the client's, less those
 * its body gives (a client's `Mcp-Method: tools/call` would contradict it), and those its own body
 * gives when it carries an envelope.
 */
export function ownHeaders(client: Readonly<Record<string, string>>, body: Buffer | undefined): Readonly<Record<string, string>> {
  const derived = body === undefined ? undefined : modernHeaders(body);
  if (derived === undefined) return client;
  const headers: Record<string, string> = {};
  for (const name in client) if (!(STANDARD as readonly string[]).includes(name) && !name.startsWith(PARAM_PREFIX)) headers[name] = client[name]!;
  return { ...headers, ...derived };
}

/** The key of a request's caller: its token's subject when the gateway checked it, else a digest of its `Authorization` (none: the empty key). */
export function callerOf(headers: Readonly<Record<string, string>>, subject?: string): string {
  if (subject !== undefined) return `subject:${subject}`;
  const authorization = headers['authorization'];
  return authorization === undefined ? '' : createHash('sha256').update(authorization).digest('base64');
}

/** A caller's catalogue and the items that served it. */
interface Caller<T> {
  readonly catalogue: SchemaMaps;
  readonly items: T[];
}

/** The items serving sessionless requests, per caller, bounded. */
export class StatelessPool<T> {
  /** By caller key, in the order of last use. */
  private readonly callers = new Map<string, Caller<T>>();
  private readonly isFree: (item: T) => boolean;
  private readonly kept: number;
  private readonly maxCallers: number;

  /**
   * @param isFree - Whether an item serves no request now.
   * @param kept - Items kept per caller at most (past it, one made for a request is not kept).
   * @param maxCallers - Callers kept at most (the least recently seen is forgotten).
   */
  constructor(isFree: (item: T) => boolean, kept: number, maxCallers: number) {
    this.isFree = isFree;
    this.kept = kept;
    this.maxCallers = maxCallers;
  }

  /**
   * An item free to serve one request of `caller`: one it had, or a new one `make` makes with the
   * caller's catalogue (`undefined` when `make` cannot: the gateway is at its bound).
   */
  take(caller: string, make: (catalogue: SchemaMaps) => T | undefined): T | undefined {
    const known = this.callers.get(caller);
    const entry: Caller<T> = known ?? { catalogue: { inputs: new Map(), outputs: new Map() }, items: [] };
    this.callers.delete(caller);
    this.callers.set(caller, entry);
    if (known === undefined) for (const oldest of this.callers.keys()) if (this.callers.size > this.maxCallers) this.callers.delete(oldest);
    const free = entry.items.find(this.isFree);
    if (free !== undefined) return free;
    const made = make(entry.catalogue);
    if (made !== undefined && entry.items.length < this.kept) entry.items.push(made);
    return made;
  }

  /** Forgets an item (a server process that exited). */
  forget(item: T): void {
    for (const { items } of this.callers.values()) {
      const at = items.indexOf(item);
      if (at !== -1) items.splice(at, 1);
    }
  }

  /** Every item kept. */
  *all(): IterableIterator<T> {
    for (const { items } of this.callers.values()) yield* items;
  }
}
