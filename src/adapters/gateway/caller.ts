/**
 * Who a request comes from, as the gateway's sessions see it. The **client** is the token subject
 * when an authenticating front names one, else the remote address: per-client session limits
 * count by it. The **credential** is a keyed hash of the `Authorization` the request carried
 * (none when a subject stands for it: a refreshed token keeps its subject). A session is bound to
 * the caller that opened it, and a request from any other caller naming it is answered as if the
 * session did not exist (the MCP specification's advice against session hijacking). Neither is
 * ever written to a log or an answer; the hash key is random per process.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { subjectOf } from './verified.js';

/** The key the credentials are hashed with: random per process, so a hash says nothing outside it. */
const KEY = randomBytes(32);

/** Who sent a request. */
export interface Caller {
  /** `subject:<sub>` or `address:<remote address>`. */
  readonly client: string;
  /** The keyed SHA-256 of the request's `Authorization` (of nothing without one, or with a subject). */
  readonly credential: Buffer;
}

/** The caller of a pooled server process that serves no request now: no client's. */
export const NO_CALLER: Caller = { client: 'none', credential: Buffer.alloc(32) };

/**
 * The caller of `request`.
 *
 * @param subject - The token subject an authenticating front read from the request, if any (the gateway's auth's by default).
 */
export function callerOf(request: IncomingMessage, subject: string | undefined = subjectOf(request)): Caller {
  const authorization = subject === undefined ? (request.headers.authorization ?? '') : '';
  return { client: clientOf(request, subject), credential: createHmac('sha256', KEY).update(authorization).digest() };
}

/** The client of `request`: the subject when given, else its remote address (an IPv4 address mapped into IPv6 written as IPv4). */
export function clientOf(request: IncomingMessage, subject: string | undefined = subjectOf(request)): string {
  if (subject !== undefined) return `subject:${subject}`;
  const address = request.socket.remoteAddress ?? 'unknown';
  return `address:${address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address}`;
}

/** Whether two callers are the same: the same client with the same credential. */
export function sameCaller(a: Caller, b: Caller): boolean {
  return a.client === b.client && timingSafeEqual(a.credential, b.credential);
}

/** The client as a log line may name it (an address, or that a subject stands for it). */
export function shownClient(client: string): string {
  return client.startsWith('address:') ? client.slice(8) : 'an authenticated subject';
}
