/**
 * The proxy's session in process: its own `tools/list` paging against a server that pages
 * forever, repeats a cursor or answers slowly (bounded in pages and time, the waiting call goes
 * on with what was listed); a client paging `tools/list` itself; `list_changed`; its options.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { ProxySession, type ProxyOptions } from '../src/adapters/proxy/session.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } } };
const CALL = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"n":2.0}}}';

/** A session wired to arrays: what went to the server (parsed when it is the proxy's own) and to the client. */
function wired(options: ProxyOptions = {}) {
  const toServer: string[] = [];
  const toClient: string[] = [];
  const session = new ProxySession(options, {
    toServer: (pieces: readonly Piece[]) => toServer.push(Buffer.concat(pieces.map(bytesOf)).toString('utf8')),
    toClient: (piece: Piece) => toClient.push(bytesOf(piece).toString('utf8')),
    report: () => undefined,
  });
  /** The proxy's own requests so far. */
  const own = (): { id: string; params: { cursor?: string } }[] => toServer.filter((line) => line.includes('schema-coerce-proxy:')).map((line) => JSON.parse(line) as never);
  /** Answers the proxy's last own request with `result`. */
  const answer = (result: unknown): void => session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own().at(-1)!.id, result })), true);
  return { session, toServer, toClient, own, answer };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the proxy's own tools/list", () => {
  test('a server repeating its nextCursor is asked for it once; the call goes on, repaired with what was listed', () => {
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }], nextCursor: 'same' });
    answer({ tools: [], nextCursor: 'same' });
    session.stop();
    expect(own().map((request) => request.params.cursor)).toEqual([undefined, 'same']);
    expect(toServer.at(-1)).toBe(CALL.replace('"n":2.0', '"n":2') + '\n');
  });

  test('a server with a fresh cursor on every page is read for 100 pages, then the call goes on', () => {
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    for (let page = 0; page < 150 && own().length === page + 1; page++) answer({ tools: page === 0 ? [{ name: 't', inputSchema: SCHEMA }] : [], nextCursor: `c${page}` });
    session.stop();
    expect(own()).toHaveLength(100);
    expect(toServer.at(-1)).toBe(CALL.replace('"n":2.0', '"n":2') + '\n');
  });

  test('pages that come slowly: the listing has 10 s in all, not per page; a late page adds its tools, asks nothing', () => {
    vi.useFakeTimers();
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    vi.advanceTimersByTime(9_000);
    answer({ tools: [{ name: 'u', inputSchema: SCHEMA }], nextCursor: 'next' });
    expect(own()).toHaveLength(2);
    vi.advanceTimersByTime(999);
    expect(toServer.at(-1)).not.toBe(CALL + '\n');
    vi.advanceTimersByTime(1);
    // Released unchanged: tool `t` was not listed in time.
    expect(toServer.at(-1)).toBe(CALL + '\n');
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }], nextCursor: 'more' });
    expect(own()).toHaveLength(2);
    // The late page's tool is known now, and `u` from the first page is still known.
    session.fromClient(Buffer.from(CALL.replace('"id":7', '"id":8')), true);
    session.fromClient(Buffer.from(CALL.replace('"id":7', '"id":9').replace('"t"', '"u"')), true);
    expect(toServer.slice(-2)).toEqual([CALL.replace('"id":7', '"id":8').replace('"n":2.0', '"n":2') + '\n', CALL.replace('"id":7', '"id":9').replace('"t"', '"u"').replace('"n":2.0', '"n":2') + '\n']);
    session.stop();
  });

  test('a page answering an earlier listing is not taken for a page of the one that runs', () => {
    vi.useFakeTimers();
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    const first = own()[0]!.id;
    vi.advanceTimersByTime(10_000);
    // A second unknown tool starts a second listing.
    session.fromClient(Buffer.from(CALL.replace('"t"', '"v"')), true);
    expect(own()).toHaveLength(2);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: first, result: { tools: [{ name: 'v', inputSchema: SCHEMA }], nextCursor: 'x' } })), true);
    // Not followed, and the call still waits for its own listing's answer.
    expect(own()).toHaveLength(2);
    expect(toServer.at(-1)).toContain('schema-coerce-proxy:');
    answer({ tools: [{ name: 'v', inputSchema: SCHEMA }] });
    expect(toServer.at(-1)).toBe(CALL.replace('"t"', '"v"').replace('"n":2.0', '"n":2') + '\n');
    session.stop();
  });

  test('a late page never reaches the client, even when nothing waits and the server\'s lines would pass unread', () => {
    vi.useFakeTimers();
    const { session, toClient, own } = wired();
    session.fromClient(Buffer.from(CALL), true);
    vi.advanceTimersByTime(10_000);
    const late = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own()[0]!.id, result: { tools: [] } }));
    expect(session.serverPasses(late)).toBe(false);
    expect(session.serverStreams(late)).toBe(false);
    // Any other long line still streams, though a reply is awaited (it may never come).
    expect(session.serverStreams(Buffer.from('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"xxxx'))).toBe(true);
    session.fromServer(late, true);
    expect(toClient).toEqual([]);
    // Answered, nothing of the proxy's is pending: the server's lines pass again, and stream.
    expect(session.serverPasses(late)).toBe(true);
    expect(session.serverStreams(late)).toBe(true);
    session.stop();
  });
});

describe('what the session learns from the client\'s own tools/list', () => {
  test('a client paging tools/list itself: every page is kept, the first replaces what was known', () => {
    const { session, toServer, own } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }], nextCursor: 'p2' } })), true);
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'u', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(CALL), true);
    session.fromClient(Buffer.from(CALL.replace('"t"', '"u"')), true);
    expect(own()).toEqual([]);
    expect(toServer.slice(-2)).toEqual([CALL.replace('"n":2.0', '"n":2') + '\n', CALL.replace('"t"', '"u"').replace('"n":2.0', '"n":2') + '\n']);
    // A first page again: the tools before it are forgotten.
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 3, result: { tools: [{ name: 'u', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(CALL), true);
    expect(own()).toHaveLength(1);
    session.stop();
  });

  test('notifications/tools/list_changed: the schemas are forgotten, and the next call lists them again', () => {
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'), true);
    session.fromClient(Buffer.from(CALL), true);
    expect(own()).toHaveLength(1);
    // The tool is now a string: the stale integer schema is not used.
    answer({ tools: [{ name: 't', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }] });
    expect(toServer.at(-1)).toBe(CALL + '\n');
    session.stop();
  });
});

describe('the session\'s options', () => {
  const BIG = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"n":12345678901234567890123.0}}}';
  test.each<[ProxyOptions, string]>([
    [{}, BIG],
    [{ integerRange: 'unbounded' }, BIG.replace('.0}', '}')],
    [{ integerRange: 'safe' }, BIG],
  ])('integerRange %j', (options, expected) => {
    const { session, toServer } = wired(options);
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(BIG), true);
    session.fromClient(Buffer.from(CALL.replace('"n":2.0', '"n":9007199254740993.0')), true);
    expect(toServer.at(-2)).toBe(expected + '\n');
    expect(toServer.at(-1)).toBe(CALL.replace('"n":2.0', options.integerRange === 'safe' ? '"n":9007199254740993.0' : '"n":9007199254740993') + '\n');
    session.stop();
  });
});
