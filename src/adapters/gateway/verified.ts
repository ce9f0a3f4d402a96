/**
 * What the gateway's auth verified of a request, kept on the request as `request.auth` in the
 * shape of the MCP SDK's `AuthInfo` (what the tool policy and the rate limits read): the token,
 * its scopes, its expiry, and the token's subject in `extra.subject`. Nothing here is ever
 * written to a log or an answer but the subject, which the call events carry as the client.
 */
import type { IncomingMessage } from 'node:http';

/** A verified bearer token. */
export interface VerifiedToken {
  /** The token as the client sent it: for the rate limits' key (hashed there), never logged. */
  readonly token: string;
  /** The OAuth client the token was issued to (`client_id` or `azp`), else its subject. */
  readonly clientId: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** The token's subject (a JWT's `sub`, a token list entry's `subject`). */
  readonly extra: { readonly subject: string };
}

/** A request once the gateway's auth has verified its token. */
type Verified = IncomingMessage & { auth?: VerifiedToken };

/** Keeps what was verified of `request`'s token on it. */
export function setVerified(request: IncomingMessage, verified: VerifiedToken): void {
  (request as Verified).auth = verified;
}

/** The subject of `request`'s verified token; `undefined` when the gateway verified none. */
export function subjectOf(request: IncomingMessage): string | undefined {
  return (request as Verified).auth?.extra.subject;
}
