/**
 * JWT access tokens at the gateway (`--auth-jwks`), verified with jose against a JWKS a local
 * HTTP server publishes (keys made by jose): SDK v1 and v2 clients with a good token reach the
 * server, their scopes reach the call; an expired token (and one within the clock skew), a wrong
 * audience or issuer, another key's signature, an unsigned token, one without a subject, a
 * symmetric one are refused `401 invalid_token`; a JWKS that cannot be reached is `503` and a
 * warning without the token.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { CLOCK_SKEW_SECONDS, JwtVerifier } from '../src/adapters/gateway/auth-jwt.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { captureStream, rawRequest, STRICT_SERVER } from './_helpers/gateway.js';
import { isErrorResult, textOf } from './_helpers/modern.js';
import { startHttpPeer } from './peers/http-server.js';

const ISSUER = 'https://as.example';
const AUDIENCE = 'https://gateway.example/mcp';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let other: Awaited<ReturnType<typeof generateKeyPair>>;
let jwks: Server;
let jwksUrl: string;
let served = 0;

beforeAll(async () => {
  keys = await generateKeyPair('ES256');
  other = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  jwks = createServer((_request, response) => {
    served++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
});
afterAll(() => new Promise((resolve) => jwks.close(resolve)));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

/** A token signed by `key` (the JWKS's own by default) with the gateway's issuer and audience, for an hour, and `claims` over them. */
async function token(claims: Record<string, unknown> = {}, key = keys.privateKey, kid = 'k1'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', iat: now, exp: now + 3600, scope: 'tools:read tools:write', client_id: 'cli-app', ...claims }).setProtectedHeader({ alg: 'ES256', kid }).sign(key);
}

async function gateway(url = jwksUrl, requiredScopes?: string[]): Promise<Gateway & { stderr: () => string }> {
  const stderr = captureStream();
  const started = await startGateway(
    { kind: 'stdio', command: ['python3', STRICT_SERVER] },
    { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, auth: { jwt: { jwks: new URL(url), issuer: ISSUER, audience: [AUDIENCE] }, ...(requiredScopes === undefined ? {} : { requiredScopes }) } },
    stderr,
  );
  cleanups.push(() => started.close());
  return Object.assign(started, { stderr: stderr.text });
}

async function answerTo(url: string, bearer: string): Promise<{ status: number; challenge: string | undefined; body: string }> {
  const answer = await rawRequest(url, { headers: { ...POST, authorization: `Bearer ${bearer}` }, body: INIT });
  return { status: answer.status, challenge: answer.headers['www-authenticate'] as string | undefined, body: answer.body };
}

describe('a good JWT', () => {
  test('v1 and v2 clients call through; the JWKS is fetched once; the metadata names the issuer', async () => {
    const started = await gateway();
    const before = served;
    const good = await token();
    const v1 = new Client({ name: 'jwt-v1', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransport(new URL(started.url), { requestInit: { headers: { authorization: `Bearer ${good}` } } }));
    cleanups.push(() => v1.close());
    expect(isErrorResult(await v1.callTool({ name: 'search', arguments: { q: 'x', limit: '3' } }))).toBe(false);
    const v2 = new V2Client({ name: 'jwt-v2', version: '1.0.0' });
    await v2.connect(new V2Transport(new URL(started.url), { authProvider: { token: async () => token({ sub: 'bob' }) } }));
    cleanups.push(() => v2.close());
    expect(textOf(await v2.callTool({ name: 'search', arguments: { q: 'y' } }))).toContain('y');
    expect(served - before).toBe(1);
    const document = await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(JSON.parse(document.body)).toEqual({ resource: started.url, authorization_servers: [ISSUER], bearer_methods_supported: ['header'] });
    expect(started.stderr()).not.toContain(good);
  });

  test('a token expired less than the clock skew ago is taken; scopes as scp are read; a required scope is checked', async () => {
    const started = await gateway(jwksUrl, ['tools:write']);
    const now = Math.floor(Date.now() / 1000);
    expect((await answerTo(started.url, await token({ exp: now - CLOCK_SKEW_SECONDS + 20 }))).status).toBe(200);
    expect((await answerTo(started.url, await token({ scope: undefined, scp: ['tools:write'] }))).status).toBe(200);
    const lacking = await answerTo(started.url, await token({ scope: 'tools:read' }));
    expect(lacking.status).toBe(403);
    expect(lacking.challenge).toContain('error="insufficient_scope", scope="tools:write"');
  });
});

test("a session is the subject's: a refreshed token of the same subject keeps it, another subject's does not", async () => {
  const started = await gateway();
  const opened = await rawRequest(started.url, { headers: { ...POST, authorization: `Bearer ${await token()}` }, body: INIT });
  const session = opened.headers['mcp-session-id'] as string;
  expect(session).toBeTruthy();
  const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const headers = { ...POST, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  const refreshed = await rawRequest(started.url, { headers: { ...headers, authorization: `Bearer ${await token({ iat: Math.floor(Date.now() / 1000) + 1, jti: 'next' })}` }, body: list });
  expect(refreshed.status).toBe(200);
  expect(refreshed.body).toContain('get_symbol_info');
  const other = await rawRequest(started.url, { headers: { ...headers, authorization: `Bearer ${await token({ sub: 'mallory' })}` }, body: list });
  expect(other.status).toBe(404);
});

test('a token taken is taken again until its exp (with the skew), then refused as expired, on the clock the verifier reads', async () => {
  const verifier = await JwtVerifier.load({ jwks: new URL(jwksUrl), issuer: ISSUER, audience: [AUDIENCE] });
  const start = Date.UTC(2030, 0, 1);
  vi.useFakeTimers({ toFake: ['Date'], now: start });
  try {
    const good = await token({ iat: start / 1000, exp: start / 1000 + 10 });
    expect(await verifier.verify(good)).toMatchObject({ extra: { subject: 'alice' }, expiresAt: start / 1000 + 10, scopes: ['tools:read', 'tools:write'], clientId: 'cli-app' });
    vi.setSystemTime(start + (10 + CLOCK_SKEW_SECONDS - 1) * 1000);
    expect(await verifier.verify(good)).toMatchObject({ extra: { subject: 'alice' } });
    vi.setSystemTime(start + (10 + CLOCK_SKEW_SECONDS + 1) * 1000);
    expect(await verifier.verify(good)).toEqual({ invalid: 'the token has expired' });
  } finally {
    vi.useRealTimers();
  }
});

describe('a JWT that is not taken: 401 invalid_token, and why', () => {
  const now = (): number => Math.floor(Date.now() / 1000);
  test.each<[string, () => Promise<string>, string]>([
    ['expired', () => token({ exp: now() - CLOCK_SKEW_SECONDS - 5 }), 'the token has expired'],
    ['not yet valid', () => token({ nbf: now() + CLOCK_SKEW_SECONDS + 60 }), 'the token is not for this resource'],
    ['for another audience', () => token({ aud: 'https://other.example/mcp' }), 'the token is not for this resource'],
    ['of another issuer', () => token({ iss: 'https://evil.example' }), 'the token is not for this resource'],
    ['without exp', () => token({ exp: undefined }), 'the token is not for this resource'],
    ['without a subject', () => token({ sub: undefined }), 'the token is not for this resource'],
    ['signed by another key under the same kid', () => token({}, other.privateKey), 'the token signature does not verify'],
    ['signed by a key the JWKS lacks', () => token({}, other.privateKey, 'k2'), 'the token is signed by no key of the authorization server'],
    ['unsigned (alg none)', async () => new UnsecuredJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', exp: now() + 60 }).encode(), 'the token signature algorithm is not accepted'],
    ['symmetric (HS256)', () => new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'a', exp: now() + 60 }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(new Uint8Array(32)), 'the token signature algorithm is not accepted'],
    ['not a JWT', async () => 'abc.def.ghi', 'the token is not a valid JWT'],
  ])('%s', async (_name, make, why) => {
    const started = await gateway();
    const bad = await make();
    const answer = await answerTo(started.url, bad);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer resource_metadata="${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="${why}"`);
    expect(answer.body).not.toContain(bad);
  });
});

test('a JWKS that cannot be reached: 503 with Retry-After, and a warning naming the keys, not the token', async () => {
  const down = createServer();
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  const port = (down.address() as AddressInfo).port;
  await new Promise((resolve) => down.close(resolve));
  const started = await gateway(`http://127.0.0.1:${port}/jwks.json`);
  const good = await token();
  const answer = await answerTo(started.url, good);
  expect([answer.status, answer.body]).toEqual([503, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Service Unavailable: the gateway cannot check tokens now' } })]);
  expect(started.stderr()).toContain(`a token could not be checked: the keys at http://127.0.0.1:${port}/jwks.json cannot be used`);
  expect(started.stderr()).not.toContain(good);
});

test('a --url upstream never sees the JWT', async () => {
  const peer = await startHttpPeer({});
  cleanups.push(() => peer.close());
  const stderr = captureStream();
  const started = await startGateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', auth: { jwt: { jwks: new URL(jwksUrl), issuer: ISSUER, audience: [AUDIENCE] } } }, stderr);
  cleanups.push(() => started.close());
  expect((await answerTo(started.url, await token())).status).toBe(200);
  expect(peer.heads.length).toBe(1);
  expect(peer.heads[0]!.authorization).toBeUndefined();
});
