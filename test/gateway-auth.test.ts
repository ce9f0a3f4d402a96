/**
 * Bearer-token auth at the gateway (#41 item 1), in process on loopback: SDK v1 and v2 clients
 * with a token of a static list, to a `--url` SDK server and to the strict Python stdio server;
 * every refusal as RFC 6750 and the MCP authorization specification write it (no token, a token
 * in the query string, a wrong one, a malformed header, a missing scope); the protected-resource
 * metadata (RFC 9728) as the SDKs' own discovery reads it; what goes upstream (not the client's
 * token, unless asked; `--header` credentials instead); the subject in the audit log, and no
 * token in any log line.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client, discoverOAuthProtectedResourceMetadata, InsufficientScopeError, StreamableHTTPClientTransport as V2Transport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverOAuthProtectedResourceMetadata as v1Discover } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { TokenList, TokenListError } from '../src/adapters/gateway/auth-tokens.js';
import type { GatewayOptions, GatewayUpstream } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { captureStream, rawRequest, STRICT_SERVER } from './_helpers/gateway.js';
import { isErrorResult, textOf } from './_helpers/modern.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startHttpPeer, type HttpPeer } from './peers/http-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

const ALICE = 'alice-7d1f0c9b2e4a6c8d0f1e3a5b7c9d2e4f';
const BOB = 'bob-0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d';
const BOB_SHA = createHash('sha256').update(BOB).digest('hex');
const PYTHON: GatewayUpstream = { kind: 'stdio', command: ['python3', STRICT_SERVER] };
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A token list with Alice (by her token, scope tools:read) and Bob (by his token's SHA-256, no scope). */
function tokenFile(): string {
  const file = join(makeTempDir('auth-'), 'tokens.json');
  writeFileSync(file, JSON.stringify([{ token: ALICE, subject: 'alice', scopes: ['tools:read'] }, { sha256: BOB_SHA, subject: 'bob', scopes: [] }]));
  return file;
}

async function gateway(upstream: GatewayUpstream, options: Partial<GatewayOptions> = {}): Promise<Gateway & { stderr: () => string }> {
  const stderr = captureStream();
  const started = await startGateway(upstream, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, auth: { tokens: tokenFile() }, ...options }, stderr);
  cleanups.push(() => started.close());
  return Object.assign(started, { stderr: stderr.text });
}

async function urlPeer(header?: [string, string]): Promise<HttpPeer> {
  const peer = await startHttpPeer(header === undefined ? {} : { header });
  cleanups.push(() => peer.close());
  return peer;
}

async function v1Client(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'auth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  cleanups.push(() => client.close());
  return client;
}

async function v2Client(url: string, token: string): Promise<V2Client> {
  const client = new V2Client({ name: 'auth-test-v2', version: '1.0.0' });
  await client.connect(new V2Transport(new URL(url), { authProvider: { token: async () => token } }));
  cleanups.push(() => client.close());
  return client;
}

/** The parameters of a `Bearer` challenge. */
function challenge(header: string | string[] | undefined): Record<string, string> {
  expect(typeof header).toBe('string');
  expect(header as string).toMatch(/^Bearer /);
  return Object.fromEntries([...(header as string).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((match) => [match[1]!, match[2]!]));
}

describe('SDK clients with a bearer token of the list', () => {
  test('v1 and v2 clients call through to a --url server; the token stays at the gateway; the audit log names the subject and holds no token', async () => {
    const peer = await urlPeer();
    const audit = join(makeTempDir('auth-audit-'), 'audit.jsonl');
    const log = join(makeTempDir('auth-log-'), 'log.jsonl');
    const started = await gateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { audit, log, verbose: true });
    const v1 = await v1Client(started.url, ALICE);
    expect(textOf(await v1.callTool({ name: 'echo', arguments: { count: '7' } }))).toBe('{"count":7}');
    const v2 = await v2Client(started.url, BOB);
    expect(textOf(await v2.callTool({ name: 'echo', arguments: { count: '8' } }))).toBe('{"count":8}');
    expect(peer.heads.length).toBeGreaterThan(2);
    for (const head of peer.heads) expect(head.authorization).toBeUndefined();
    await started.close();
    await started.log.close();
    const lines = readFileSync(audit, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { client: { subject?: string } });
    expect(lines.map((line) => line.client.subject)).toEqual(['alice', 'bob']);
    for (const text of [readFileSync(audit, 'utf8'), readFileSync(log, 'utf8'), started.stderr()]) {
      expect(text).not.toContain(ALICE);
      expect(text).not.toContain(BOB);
    }
  });

  test('a v1 client to the strict Python stdio server; another token cannot use its session', async () => {
    const started = await gateway(PYTHON);
    const client = await v1Client(started.url, ALICE);
    expect(isErrorResult(await client.callTool({ name: 'search', arguments: { q: 'x', limit: '5' } }))).toBe(false);
    const session = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const other = await rawRequest(started.url, { headers: { ...POST, authorization: `Bearer ${BOB}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: list });
    expect(other.status).toBe(404);
  });

  test('--forward-authorization sends the checked token on; without it a --header credential goes instead', async () => {
    const peer = await urlPeer();
    const forwarding = await gateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { forwardAuthorization: true });
    await (await v1Client(forwarding.url, ALICE)).listTools();
    expect(peer.heads.at(-1)!.authorization).toBe(`Bearer ${ALICE}`);
    const own = await urlPeer(['authorization', 'Bearer upstream-credential']);
    const started = await gateway({ kind: 'url', url: new URL(own.url), headers: { authorization: 'Bearer upstream-credential' } });
    const client = await v2Client(started.url, ALICE);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { count: 1 } }))).toBe('{"count":1}');
    for (const head of own.heads) expect(head.authorization).toBe('Bearer upstream-credential');
  });

  test("an upstream refusing the gateway's own credentials is a 502, with no challenge the client could answer", async () => {
    const peer = await urlPeer(['authorization', 'Bearer right']);
    const started = await gateway({ kind: 'url', url: new URL(peer.url), headers: { authorization: 'Bearer wrong' } });
    const answer = await rawRequest(started.url, { headers: { ...POST, authorization: `Bearer ${ALICE}` }, body: INIT });
    expect(answer.status).toBe(502);
    expect(answer.headers['www-authenticate']).toBeUndefined();
    expect(answer.body).toContain("refused the gateway's credentials (HTTP 401)");
  });
});

describe("the token's scopes and the tool policy (--tool-scope)", () => {
  test('a tool that needs a scope is listed and callable for the token that grants it, denied by name to the one that does not', async () => {
    const peer = await urlPeer();
    const started = await gateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { toolPolicy: { scoped: ['echo=tools:read'] } });
    const alice = await v1Client(started.url, ALICE);
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect(textOf(await alice.callTool({ name: 'echo', arguments: { count: '3' } }))).toBe('{"count":3}');
    const bob = await v2Client(started.url, BOB);
    expect((await bob.listTools()).tools.map((tool) => tool.name)).not.toContain('echo');
    const denied = await bob.callTool({ name: 'echo', arguments: { count: 3 } });
    expect(isErrorResult(denied)).toBe(true);
    expect(textOf(denied)).toBe('schema-coerce gateway: the tool "echo" needs the scope "tools:read" by the gateway\'s tool policy (--tool-scope "echo=tools:read")');
    const document = await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(JSON.parse(document.body)).not.toHaveProperty('scopes_supported');
  });

  test('a caller past its rate limit is counted by its verified token, not its address', async () => {
    const peer = await urlPeer();
    const started = await gateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { rateLimits: { caller: '2/h' } });
    const ask = (token: string): Promise<number> => rawRequest(started.url, { headers: { ...POST, authorization: `Bearer ${token}` }, body: INIT }).then((answer) => answer.status);
    expect([await ask(ALICE), await ask(ALICE), await ask(ALICE)]).toEqual([200, 200, 429]);
    expect(await ask(BOB)).toBe(200);
  });
});

describe('refusals', () => {
  test('no token, a token in the query string, another scheme: 401 with the metadata URL and no error', async () => {
    const started = await gateway(PYTHON);
    const metadata = `${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp`;
    for (const [url, headers] of [
      [started.url, POST],
      [`${started.url}?access_token=${ALICE}`, POST],
      [started.url, { ...POST, authorization: `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}` }],
    ] as const) {
      const answer = await rawRequest(url, { headers, body: INIT });
      expect(answer.status).toBe(401);
      expect(challenge(answer.headers['www-authenticate'])).toEqual({ resource_metadata: metadata });
      expect(JSON.parse(answer.body).error.message).toBe('Unauthorized: this gateway needs a bearer token (Authorization: Bearer <token>)');
    }
    // A GET stream and a DELETE need the token too.
    expect((await rawRequest(started.url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await rawRequest(started.url, { method: 'DELETE', headers: { 'mcp-session-id': 'x' } })).status).toBe(401);
    expect(started.stderr()).not.toContain(ALICE);
  });

  test('a wrong token: 401 invalid_token; a malformed header: 400 invalid_request; no token text in any answer', async () => {
    const started = await gateway(PYTHON);
    const wrong = await rawRequest(started.url, { headers: { ...POST, authorization: `Bearer ${ALICE}x` }, body: INIT });
    expect(wrong.status).toBe(401);
    expect(challenge(wrong.headers['www-authenticate'])).toMatchObject({ error: 'invalid_token', error_description: 'the token is not known' });
    expect(wrong.body).not.toContain(ALICE);
    for (const header of ['Bearer', 'Bearer ', `Bearer ${ALICE} ${BOB}`, `Bearer ${ALICE},x`, 'Bearer "quoted"']) {
      const answer = await rawRequest(started.url, { headers: { ...POST, authorization: header }, body: INIT });
      expect(answer.status, header).toBe(400);
      expect(challenge(answer.headers['www-authenticate']).error).toBe('invalid_request');
      expect(answer.body).not.toContain(ALICE);
    }
  });

  test('a missing required scope: 403 insufficient_scope with the scope, as the v2 SDK reads it', async () => {
    const started = await gateway(PYTHON, { auth: { tokens: tokenFile(), requiredScopes: ['tools:read'] } });
    await (await v1Client(started.url, ALICE)).listTools();
    const error = await v2Client(started.url, BOB).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect((error as InsufficientScopeError).requiredScope).toBe('tools:read');
    expect((error as InsufficientScopeError).resourceMetadataUrl?.href).toBe(`${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp`);
    // Without a token, the challenge names the scope to ask for (the MCP specification's scope selection).
    const none = await rawRequest(started.url, { headers: POST, body: INIT });
    expect(challenge(none.headers['www-authenticate']).scope).toBe('tools:read');
  });

  test('the v2 SDK without a token meets the challenge', async () => {
    const started = await gateway(PYTHON);
    const client = new V2Client({ name: 'no-token', version: '1.0.0' });
    await expect(client.connect(new V2Transport(new URL(started.url), { authProvider: { token: async () => undefined } }))).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('the protected-resource metadata (RFC 9728)', () => {
  test('served unauthenticated at the well-known path and with the endpoint path after it; the SDKs discover it', async () => {
    const started = await gateway(PYTHON, { auth: { tokens: tokenFile(), requiredScopes: ['tools:read'], authorizationServers: ['https://as.example/'] } });
    const expected = { resource: started.url, authorization_servers: ['https://as.example/'], scopes_supported: ['tools:read'], bearer_methods_supported: ['header'] };
    expect(await v1Discover(started.url)).toEqual(expected);
    expect(await discoverOAuthProtectedResourceMetadata(started.url)).toEqual(expected);
    const root = await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource`, { method: 'GET' });
    expect([root.status, JSON.parse(root.body)]).toEqual([200, expected]);
    expect((await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource`, { method: 'POST' })).status).toBe(405);
  });

  test('--auth-resource names the public URL, in the document and in the challenge', async () => {
    const started = await gateway(PYTHON, { auth: { tokens: tokenFile(), resource: new URL('https://mcp.example.com/tools/mcp') } });
    const answer = await rawRequest(started.url, { headers: POST, body: INIT });
    expect(challenge(answer.headers['www-authenticate']).resource_metadata).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/tools/mcp');
    const document = await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource/mcp`, { method: 'GET' });
    expect(JSON.parse(document.body)).toEqual({ resource: 'https://mcp.example.com/tools/mcp', bearer_methods_supported: ['header'] });
  });

  test('without auth there is no metadata document', async () => {
    const started = await startGateway(PYTHON, { host: '127.0.0.1', port: 0, path: '/mcp' }, captureStream());
    cleanups.push(() => started.close());
    expect((await rawRequest(`${new URL(started.url).origin}/.well-known/oauth-protected-resource`, { method: 'GET' })).status).toBe(404);
  });
});

describe('the token list', () => {
  test.each([
    ['{}', 'source: must be a non-empty array of {"token" or "sha256", "subject", "scopes"}'],
    ['[]', 'source: must be a non-empty array'],
    ['[1]', 'source: /0 must be an object'],
    [`[{"token":"${ALICE}","subject":"a","scopes":[],"role":"x"}]`, 'source: /0/role is not a key of an entry'],
    [`[{"subject":"a","scopes":[]}]`, 'source: /0 must have either "token" or "sha256"'],
    [`[{"token":"${ALICE}","sha256":"${BOB_SHA}","subject":"a","scopes":[]}]`, 'source: /0 must have either "token" or "sha256"'],
    ['[{"token":"short-token-1234","subject":"a","scopes":[]}]', 'source: /0/token must be a bearer token of at least 32 characters'],
    [`[{"token":"${ALICE} with space","subject":"a","scopes":[]}]`, 'source: /0/token must be a bearer token'],
    ['[{"sha256":"abc","subject":"a","scopes":[]}]', 'source: /0/sha256 must be 64 hex digits'],
    [`[{"token":"${ALICE}","subject":"","scopes":[]}]`, 'source: /0/subject must be a non-empty string'],
    [`[{"token":"${ALICE}","subject":"a"}]`, 'source: /0/scopes must be an array'],
    [`[{"token":"${ALICE}","subject":"a","scopes":["two words"]}]`, 'source: /0/scopes/0 must be a scope'],
  ])('%s is refused by its pointer, never with a token', (text, message) => {
    let error: unknown;
    try {
      TokenList.of(JSON.parse(text), 'source');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TokenListError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain(ALICE);
  });

  test('a file that is not JSON is named by position, without its text', () => {
    const file = join(makeTempDir('auth-bad-'), 'tokens.json');
    writeFileSync(file, `[{"token": ${ALICE}}]`);
    expect(() => TokenList.read(file)).toThrow(`--auth-tokens ${file}: not JSON at line 1 column 12`);
    expect(() => TokenList.read(join(file, 'none'))).toThrow('cannot read the file (ENOTDIR)');
  });

  test('a token matches its entry, by its text or by its hash, and nothing else', () => {
    const list = TokenList.of([{ token: ALICE, subject: 'alice', scopes: ['a', 'b'] }, { sha256: BOB_SHA, subject: 'bob', scopes: [] }], 'source');
    expect(list.verify(ALICE)).toEqual({ token: ALICE, clientId: 'alice', scopes: ['a', 'b'], extra: { subject: 'alice' } });
    expect(list.verify(BOB)?.extra.subject).toBe('bob');
    expect(list.verify(BOB_SHA)).toBeUndefined();
    expect(list.verify(ALICE.slice(0, -1))).toBeUndefined();
  });
});
