/**
 * The parts of the 2026-07-28 revision in process: the envelope read from a call's `_meta` (and
 * nothing else of it), the standard headers derived from a body, the proxy session's own
 * `tools/list` carrying the envelope, and the gateway's per-caller pool of what serves requests
 * without a session.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { callerOf, isStateless, ownHeaders, StatelessPool, withStandardHeaders } from '../src/adapters/gateway/stateless.js';
import { readHead } from '../src/adapters/proxy/message.js';
import { envelopeOf, modernHeaders } from '../src/adapters/proxy/modern.js';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { ProxySession } from '../src/adapters/proxy/session.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const META = { [VERSION]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { sampling: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } };
/** A request of the 2026-07-28 revision, its `_meta` after its arguments with a progress token beside the envelope. */
const MODERN = (method: string, params: Record<string, unknown>, id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { progressToken: 'p', ...META } } });

describe('the envelope of a request', () => {
  test('read from `_meta` after located arguments: the three envelope keys, nothing else', () => {
    const text = MODERN('tools/call', { name: 'echo', arguments: { count: 1.0, nested: { a: [1, 2] } } });
    const head = readHead(text, true)!;
    expect(head.args?.unread).toBe(true);
    expect(JSON.parse(text.slice(head.meta!.start, head.meta!.end))).toEqual({ progressToken: 'p', ...META });
    expect(envelopeOf(text, head)).toEqual(META);
  });

  test('`_meta` before the arguments, read whole, and a head without its span (a call shape) read again', () => {
    const text = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":${JSON.stringify(META)},"name":"echo","arguments":{"count":1}}}`;
    const head = readHead(text, true)!;
    expect(envelopeOf(text, head)).toEqual(META);
    expect(envelopeOf(text, { ...head, meta: undefined } as never)).toEqual(META);
  });

  test('none for a 2025-era request, a `_meta` without the protocol version, or one that is not an object', () => {
    const without = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'e', arguments: {}, _meta: { progressToken: 1 } } });
    const arrayMeta = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'e', arguments: {}, _meta: [VERSION] } });
    const deeper = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'e', arguments: { _meta: META } } });
    for (const text of ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e","arguments":{}}}', without, arrayMeta, deeper]) expect(envelopeOf(text, readHead(text, true)!)).toBeUndefined();
    expect(readHead(arrayMeta, true)!.meta).toBeUndefined();
  });
});

describe('the standard headers a body gives', () => {
  test.each([
    ['tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': 'echo' }],
    ['prompts/get', { name: 'greet' }, { 'mcp-name': 'greet' }],
    ['resources/read', { uri: 'file:///a b' }, { 'mcp-name': 'file:///a b' }],
    ['tasks/get', { taskId: 't-1' }, { 'mcp-name': 't-1' }],
    ['tasks/cancel', { taskId: 't-2' }, { 'mcp-name': 't-2' }],
    ['tools/list', {}, {}],
    ['server/discover', {}, {}],
    ['tools/call', { name: 'écho', arguments: {} }, { 'mcp-name': `=?base64?${Buffer.from('écho').toString('base64')}?=` }],
    ['tools/call', { name: ' padded', arguments: {} }, { 'mcp-name': `=?base64?${Buffer.from(' padded').toString('base64')}?=` }],
    ['tools/call', { name: '=?base64?x?=', arguments: {} }, { 'mcp-name': `=?base64?${Buffer.from('=?base64?x?=').toString('base64')}?=` }],
    ['tools/call', { name: '', arguments: {} }, { 'mcp-name': '=?base64??=' }],
    ['resources/read', { uri: 7 }, {}],
  ])('%s %j', (method, params, name) => {
    expect(modernHeaders(Buffer.from(MODERN(method, params)))).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name });
  });

  test('none for a 2025-era request, a notification, a response, or a claim that is not a string', () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: META } });
    const response = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { _meta: META } });
    const numeric = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [VERSION]: 20260728 } } });
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}', notification, response, numeric, 'not json ' + VERSION]) expect(modernHeaders(Buffer.from(body))).toBeUndefined();
  });
});

describe("the proxy session's own tools/list", () => {
  function wired() {
    const toServer: string[] = [];
    const session = new ProxySession({}, { toServer: (pieces: readonly Piece[]) => toServer.push(Buffer.concat(pieces.map(bytesOf)).toString('utf8')), toClient: () => undefined, report: () => undefined });
    const own = (): { id: string; params: Record<string, unknown> }[] => toServer.filter((line) => line.includes('schema-coerce-proxy:')).map((line) => JSON.parse(line) as never);
    const answer = (result: unknown): void => session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own().at(-1)!.id, result })), true);
    return { session, toServer, own, answer };
  }

  test("carries the envelope of the call that made it ask, on every page; the call then goes on repaired", () => {
    const { session, toServer, own, answer } = wired();
    const call = MODERN('tools/call', { name: 'echo', arguments: { count: 2.0 } }, 9);
    session.fromClient(Buffer.from(call), true);
    expect(own()[0]!.params).toEqual({ _meta: META });
    answer({ tools: [], nextCursor: 'next', resultType: 'complete' });
    expect(own()[1]!.params).toEqual({ cursor: 'next', _meta: META });
    answer({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } }], resultType: 'complete' });
    session.stop();
    expect(JSON.parse(toServer.at(-1)!).params.arguments).toEqual({ count: 2 });
    expect(toServer.at(-1)).toContain('"arguments":{"count":2}');
  });

  test('a 2025-era call makes it list without one', () => {
    const { session, own } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"count":2.0}}}'), true);
    session.stop();
    expect(own()[0]!.params).toEqual({});
  });
});

describe("the gateway's requests without a session", () => {
  const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

  test('told by the header or by the body, never when a session is named', () => {
    const body = Buffer.from(MODERN('tools/list', {}));
    expect(isStateless(request({ 'mcp-protocol-version': '2026-07-28' }), Buffer.from('{}'))).toBe(true);
    expect(isStateless(request({}), body)).toBe(true);
    expect(isStateless(request({ 'mcp-protocol-version': '2025-11-25' }), Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize"}'))).toBe(false);
    expect(isStateless(request({ 'mcp-session-id': 's' }), body)).toBe(false);
  });

  test("the client's standard headers go on; the gateway's own request has its own", () => {
    const client = withStandardHeaders(request({ 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-param-region': 'eu', 'mcp-other': 'x', authorization: 'Bearer t' }), { authorization: 'Bearer t' });
    expect(client).toEqual({ authorization: 'Bearer t', 'mcp-method': 'tools/call', 'mcp-name': 'echo', 'mcp-param-region': 'eu' });
    const own = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'schema-coerce-proxy:x:1', method: 'tools/list', params: { _meta: META } }));
    expect(ownHeaders(client, own)).toEqual({ authorization: 'Bearer t', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    const legacy = { authorization: 'Bearer t', 'mcp-protocol-version': '2025-11-25' };
    expect(ownHeaders(legacy, Buffer.from('{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{}}'))).toBe(legacy);
    expect(ownHeaders(legacy, undefined)).toBe(legacy);
  });

  test('callers are told apart by their Authorization, never by its text', () => {
    expect(callerOf({})).toBe('');
    expect(callerOf({ authorization: 'Bearer a' })).not.toBe(callerOf({ authorization: 'Bearer b' }));
    expect(callerOf({ authorization: 'Bearer a' })).toBe(callerOf({ authorization: 'Bearer a' }));
    expect(callerOf({ authorization: 'Bearer a' })).not.toContain('Bearer');
    // A subject the gateway's auth verified stands for the caller, whatever token it came with.
    expect(callerOf({ authorization: 'Bearer a' }, 'alice')).toBe(callerOf({}, 'alice'));
    expect(callerOf({}, 'alice')).not.toBe(callerOf({}, 'bob'));
  });

  test('the pool: a free item again, a new one when all are busy, the bounds kept, a forgotten item not served', () => {
    const busy = new Set<number>();
    let made = 0;
    const pool = new StatelessPool<number>((item) => !busy.has(item), 2, 2);
    const make = (catalogue: unknown): number => {
      catalogues.push(catalogue);
      return ++made;
    };
    const catalogues: unknown[] = [];
    expect(pool.take('a', make)).toBe(1);
    expect(pool.take('a', make)).toBe(1);
    busy.add(1);
    expect(pool.take('a', make)).toBe(2);
    busy.add(2);
    // Past the bound an item is made for the request and not kept.
    expect(pool.take('a', make)).toBe(3);
    expect([...pool.all()]).toEqual([1, 2]);
    expect(catalogues[0]).toBe(catalogues[2]);
    busy.delete(2);
    pool.forget(1);
    expect(pool.take('a', make)).toBe(2);
    // Another caller has its own items and catalogue; a third drops the least recently seen.
    expect(pool.take('b', make)).toBe(4);
    expect(catalogues.at(-1)).not.toBe(catalogues[0]);
    expect(pool.take('c', make)).toBe(5);
    expect([...pool.all()]).toEqual([4, 5]);
    expect(pool.take('d', () => undefined)).toBeUndefined();
  });
});
