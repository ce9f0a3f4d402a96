/**
 * The proxy's session in process: its own `tools/list` paging against a server that pages
 * forever, repeats a cursor or answers slowly (bounded in pages and time, the waiting call goes
 * on with what was listed); a client paging `tools/list` itself; `list_changed`; its options.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { ProxySession, type ProxyOptions } from '../src/adapters/proxy/session.js';
import { knownSession } from './_helpers/known-session.js';

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

/** A session wired to arrays, its reports kept too, with the tool `t` (SCHEMA) listed by the client. */
function listed(options: ProxyOptions = {}) {
  return knownSession(options, [{ name: 't', inputSchema: SCHEMA }]);
}

describe('what a call reports and when it is answered instead of forwarded', () => {
  const UNDECLARED = CALL.replace('"n":2.0', '"n":2.0,"x":1');
  const rejects = () => ({ ok: false, message: 'no, says the validator' });

  test('no log, verbose, validator or rejectUndeclared: nothing is reported, the call goes on repaired', () => {
    const { session, toServer, toClient, reports } = listed();
    session.fromClient(Buffer.from(UNDECLARED), true);
    session.stop();
    expect(reports).toEqual([]);
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([UNDECLARED.replace('"n":2.0', '"n":2') + '\n']);
  });

  test.each<[string, ProxyOptions]>([
    ['log', { log: '/nowhere.jsonl' }],
    ['verbose', { verbose: true }],
  ])('%s alone: the change is reported, an undeclared key goes on, nothing is answered', (_, options) => {
    const { session, toServer, toClient, reports } = listed(options);
    session.fromClient(Buffer.from(UNDECLARED), true);
    session.stop();
    expect(reports.map((entry) => [entry.kind, entry.tool])).toEqual([['change', 't']]);
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([UNDECLARED.replace('"n":2.0', '"n":2') + '\n']);
  });

  test('rejectUndeclared: a call with an undeclared key is answered with an isError result, never forwarded; a clean one goes on', () => {
    const { session, toServer, toClient, reports } = listed({ rejectUndeclared: true });
    session.fromClient(Buffer.from(UNDECLARED), true);
    expect(toServer).toEqual([]);
    expect(toClient).toHaveLength(1);
    const answer = JSON.parse(toClient[0]!) as { id: number; result: { isError: boolean; content: { type: string; text: string }[] } };
    expect(answer.id).toBe(7);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.type).toBe('text');
    expect(answer.result.content[0]!.text).toContain('x');
    expect(reports.filter((entry) => entry.kind === 'rejection')).toEqual([{ kind: 'rejection', tool: 't', message: answer.result.content[0]!.text }]);
    session.fromClient(Buffer.from(CALL), true);
    session.stop();
    expect(toServer).toEqual([CALL.replace('"n":2.0', '"n":2') + '\n']);
  });

  test('a validator that refuses: the call is answered with its message; one that accepts: the call goes on', () => {
    const seen: unknown[] = [];
    const { session, toServer, toClient } = listed({ validator: (args) => (seen.push(args), rejects()) });
    session.fromClient(Buffer.from(CALL), true);
    expect(seen).toHaveLength(1);
    expect(toServer).toEqual([]);
    expect((JSON.parse(toClient[0]!) as { result: { content: { text: string }[] } }).result.content[0]!.text).toContain('no, says the validator');
    session.stop();
    const accepting = listed({ validator: () => ({ ok: true }) });
    accepting.session.fromClient(Buffer.from(UNDECLARED), true);
    accepting.session.stop();
    expect(accepting.toClient).toEqual([]);
    expect(accepting.toServer).toEqual([UNDECLARED.replace('"n":2.0', '"n":2') + '\n']);
  });
});

describe('syntax repair (lenient) and the arguments the head only located', () => {
  const LOOSE = CALL.replace('{"n":2.0}', '{n:2.0}');
  test.each<[string, ProxyOptions]>([
    ['true', { lenient: true }],
    ['{}', { lenient: {} }],
    ['{ syntax: false }', { lenient: { syntax: false } }],
    ['false', { lenient: false }],
    ['undefined', {}],
  ])('lenient %s: arguments that are not JSON make the line not JSON, which goes on as it came', (_, options) => {
    const { session, toServer, toClient } = listed(options);
    session.fromClient(Buffer.from(LOOSE), true);
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([LOOSE + '\n']);
  });

  const TWO = CALL.replace('{"n":2.0}', JSON.stringify('{"n":1} {"n":2}'));
  test.each<[string, ProxyOptions, boolean]>([
    ['true', { lenient: true }, true],
    ['{}', { lenient: {} }, true],
    ['{ syntax: false }', { lenient: { syntax: false } }, false],
    ['false', { lenient: false }, false],
    ['undefined', {}, false],
  ])('lenient %s: arguments given as a string holding two values are answered only under syntax repair (%s)', (_, options, answered) => {
    const { session, toServer, toClient } = listed(options);
    session.fromClient(Buffer.from(TWO), true);
    session.stop();
    if (answered) {
      expect(toServer).toEqual([]);
      expect(toClient).toHaveLength(1);
      expect(toClient[0]).toContain('"isError":true');
    } else {
      expect(toClient).toEqual([]);
      expect(toServer).toEqual([TWO + '\n']);
    }
  });
});

describe('when server lines may pass or stream unread', () => {
  const PLAIN = Buffer.from('{"jsonrpc":"2.0","id":5,"result":{"content":[]}}\n');
  test('not while the client\'s tools/list is awaited, nor while a call waits for the proxy\'s own listing', () => {
    const { session, toServer, own, answer } = wired();
    expect(session.serverPasses(PLAIN)).toBe(true);
    expect(session.serverStreams(PLAIN)).toBe(true);
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    expect(session.serverPasses(PLAIN)).toBe(false);
    expect(session.serverStreams(PLAIN)).toBe(false);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } })), true);
    expect(session.serverPasses(PLAIN)).toBe(true);
    expect(session.serverStreams(PLAIN)).toBe(true);
    session.fromClient(Buffer.from(CALL), true);
    expect(own()).toHaveLength(1);
    expect(session.serverPasses(PLAIN)).toBe(false);
    expect(session.serverStreams(PLAIN)).toBe(false);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    expect(session.serverPasses(PLAIN)).toBe(true);
    expect(session.serverStreams(PLAIN)).toBe(true);
    expect(toServer.at(-1)).toBe(CALL.replace('"n":2.0', '"n":2') + '\n');
    session.stop();
  });

  test('a server request reusing the id of the client\'s awaited tools/list is not taken for its answer', () => {
    const { session, toServer, own } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(CALL), true);
    session.stop();
    expect(own()).toEqual([]);
    expect(toServer.at(-1)).toBe(CALL.replace('"n":2.0', '"n":2') + '\n');
  });
});

describe('lines that go on as they came, with no newline added when they ended the stream without one', () => {
  test.each<[string, string]>([
    ['a line naming no tools/ method', '{"jsonrpc":"2.0","id":3,"method":"ping"}'],
    ['a call with no arguments', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}'],
    ['a call whose arguments need nothing', CALL.replace('"n":2.0', '"n":2')],
    ['a call whose arguments are a string that is not JSON (no syntax repair)', CALL.replace('{"n":2.0}', JSON.stringify('{n:2}'))],
    ['a call whose arguments are a string holding no object', CALL.replace('{"n":2.0}', JSON.stringify('[2.0]'))],
  ])('%s', (_, line) => {
    const { session, toServer, toClient } = listed();
    session.fromClient(Buffer.from(line), false);
    session.fromClient(Buffer.from(line), true);
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([line, line + '\n']);
  });
});

describe('which client lines are read, and what a read line is answered with', () => {
  const PING_TWICE = '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}';
  test.each<[string, string | undefined]>([
    ['with its latin1 image', PING_TWICE],
    ['without it', undefined],
  ])('a line naming no tools/ method is not read, even when it repeats a key (%s)', (_, image) => {
    const { session, toServer, toClient } = listed();
    session.fromClient(Buffer.from(PING_TWICE), true, image);
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([PING_TWICE + '\n']);
  });

  test.each<[string, string, string]>([
    ['a tools/list', '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}', ''],
    ['a call whose arguments are not JSON (located, not read)', '{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/call","params":{"name":"t","arguments":{n:2.0}}}', 't'],
  ])('%s repeating its id is answered with an error, never forwarded, and reported for the tool %j', (_, line, tool) => {
    const { session, toServer, toClient, reports } = listed();
    session.fromClient(Buffer.from(line), true);
    session.stop();
    expect(toServer).toEqual([]);
    expect(toClient).toHaveLength(1);
    expect(JSON.parse(toClient[0]!)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(reports).toEqual([{ kind: 'rejection', tool, message: 'the request repeats the key "id"' }]);
  });

  test('a tools/list without an id (a notification, never answered) awaits nothing: server lines still pass unread', () => {
    const { session, toServer } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","method":"tools/list"}'), true);
    session.stop();
    expect(toServer).toEqual(['{"jsonrpc":"2.0","method":"tools/list"}\n']);
    expect(session.serverPasses(Buffer.from('{"jsonrpc":"2.0","id":5,"result":{"content":[]}}\n'))).toBe(true);
  });

  test.each<[string, string]>([
    ['without an id (a notification, which no answer could reach)', CALL.replace('"id":7,', '')],
    ['without a tool name', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"n":2.0}}}'],
  ])('a tools/call %s goes on as it came, and the proxy asks the server nothing', (_, line) => {
    const { session, toServer, toClient, own } = wired();
    const listing = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(listing), true);
    session.fromClient(Buffer.from(line), true);
    session.stop();
    expect(own()).toEqual([]);
    expect(toServer.at(-1)).toBe(line + '\n');
    // The client had the listing, and nothing else.
    expect(toClient).toEqual([listing, '\n']);
  });

  test('a raw tab inside a string of the arguments makes them not JSON: the line goes on as it came, unrepaired', () => {
    const line = CALL.replace('{"n":2.0}', '{"n":2.0,"s":"a\tb"}');
    const { session, toServer, toClient } = listed();
    session.fromClient(Buffer.from(line), true);
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([line + '\n']);
  });

  test('arguments given as a string: the object goes on in its place, a line break between its tokens made a space', () => {
    const { session, toServer } = listed();
    session.fromClient(Buffer.from(CALL.replace('{"n":2.0}', JSON.stringify('{"n":2.0,\n"m":1,\r\n"k":0}'))), true);
    session.stop();
    expect(toServer).toEqual([CALL.replace('{"n":2.0}', '{"n":2, "m":1,  "k":0}') + '\n']);
  });

  test('a log: each refusal is reported with its path, reason, what was expected and the message; the call goes on', () => {
    const big = CALL.replace('"n":2.0', '"n":12345678901234567890123.0');
    const { session, toServer, toClient, reports } = listed({ log: '/nowhere.jsonl' });
    session.fromClient(Buffer.from(big), true);
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([big + '\n']);
    expect(reports).toEqual([
      {
        kind: 'refusal',
        tool: 't',
        path: '/n',
        reason: 'out-of-range',
        expected: ['integer'],
        message: '12345678901234567890123.0 at /n was left as it is: it is outside the supported range; expected integer',
      },
    ]);
  });

  const STRING_FIVE = CALL.replace('"n":2.0', '"n":"5"');
  test.each<[string, ProxyOptions, string]>([
    ['undefined', {}, STRING_FIVE],
    ['false', { lenient: false }, STRING_FIVE],
    ['{ strings: false }', { lenient: { strings: false } }, STRING_FIVE],
    ['true', { lenient: true }, CALL.replace('"n":2.0', '"n":5')],
    ['{}', { lenient: {} }, CALL.replace('"n":2.0', '"n":5')],
  ])('lenient %s: located arguments get the lenient rules asked for, and only those', (_, options, expected) => {
    const { session, toServer } = listed(options);
    session.fromClient(Buffer.from(STRING_FIVE), true);
    session.stop();
    expect(toServer).toEqual([expected + '\n']);
  });
});

describe('which server lines are read', () => {
  test('a server line that is not JSON is not read, though it names list_changed: the schemas are kept', () => {
    const { session, toServer, toClient } = listed();
    const notJson = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"arguments":{x}}}';
    session.fromServer(Buffer.from(notJson), true);
    session.fromClient(Buffer.from(CALL), true);
    session.stop();
    expect(toClient).toEqual([notJson, '\n']);
    expect(toServer).toEqual([CALL.replace('"n":2.0', '"n":2') + '\n']);
  });
});

describe("the proxy's own listing, step by step", () => {
  const REPAIRED = CALL.replace('"n":2.0', '"n":2') + '\n';
  const PING = '{"jsonrpc":"2.0","id":3,"method":"ping"}';
  /** The server's reply to the proxy's own request `id`. */
  const reply = (id: string, result: unknown): Buffer => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result }));

  test('its request is a JSON-RPC 2.0 tools/list with an id of the session\'s own prefix', () => {
    const { session, toServer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    session.stop();
    expect(toServer).toHaveLength(1);
    expect(toServer[0]!.endsWith('\n')).toBe(true);
    const request = JSON.parse(toServer[0]!) as { jsonrpc: string; id: string; method: string; params: unknown };
    expect(request).toEqual({ jsonrpc: '2.0', id: request.id, method: 'tools/list', params: {} });
    expect(request.id.startsWith(session.ownPrefix)).toBe(true);
  });

  test('while a call waits for it, client lines are read, not passed, and go on after the call, in order', () => {
    const { session, toServer, answer } = wired();
    expect(session.clientPasses(Buffer.from(PING + '\n'))).toBe(true);
    session.fromClient(Buffer.from(CALL), true);
    expect(session.clientPasses(Buffer.from(PING + '\n'))).toBe(false);
    session.fromClient(Buffer.from(PING), true);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    session.stop();
    expect(session.clientPasses(Buffer.from(PING + '\n'))).toBe(true);
    expect(toServer.slice(-2)).toEqual([REPAIRED, PING + '\n']);
  });

  test('answered with a JSON-RPC error: the call goes on at once, as it came, and nothing reaches the client', () => {
    const { session, toServer, toClient, own } = wired();
    session.fromClient(Buffer.from(CALL), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own()[0]!.id, error: { code: -32601, message: 'Method not found' } })), true);
    session.stop();
    expect(toClient).toEqual([]);
    expect(own()).toHaveLength(1);
    expect(toServer.at(-1)).toBe(CALL + '\n');
  });

  test('its first page replaces what was known: a tool listed before and missing from it is listed again when called', () => {
    const { session, toServer, own, answer } = wired();
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(CALL.replace('"t"', '"u"')), true);
    answer({ tools: [{ name: 'u', inputSchema: SCHEMA }] });
    expect(toServer.at(-1)).toBe(REPAIRED.replace('"t"', '"u"'));
    session.fromClient(Buffer.from(CALL), true);
    expect(own()).toHaveLength(2);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    session.stop();
    expect(toServer.at(-1)).toBe(REPAIRED);
  });

  test('whenIdle waits for a listing that a released line starts in turn', () => {
    const { session, toServer, own, answer } = wired();
    let idle = 0;
    session.fromClient(Buffer.from(CALL), true);
    session.fromClient(Buffer.from(CALL.replace('"id":7', '"id":8').replace('"t"', '"u"')), true);
    session.whenIdle(() => idle++);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    expect(own()).toHaveLength(2);
    expect(idle).toBe(0);
    answer({ tools: [{ name: 'u', inputSchema: SCHEMA }] });
    session.stop();
    expect(idle).toBe(1);
    expect(toServer.at(-1)).toBe(REPAIRED.replace('"id":7', '"id":8').replace('"t"', '"u"'));
  });

  test('once stopped, the listing\'s time running out sends nothing more', () => {
    vi.useFakeTimers();
    const { session, toServer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    session.stop();
    vi.advanceTimersByTime(10_000);
    expect(toServer).toHaveLength(1);
  });

  test('an answer repeated after its listing ended, nothing of the proxy\'s pending: read as the unread chunk passes it, to the client', () => {
    const { session, toClient, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    const again = reply(own()[0]!.id, { tools: [] });
    expect(session.serverPasses(again)).toBe(true);
    session.fromServer(again, true);
    session.stop();
    expect(toClient).toEqual([again.toString('utf8'), '\n']);
  });

  test('a page answered twice while the next is pending: the next page is still the listing\'s, and the call goes on at once', () => {
    const { session, toServer, toClient, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }], nextCursor: 'p2' });
    expect(own()).toHaveLength(2);
    session.fromServer(reply(own()[0]!.id, { tools: [{ name: 't', inputSchema: SCHEMA }], nextCursor: 'p2' }), true);
    answer({ tools: [] });
    session.stop();
    expect(toClient).toEqual([]);
    expect(toServer.at(-1)).toBe(REPAIRED);
  });

  test('a repeated answer read while nothing of the proxy\'s is pending counts for nothing: a later listing\'s late page is still kept from the client', () => {
    vi.useFakeTimers();
    const { session, toClient, own, answer } = wired();
    session.fromClient(Buffer.from(CALL), true);
    answer({ tools: [{ name: 't', inputSchema: SCHEMA }] });
    // A client's tools/list is awaited, so the repeated answer is read.
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(reply(own()[0]!.id, { tools: [] }), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
    session.fromClient(Buffer.from(CALL.replace('"t"', '"u"')), true);
    expect(own()).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    const late = reply(own()[1]!.id, { tools: [] });
    expect(session.serverPasses(late)).toBe(false);
    session.fromServer(late, true);
    session.stop();
    expect(toClient.filter((piece) => piece.includes(own()[1]!.id))).toEqual([]);
  });
});
