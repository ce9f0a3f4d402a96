/**
 * Bearer-token auth at the gateway, as the MCP authorization specification asks of a protected
 * resource (RFC 6750, RFC 9728): every request to the endpoint carries `Authorization: Bearer
 * <token>`, checked against a static token list or as a JWT against a JWKS. Without a token (or
 * with one only in the query string, which is never read), `401` with `WWW-Authenticate: Bearer
 * resource_metadata="…"`; with one that is not taken, `401` and `error="invalid_token"`; with a
 * header that is no bearer token, `400` and `error="invalid_request"`; with a token lacking a
 * required scope, `403` and `error="insufficient_scope"` with the scope. The protected-resource
 * metadata document is served, unauthenticated, at `/.well-known/oauth-protected-resource` and
 * at that path with the endpoint's path after it. A token's text is never in an answer or a log line.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JwtVerifier, type JwtRules, type JwtVerdict } from './auth-jwt.js';
import { B64TOKEN, TokenList } from './auth-tokens.js';
import { TRANSPORT_ERROR } from './backend.js';
import { identify } from './call-events.js';
import { rpcError } from './reply.js';
import { setVerified, type VerifiedToken } from './verified.js';

/** The gateway's auth options (`--auth-*` flags and config keys). */
export interface AuthOptions {
  /** A token list file (`--auth-tokens`). */
  readonly tokens?: string;
  /** JWT verification (`--auth-jwks`, `--auth-issuer`, `--auth-audience`). */
  readonly jwt?: JwtRules;
  /** Scopes every token must grant (`--auth-scope`). */
  readonly requiredScopes?: readonly string[];
  /** The resource's URL, as clients reach it (`--auth-resource`); else `http://<Host><path>` of each request. */
  readonly resource?: URL;
  /** The authorization servers the metadata names (`--auth-server`); a JWT's issuer when none is given. */
  readonly authorizationServers?: readonly string[];
  /** Scopes the metadata lists as supported, beside the required ones (the tool policy's). */
  readonly scopesSupported?: readonly string[];
}

/** The well-known path of the protected-resource metadata (RFC 9728 section 3). */
const METADATA_PATH = '/.well-known/oauth-protected-resource';
/** `Bearer` and its token, as a request writes them. */
const BEARER = /^Bearer +(\S*) *$/i;

/** The check of a request's token, and the metadata document. */
export class GatewayAuth {
  private readonly verify: (token: string) => VerifiedToken | Promise<JwtVerdict> | undefined;
  private readonly options: AuthOptions;
  private readonly path: string;
  private readonly warn: (text: string) => void;

  private constructor(verify: GatewayAuth['verify'], options: AuthOptions, path: string, warn: (text: string) => void) {
    this.verify = verify;
    this.options = options;
    this.path = path;
    this.warn = warn;
  }

  /**
   * The auth `options` ask for, at the endpoint `path`; `warn` takes what the operator should
   * know (a JWKS that cannot be reached), never a token.
   *
   * @throws {TokenListError} (as a rejection) When the token list is not valid.
   * @throws {MissingPeerError} (as a rejection) Under JWT auth, when `jose` cannot be loaded.
   */
  static async start(options: AuthOptions, path: string, warn: (text: string) => void): Promise<GatewayAuth> {
    if (options.jwt !== undefined) {
      const verifier = await JwtVerifier.load(options.jwt);
      return new GatewayAuth((token) => verifier.verify(token), options, path, warn);
    }
    const list = TokenList.read(options.tokens ?? '');
    return new GatewayAuth((token) => list.verify(token), options, path, warn);
  }

  /**
   * Serves the metadata document when `request` asks for it.
   *
   * @returns True when it was answered here.
   */
  servesMetadata(request: IncomingMessage, response: ServerResponse): boolean {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METADATA_PATH && path !== METADATA_PATH + this.path) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' }).end(rpcError(TRANSPORT_ERROR, 'Method Not Allowed'));
      return true;
    }
    const body = JSON.stringify(this.metadata(request));
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  /**
   * Checks `request`'s token; keeps what it verified on the request (`request.auth`) and names
   * its subject to the call events.
   *
   * @returns False when the request was answered here (400, 401, 403 or 503).
   */
  async admit(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const header = request.headers.authorization;
    if (header === undefined || !/^bearer(?: |$)/i.test(header)) return this.refuse(request, response, 401, undefined, 'Unauthorized: this gateway needs a bearer token (Authorization: Bearer <token>)');
    const token = BEARER.exec(header)?.[1];
    if (token === undefined || !B64TOKEN.test(token)) return this.refuse(request, response, 400, { error: 'invalid_request', error_description: 'the Authorization header is not one bearer token' }, 'Bad Request: the Authorization header is not one bearer token');
    const verdict = await this.verify(token);
    if (verdict === undefined || 'invalid' in verdict) {
      const why = verdict?.invalid ?? 'the token is not known';
      return this.refuse(request, response, 401, { error: 'invalid_token', error_description: why }, `Unauthorized: ${why}`);
    }
    if ('unavailable' in verdict) {
      this.warn(`a token could not be checked: ${verdict.unavailable}`);
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' }).end(rpcError(TRANSPORT_ERROR, 'Service Unavailable: the gateway cannot check tokens now'));
      return false;
    }
    const missing = (this.options.requiredScopes ?? []).filter((scope) => !verdict.scopes.includes(scope));
    if (missing.length > 0) {
      const scope = (this.options.requiredScopes ?? []).join(' ');
      return this.refuse(request, response, 403, { error: 'insufficient_scope', scope, error_description: `the token lacks the scope ${missing.join(' ')}` }, `Forbidden: the token lacks the scope ${missing.join(' ')}`);
    }
    setVerified(request, verdict);
    identify(request, verdict.extra.subject);
    return true;
  }

  /** Answers `status` with the `Bearer` challenge (its `params`, and where the metadata is) and `message`. */
  private refuse(request: IncomingMessage, response: ServerResponse, status: number, params: Record<string, string> | undefined, message: string): false {
    const required = this.options.requiredScopes ?? [];
    const challenge: Record<string, string> = { resource_metadata: this.metadataUrl(request), ...(params === undefined && required.length > 0 ? { scope: required.join(' ') } : {}), ...params };
    const value = `Bearer ${Object.entries(challenge).map(([name, text]) => `${name}="${text.replace(/["\\]/g, '\\$&')}"`).join(', ')}`;
    response.writeHead(status, { 'content-type': 'application/json', 'www-authenticate': value }).end(rpcError(TRANSPORT_ERROR, message));
    return false;
  }

  /** The resource's URL as `request` reached it (or as `--auth-resource` gives it). */
  private resourceOf(request: IncomingMessage): URL {
    return this.options.resource ?? new URL(this.path, `http://${request.headers.host ?? 'localhost'}`);
  }

  /** Where the metadata of the resource `request` reached is: the well-known path, with the resource's path after it. */
  private metadataUrl(request: IncomingMessage): string {
    const resource = this.resourceOf(request);
    return `${resource.origin}${METADATA_PATH}${resource.pathname === '/' ? '' : resource.pathname}`;
  }

  /** The protected-resource metadata document (RFC 9728 section 2). */
  private metadata(request: IncomingMessage): Record<string, unknown> {
    const servers = this.options.authorizationServers ?? (this.options.jwt === undefined ? [] : [this.options.jwt.issuer]);
    const scopes = [...new Set([...(this.options.requiredScopes ?? []), ...(this.options.scopesSupported ?? [])])];
    return {
      resource: this.resourceOf(request).href,
      ...(servers.length === 0 ? {} : { authorization_servers: servers }),
      ...(scopes.length === 0 ? {} : { scopes_supported: scopes }),
      bearer_methods_supported: ['header'],
    };
  }
}
