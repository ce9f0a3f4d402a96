/**
 * JWT access tokens verified against a JWKS (`--auth-jwks <url>`), with `jose` (an optional peer,
 * loaded only when JWT auth is asked for; chosen by measurement, docs/BENCHMARKS.md): an
 * asymmetric signature by a key of the set (fetched when a token names a key not seen, at most
 * once per 30 s, kept 10 minutes), the issuer and the audience the gateway is told, an `exp` and a
 * `sub`, a `nbf` and `exp` judged with 30 s of clock skew. The scopes are the `scope` claim's
 * (space-separated, RFC 9068) or the `scp` claim's (a list, as some servers write them). A token
 * taken is taken again without its signature checked for up to a minute (never past its `exp`),
 * by its SHA-256 (at most 1,024 kept): a client sends the same token with every request.
 */
import { createHash } from 'node:crypto';
import type * as Jose from 'jose';
import { MissingPeerError } from '../../index.js';
import type { VerifiedToken } from './verified.js';

/** What a JWT must be to be taken. */
export interface JwtRules {
  /** Where the authorization server publishes its keys. */
  readonly jwks: URL;
  /** The `iss` a token must have. */
  readonly issuer: string;
  /** The `aud` values a token may have (one of them). */
  readonly audience: readonly string[];
}

/** Why a token was not taken: `invalid` (the client's: a new token may do), `unavailable` (the gateway cannot check it now). */
export type JwtVerdict = VerifiedToken | { readonly invalid: string } | { readonly unavailable: string };

/** The clock skew allowed on `exp` and `nbf`, in seconds. */
export const CLOCK_SKEW_SECONDS = 30;
/** The signature algorithms taken: asymmetric ones only (a JWKS publishes public keys). */
/** How long a token taken is taken again unchecked, and how many are kept so. */
const TAKEN_MS = 60_000;
const TAKEN_KEPT = 1_024;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** What a failed check says to the client, by jose's error code; any other failure is the gateway's (`unavailable`). */
const INVALID: Readonly<Record<string, string>> = {
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWT_CLAIM_VALIDATION_FAILED: 'the token is not for this resource',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature does not verify',
  ERR_JWKS_NO_MATCHING_KEY: 'the token is signed by no key of the authorization server',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token names no single key of the authorization server',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token signature algorithm is not accepted',
  ERR_JOSE_NOT_SUPPORTED: 'the token signature algorithm is not accepted',
  ERR_JWS_INVALID: 'the token is not a valid JWT',
  ERR_JWT_INVALID: 'the token is not a valid JWT',
};

/** Verifies JWTs against one authorization server's keys. */
export class JwtVerifier {
  private readonly jose: typeof Jose;
  private readonly keys: Jose.JWTVerifyGetKey;
  private readonly rules: JwtRules;
  /** Tokens taken, by their SHA-256: what they stand for, and until when (ms) that holds. */
  private readonly taken = new Map<string, { readonly verified: VerifiedToken; readonly until: number }>();

  private constructor(jose: typeof Jose, rules: JwtRules) {
    this.jose = jose;
    this.rules = rules;
    this.keys = jose.createRemoteJWKSet(rules.jwks, { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  }

  /**
   * A verifier for `rules`, `jose` loaded.
   *
   * @throws {MissingPeerError} (as a rejection) When `jose` cannot be loaded.
   */
  static async load(rules: JwtRules): Promise<JwtVerifier> {
    const jose = await import('jose').catch((error: unknown) => {
      throw new MissingPeerError('--auth-jwks', 'jose', error);
    });
    return new JwtVerifier(jose, rules);
  }

  /** What `token` stands for, or why it is not taken (never with the token's text). */
  async verify(token: string): Promise<JwtVerdict> {
    const digest = createHash('sha256').update(token).digest('base64');
    const known = this.taken.get(digest);
    if (known !== undefined && known.until > Date.now()) return known.verified;
    this.taken.delete(digest);
    const verdict = await this.check(token);
    if (!('token' in verdict)) return verdict;
    const until = Math.min(Date.now() + TAKEN_MS, ((verdict.expiresAt ?? 0) + CLOCK_SKEW_SECONDS) * 1_000);
    this.taken.set(digest, { verified: verdict, until });
    if (this.taken.size > TAKEN_KEPT) this.taken.delete(this.taken.keys().next().value!);
    return verdict;
  }

  /** `verify`, the signature and claims checked. */
  private async check(token: string): Promise<JwtVerdict> {
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await this.jose.jwtVerify(token, this.keys, {
        issuer: this.rules.issuer,
        audience: [...this.rules.audience],
        clockTolerance: CLOCK_SKEW_SECONDS,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const invalid = typeof code === 'string' ? INVALID[code] : undefined;
      if (invalid !== undefined) return { invalid };
      return { unavailable: `the keys at ${this.rules.jwks.origin}${this.rules.jwks.pathname} cannot be used (${typeof code === 'string' ? code : (error as Error).name})` };
    }
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject === '') return { invalid: 'the token has no subject' };
    const client = payload['client_id'] ?? payload['azp'];
    return {
      token,
      clientId: typeof client === 'string' ? client : subject,
      scopes: scopesOf(payload),
      ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
      extra: { subject },
    };
  }
}

/** The scopes a token grants: its `scope` (space-separated) or its `scp` (a list, or a string). */
function scopesOf(payload: Jose.JWTPayload): readonly string[] {
  const claim = payload['scope'] ?? payload['scp'];
  if (typeof claim === 'string') return claim.split(' ').filter((scope) => scope !== '');
  return Array.isArray(claim) ? claim.filter((scope): scope is string => typeof scope === 'string') : [];
}
