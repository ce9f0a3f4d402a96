/**
 * The gateway's auth flags read in process (`authOptions`): the options they make, and every
 * flag given wrong or without its mode refused by name; `--header-env`, a header whose value is
 * an environment variable's (so a credential stays out of `ps`).
 */
import { describe, expect, test } from 'vitest';
import { authOptions } from '../src/adapters/cli/auth-flags.js';
import { UsageError } from '../src/adapters/cli/errors.js';
import { TargetError, targetHeaders } from '../src/adapters/proxy/http-target.js';

describe('authOptions', () => {
  test('no auth flag: no auth', () => {
    expect(authOptions({})).toEqual({});
  });

  test('a token list, with its scopes, resource, servers and forwarding', () => {
    expect(authOptions({ 'auth-tokens': 'tokens.json', 'auth-scope': ['tools:read'], 'auth-resource': 'https://mcp.example.com/mcp', 'auth-server': ['https://as.example'], 'forward-authorization': true })).toEqual({
      auth: { tokens: 'tokens.json', requiredScopes: ['tools:read'], resource: new URL('https://mcp.example.com/mcp'), authorizationServers: ['https://as.example/'] },
      forwardAuthorization: true,
    });
  });

  test('JWTs: the audience is --auth-resource unless given', () => {
    expect(authOptions({ 'auth-jwks': 'https://as.example/jwks', 'auth-issuer': 'https://as.example', 'auth-resource': 'https://gw.example/mcp' })).toEqual({
      auth: { jwt: { jwks: new URL('https://as.example/jwks'), issuer: 'https://as.example', audience: ['https://gw.example/mcp'] }, resource: new URL('https://gw.example/mcp') },
    });
    expect(authOptions({ 'auth-jwks': 'http://127.0.0.1:9/jwks', 'auth-issuer': 'i', 'auth-audience': ['a', 'b'] }).auth?.jwt?.audience).toEqual(['a', 'b']);
  });

  test.each<[Parameters<typeof authOptions>[0], string]>([
    [{ 'auth-scope': ['x'] }, '--auth-scope needs --auth-tokens <file> or --auth-jwks <url>'],
    [{ 'forward-authorization': true }, '--forward-authorization needs --auth-tokens <file> or --auth-jwks <url>'],
    [{ 'auth-tokens': 't', 'auth-jwks': 'https://a/j' }, 'give --auth-tokens or --auth-jwks, not both'],
    [{ 'auth-tokens': 't', 'auth-issuer': 'i' }, '--auth-issuer and --auth-audience are for --auth-jwks'],
    [{ 'auth-tokens': 't', 'auth-scope': ['a b'] }, '--auth-scope "a b" must be a scope'],
    [{ 'auth-tokens': 't', 'auth-resource': 'https://gw.example/mcp#x' }, '--auth-resource must have no fragment'],
    [{ 'auth-tokens': 't', 'auth-resource': 'ftp://gw.example/mcp' }, '--auth-resource must be http or https, not ftp:'],
    [{ 'auth-tokens': 't', 'auth-server': ['not a url?secret=1'] }, '--auth-server "not a url?***" is not a URL'],
    [{ 'auth-jwks': 'http://as.example/jwks', 'auth-issuer': 'i', 'auth-audience': ['a'] }, '--auth-jwks must be https (http only on loopback)'],
    [{ 'auth-jwks': 'https://as.example/jwks', 'auth-audience': ['a'] }, '--auth-jwks needs --auth-issuer <iss>'],
    [{ 'auth-jwks': 'https://as.example/jwks', 'auth-issuer': 'i' }, '--auth-jwks needs --auth-audience <aud> or --auth-resource <url>'],
  ])('%j is refused: %s', (values, message) => {
    let error: unknown;
    try {
      authOptions(values);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).detail).toContain(message);
  });
});

describe('--header-env', () => {
  test('the value comes from the environment, over a --header of the same name', () => {
    expect(targetHeaders(['Authorization: Bearer from-flag', 'X-A: 1'], ['Authorization: UPSTREAM_TOKEN'], { UPSTREAM_TOKEN: ' Bearer from-env ' })).toEqual({ authorization: 'Bearer from-env', 'x-a': '1' });
  });

  test.each<[string, NodeJS.ProcessEnv, string]>([
    ['Authorization: MISSING', {}, '--header-env number 1 (Authorization): the environment variable "MISSING" is not set'],
    ['Authorization: EMPTY', { EMPTY: '' }, 'the environment variable "EMPTY" is not set'],
    ['Bad Name: TOKEN', { TOKEN: 'x' }, "--header-env number 1 must be 'Name: VARIABLE'"],
    ['X-Key: TOKEN', { TOKEN: 'secret-value\r\nX-Other: 1' }, '--header-env number 1 (X-Key) has a line break or NUL in its value'],
  ])('%s is refused, never with the value', (spec, env, message) => {
    let error: unknown;
    try {
      targetHeaders([], [spec], env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TargetError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('secret-value');
  });
});
