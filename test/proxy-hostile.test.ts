/**
 * The proxy against a hostile client, in process: lines that two readers read two ways (a key the
 * envelope or `params` repeats), and batches holding a `tools/` request, are answered with a
 * JSON-RPC error and never reach the server.
 */
import { describe, expect, test } from 'vitest';
import { BATCH_REFUSED } from '../src/adapters/proxy/batch.js';
import { readHead } from '../src/adapters/proxy/message.js';
import { bytesOf } from '../src/adapters/proxy/outlet.js';
import { ProxySession, type ProxyOptions } from '../src/adapters/proxy/session.js';
import { stdioUpstream } from '../src/adapters/proxy/stdio-upstream.js';
import { knownSession } from './_helpers/known-session.js';
import { runInProcess } from './_helpers/proxy-run.js';

const TOOLS = { tools: [{ name: 't', inputSchema: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } } }] };

/** A session that knows tool `t`, and what it sent each way since. */
function knowing(options: ProxyOptions = {}) {
  return knownSession(options, TOOLS.tools, 'latin1');
}

/** Sends `lines` to a session knowing `t`, and expects each to reach the server as it came, unanswered. */
function expectForwarded(lines: readonly string[]): void {
  const { send, toServer, toClient } = knowing();
  for (const line of lines) send(line);
  expect(toClient).toEqual([]);
  expect(toServer).toEqual(lines.map((line) => line + '\n'));
}

/** The JSON-RPC error a client got, parsed. */
const errorOf = (line: string): { id: unknown; error: { code: number; message: string } } => JSON.parse(line) as never;

describe('a key the envelope or params repeats', () => {
  test.each([
    ['method, ping then tools/call', '{"jsonrpc":"2.0","id":10,"method":"ping","method":"tools/call","params":{"name":"t","arguments":{"n":"7"}}}', 10, 'method'],
    ['method, tools/call then ping', '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"t","arguments":{"n":7.0}},"method":"ping"}', 10, 'method'],
    ['arguments in params', '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"t","arguments":{"n":"7"},"arguments":{"n":"8"}}}', 11, 'arguments'],
    ['name in params', '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"t","arguments":{"n":1.0},"name":"u"}}', 12, 'name'],
    ['params', '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"t","arguments":{"n":1}},"params":{"name":"u","arguments":{}}}', 13, 'params'],
    ['an id with two values: no id to answer', '{"jsonrpc":"2.0","id":14,"id":15,"method":"tools/call","params":{"name":"t","arguments":{"n":1}}}', null, 'id'],
    ['an id given twice the same', '{"jsonrpc":"2.0","id":"a","id":"a","method":"tools/call","params":{"name":"t","arguments":{"n":1}}}', 'a', 'id'],
    ['an id of null and a number', '{"jsonrpc":"2.0","id":null,"id":16,"method":"tools/call","params":{"name":"t","arguments":{"n":1}}}', null, 'id'],
    ['an id that is an object, then a number', '{"jsonrpc":"2.0","id":{},"id":16,"method":"tools/call","params":{"name":"t","arguments":{"n":1}}}', null, 'id'],
    ['jsonrpc', '{"jsonrpc":"2.0","jsonrpc":"1.0","id":17,"method":"tools/list"}', 17, 'jsonrpc'],
    ['cursor in a tools/list', '{"jsonrpc":"2.0","id":18,"method":"tools/list","params":{"cursor":"a","cursor":"b"}}', 18, 'cursor'],
    ['a key spelled with an escape', '{"jsonrpc":"2.0","id":19,"method":"ping","m\\u0065thod":"tools/call","params":{"name":"t","arguments":{"n":"7"}}}', 19, 'method'],
    ['a key past ASCII, as bytes and as an escape', '{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"t","arguments":{},"\xc3\xa9":1,"\\u00e9":2}}', 20, 'é'],
    ['a notification: no id', '{"jsonrpc":"2.0","method":"notifications/tools/x","method":"tools/call","params":{"name":"t","arguments":{}}}', null, 'method'],
  ])('%s: answered with -32600, never forwarded', (_name, line, id, key) => {
    const { send, toServer, toClient, reports } = knowing();
    send(line);
    expect(toServer).toEqual([]);
    expect(toClient).toHaveLength(1);
    expect(toClient[0]!.endsWith('}\n')).toBe(true);
    const answer = errorOf(toClient[0]!);
    expect(answer.id).toBe(id);
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toBe(`schema-coerce proxy: the request repeats the key ${JSON.stringify(key)}, so a server may read it otherwise than the proxy did; it was not forwarded`);
    expect(reports).toEqual([{ kind: 'rejection', tool: expect.any(String), message: `the request repeats the key ${JSON.stringify(key)}` }]);
  });

  test('keys repeated deeper than params, or in distinct objects, are not the envelope\'s: the line goes on', () => {
    expectForwarded([
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":1},"_meta":{"a":1,"a":2}}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"n":1},"x":{"name":1},"y":{"name":2}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"cursor":1,"cursor":2}}}',
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":[{"tools":1},{"tools":1}]}',
    ]);
  });

  test('the heads: the repeated key is named, an id read only when every reading agrees', () => {
    expect(readHead('{"id":1,"method":"tools/call","params":{"name":"t"}}', true)?.repeated).toBeUndefined();
    expect(readHead('{"id":1,"id":1,"method":"a"}', true)).toMatchObject({ id: 1, repeated: 'id', idSpan: { start: 13, end: 14 } });
    expect(readHead('{"id":1,"id":"1","method":"a"}', true)).toMatchObject({ id: undefined, idSpan: undefined, repeated: 'id' });
    expect(readHead('{"id":1,"id":true}', false)).toMatchObject({ id: undefined, repeated: 'id' });
    expect(readHead('{"a":1,"b":2,"a":3,"b":4}', false)?.repeated).toBe('a');
    // Located arguments: the second `arguments`, read whole, is seen too.
    expect(readHead('{"id":1,"method":"tools/call","params":{"arguments":{"n":1},"name":"t","arguments":[]}}', true)).toMatchObject({ repeated: 'arguments', args: { unread: true } });
  });

  test('a call with a repeated key is never learnt as a shape: the same line again is refused again', () => {
    const { send, toServer, toClient } = knowing();
    const line = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","name":"t","arguments":{"n":1.0}}}';
    send(line);
    send(line.replace('"id":5', '"id":6'));
    expect(toServer).toEqual([]);
    expect(toClient.map((answer) => errorOf(answer).id)).toEqual([5, 6]);
  });

  test('a call waiting for the proxy\'s own tools/list is checked when it goes on', () => {
    const toClient: string[] = [];
    const toServer: string[] = [];
    const session = new ProxySession({}, { toServer: (pieces) => toServer.push(Buffer.concat(pieces.map(bytesOf)).toString()), toClient: (piece) => toClient.push(bytesOf(piece).toString()), report: () => undefined });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":1.0}}}'), true);
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":2,"id":3,"method":"tools/call","params":{"name":"t","arguments":{"n":1.0}}}'), true);
    const own = JSON.parse(toServer[0]!) as { id: string };
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own.id, result: TOOLS })), true);
    session.stop();
    expect(toServer.slice(1)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":1}}}\n']);
    expect(toClient.map((answer) => errorOf(answer).error.code)).toEqual([-32600]);
  });
});

describe('a batch (a line that is a JSON array)', () => {
  const call = (id: number, args = '{"n":5.0}'): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":${args}}}`;
  const refusal = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: BATCH_REFUSED } });

  test.each([
    ['a tools/call alone', `[${call(1)}]`, [1]],
    ['a tools/call among other requests and a notification', `[{"jsonrpc":"2.0","id":"p","method":"ping"}, ${call(2)},{"jsonrpc":"2.0","method":"notifications/progress"}]`, ['p', 2]],
    ['a tools/list, whose answer would teach no schema', '[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]', [3]],
    ['a method spelled with an escape', '[{"jsonrpc":"2.0","id":4,"method":"tools\\/c\\u0061ll","params":{"name":"t","arguments":{"n":"7"}}}]', [4]],
    ['white space around the batch and its members', ' \t[ ' + call(5) + ' ,\r' + call(6, '{"n":1}') + ' ] ', [5, 6]],
    ['a member repeating a key, whatever its method', '[{"jsonrpc":"2.0","id":7,"method":"tools/call","method":"ping"}]', [7]],
    ['a member with two ids: answered with null', '[{"jsonrpc":"2.0","id":8,"id":9,"method":"tools/call"}]', [null]],
    ['members that are not objects: answered with null', `[1,"x",[],true,null,${call(10)}]`, [null, null, null, null, null, 10]],
  ])('%s: each request is answered with -32600, nothing is forwarded', (_name, line, ids) => {
    const { send, toServer, toClient, reports } = knowing();
    send(line);
    expect(toServer).toEqual([]);
    expect(toClient).toHaveLength(1);
    expect(toClient[0]!.endsWith(']\n')).toBe(true);
    expect(JSON.parse(toClient[0]!)).toEqual(ids.map(refusal));
    expect(reports).toEqual([{ kind: 'rejection', tool: '', message: expect.stringMatching(/^a batch of \d+ holding a tools\/ request$/) }]);
  });

  test('a batch of notifications only, one of them tools/: refused, and nothing to answer', () => {
    const { send, toServer, toClient, reports } = knowing();
    send('[{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t","arguments":{"n":"7"}}},{"jsonrpc":"2.0","method":"notifications/progress"}]');
    expect(toServer).toEqual([]);
    expect(toClient).toEqual([]);
    expect(reports).toEqual([{ kind: 'rejection', tool: '', message: 'a batch of 2 holding a tools/ request' }]);
  });

  test('a batch without a tools/ request goes on byte for byte, whatever it mentions', () => {
    expectForwarded([
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"tools":"tools/call"}}]',
      '[{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"tools/call","s":"\xc3"}}]',
      '[{"jsonrpc":"2.0","id":3,"method":"x/tools/call","params":{"d":{"a":1,"a":2}}}]',
      '[]',
      // The client's answers to the server's requests: members without a method.
      '[{"jsonrpc":"2.0","id":"s1","result":{"content":[{"type":"text","text":"tools/call"}]}},{"jsonrpc":"2.0","id":"s2","error":{"code":-1,"message":"no"}}]',
      // Not JSON: forwarded as it came, as every line that is not JSON is.
      `[${call(4)}`,
      `[${call(5)}]]`,
      "[{'method':'tools/call'}]",
    ]);
  });

  test('a batch waiting behind the proxy\'s own tools/list is refused when it goes on', () => {
    const toClient: string[] = [];
    const toServer: string[] = [];
    const session = new ProxySession({}, { toServer: (pieces) => toServer.push(Buffer.concat(pieces.map(bytesOf)).toString()), toClient: (piece) => toClient.push(bytesOf(piece).toString()), report: () => undefined });
    session.fromClient(Buffer.from(call(1)), true);
    session.fromClient(Buffer.from(`[${call(2)}]`), true);
    const own = JSON.parse(toServer[0]!) as { id: string };
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: own.id, result: TOOLS })), true);
    session.stop();
    expect(toServer.slice(1)).toEqual([call(1, '{"n":5}') + '\n']);
    expect(toClient.map((line) => JSON.parse(line) as unknown)).toEqual([[refusal(2)]]);
  });
});

describe('a method name written with escapes is read, never passed unread', () => {
  // `"\u0074ools/call"` holds no `tools`: only its escape tells the fast paths that it may name one.
  const ESCAPED = '{"jsonrpc":"2.0","id":21,"method":"\\u0074ools/call","params":{"name":"t","arguments":{"n":7.0}}}';

  test('the session: the chunk does not pass unread, and the call is repaired like any tools/call', () => {
    const { session, send, toServer, toClient } = knowing();
    expect(ESCAPED.includes('tools')).toBe(false);
    expect(session.clientPasses(Buffer.from(ESCAPED))).toBe(false);
    expect(session.clientPasses(Buffer.from(ESCAPED.replace('\\u0074', 't').replace('tools', 'ping')))).toBe(true);
    send(ESCAPED);
    expect(toClient).toEqual([]);
    expect(toServer).toEqual([ESCAPED.replace('"n":7.0', '"n":7') + '\n']);
  });

  test('the whole proxy in process, framing included: the server receives the call repaired', async () => {
    const server = `
      const tools = ${JSON.stringify(TOOLS)};
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const message = JSON.parse(line);
        const result = message.method === 'tools/list' ? tools : { content: [{ type: 'text', text: line }] };
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
      });`;
    const run = await runInProcess(stdioUpstream([process.execPath, '-e', server]), [ESCAPED + '\n']);
    const answer = JSON.parse(run.stdout.toString()) as { id: number; result: { content: { text: string }[] } };
    expect(answer.id).toBe(21);
    expect(answer.result.content[0]!.text).toBe(ESCAPED.replace('"n":7.0', '"n":7'));
  }, 30_000);
});
