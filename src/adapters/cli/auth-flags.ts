/** The gateway's auth flags: `--auth-tokens` or `--auth-jwks` and theirs, `--forward-authorization`. */
import type { AuthOptions } from '../gateway/auth.js';
import { SCOPE } from '../gateway/auth-tokens.js';
import { shownUrlText } from '../proxy/secrets.js';
import { UsageError } from './errors.js';

/** The flags, as `node:util` `parseArgs` reads them. */
export const AUTH_FLAGS = {
  'auth-tokens': { type: 'string' },
  'auth-jwks': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string', multiple: true },
  'auth-scope': { type: 'string', multiple: true },
  'auth-resource': { type: 'string' },
  'auth-server': { type: 'string', multiple: true },
  'forward-authorization': { type: 'boolean' },
} as const;

/** The flags' lines of the help. */
export const AUTH_HELP = `      --auth-tokens <file>   clients need a bearer token of this JSON list ([{"token" or "sha256",
                             "subject", "scopes"}, …])
      --auth-jwks <url>      clients need a JWT signed by a key of this JWKS (with --auth-issuer)
      --auth-issuer <iss>    the JWT's iss
      --auth-audience <aud>  an aud the JWT may have (repeatable; default --auth-resource)
      --auth-scope <scope>   a scope every token must grant (repeatable; else 403)
      --auth-resource <url>  the endpoint's URL as clients reach it (default http://<Host><path>)
      --auth-server <url>    an authorization server the metadata names (repeatable; default the issuer)
      --forward-authorization  send the client's checked Authorization on to the --url server`;

/** The values `parseArgs` gives for the flags. */
type AuthValues = { [K in keyof typeof AUTH_FLAGS]?: (typeof AUTH_FLAGS)[K] extends { multiple: true } ? string[] : (typeof AUTH_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

/**
 * The auth options the flags ask for (none when neither `--auth-tokens` nor `--auth-jwks` is given).
 *
 * @throws {UsageError} Naming the flag that is missing, given without its mode, or not valid.
 */
export function authOptions(values: AuthValues): { auth?: AuthOptions; forwardAuthorization?: boolean } {
  const tokens = values['auth-tokens'];
  const jwks = values['auth-jwks'];
  if (tokens === undefined && jwks === undefined) {
    const stray = Object.keys(AUTH_FLAGS).find((flag) => values[flag as keyof AuthValues] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} needs --auth-tokens <file> or --auth-jwks <url>`);
    return {};
  }
  if (tokens !== undefined && jwks !== undefined) throw new UsageError('give --auth-tokens or --auth-jwks, not both');
  const scopes = values['auth-scope'] ?? [];
  const bad = scopes.find((scope) => !SCOPE.test(scope));
  if (bad !== undefined) throw new UsageError(`--auth-scope ${JSON.stringify(bad)} must be a scope (printable ASCII without space, " or \\)`);
  const resource = values['auth-resource'] === undefined ? undefined : urlOf('--auth-resource', values['auth-resource']);
  if (resource !== undefined && resource.hash !== '') throw new UsageError('--auth-resource must have no fragment (#…)');
  const servers = values['auth-server']?.map((server) => urlOf('--auth-server', server).href);
  if (tokens !== undefined && (values['auth-issuer'] !== undefined || values['auth-audience'] !== undefined)) throw new UsageError('--auth-issuer and --auth-audience are for --auth-jwks');
  const auth: AuthOptions = {
    ...(tokens === undefined ? {} : { tokens }),
    ...(jwks === undefined ? {} : { jwt: jwtRules(jwks, values, resource) }),
    ...(scopes.length === 0 ? {} : { requiredScopes: scopes }),
    ...(resource === undefined ? {} : { resource }),
    ...(servers === undefined ? {} : { authorizationServers: servers }),
  };
  return { auth, ...(values['forward-authorization'] === true ? { forwardAuthorization: true } : {}) };
}

/** What a JWT must be: its keys' URL (https, or http on loopback), its issuer and its audience. */
function jwtRules(jwks: string, values: AuthValues, resource: URL | undefined): NonNullable<AuthOptions['jwt']> {
  const url = urlOf('--auth-jwks', jwks);
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) throw new UsageError('--auth-jwks must be https (http only on loopback): the keys decide who gets in');
  const issuer = values['auth-issuer'];
  if (issuer === undefined) throw new UsageError('--auth-jwks needs --auth-issuer <iss>: a token of any other issuer is refused');
  const audience = values['auth-audience'] ?? (resource === undefined ? undefined : [resource.href]);
  if (audience === undefined) throw new UsageError('--auth-jwks needs --auth-audience <aud> or --auth-resource <url>: a token must be for this gateway');
  return { jwks: url, issuer, audience };
}

/** An http(s) URL a flag gives, or a usage error naming it. */
function urlOf(flag: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} ${JSON.stringify(shownUrlText(text))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be http or https, not ${url.protocol}`);
  return url;
}
