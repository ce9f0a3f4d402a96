/**
 * The proxy's promise on the bytes of a call, in process: only the tokens the repair rewrites
 * change (invalid UTF-8 and every other byte of non-ASCII arguments go on as they came, repeated
 * keys with equal values keep their spelling), differing repeated keys and cut-off string
 * arguments are answered, and a whole number with a long zero-padded exponent is respelled.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson } from '../src/index.js';
import { restoreInteger } from '../src/json/numbers.js';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { ProxySession, type ProxyOptions } from '../src/adapters/proxy/session.js';
import { byteEdits } from '../src/adapters/proxy/splice.js';
import { editsOf, listOf } from './_helpers/text-edits.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' }, xs: { type: 'array', items: { type: 'integer' } }, s: { type: 'string' } } };

/** A session that knows tool `t`; `send` takes a call's arguments as latin1 bytes. */
function knowing(options: ProxyOptions = {}) {
  const toServer: Buffer[] = [];
  const toClient: string[] = [];
  const session = new ProxySession(options, {
    toServer: (pieces: readonly Piece[]) => toServer.push(Buffer.concat(pieces.map(bytesOf))),
    toClient: (piece: Piece) => toClient.push(bytesOf(piece).toString('utf8')),
    report: () => undefined,
  });
  session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":0,"method":"tools/list"}'), true);
  session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { tools: [{ name: 't', inputSchema: SCHEMA }] } })), true);
  toServer.length = 0;
  toClient.length = 0;
  const line = (args: string, id = 1): Buffer => Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":${args}}}`, 'latin1');
  /** Sends the call, as bytes alone or with the latin1 image the framing gives a line whole in a chunk; what reached the server, as latin1. */
  const send = (args: string, withImage = false): string | undefined => {
    const before = toServer.length;
    const bytes = line(args);
    session.fromClient(bytes, true, withImage ? bytes.toString('latin1') : undefined);
    return toServer.length === before ? undefined : toServer.at(-1)!.toString('latin1');
  };
  return { send, line, toClient };
}

const expected = (args: string): string => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${args}}}\n`;

describe('arguments that are not ASCII', () => {
  test.each([
    ['invalid UTF-8 in a string', '{"s":"\xc3","xs":[1.0]}', '{"s":"\xc3","xs":[1]}'],
    ['a lone continuation byte and a cut sequence before the number', '{"s":"\x80\xe2\x82","n":2.0}', '{"s":"\x80\xe2\x82","n":2}'],
    ['valid UTF-8 and escapes kept as written, white space too', '{ "s" : "caf\xc3\xa9 \\u00e9" ,\n "n" : 3.00 }', '{ "s" : "caf\xc3\xa9 \\u00e9" ,\n "n" : 3 }'],
    ['four-byte characters on both sides of the edits', '{"s":"\xf0\x9f\x98\x80","xs":[1.0,\xf0\x9f\x98\x80]}', undefined],
    ['several edits between non-ASCII strings', '{"s":"\xc3\xa9","xs":[1.0,2e0,"\xff",3.0]}', '{"s":"\xc3\xa9","xs":[1,2,"\xff",3]}'],
  ])('%s: only the number tokens change', (_name, args, repaired) => {
    for (const withImage of [false, true]) {
      const { send } = knowing();
      const sent = send(args, withImage);
      if (repaired === undefined) {
        // Not JSON (a four-byte character where a value must be; `"\xff"` is not an integer): the line goes on as it came.
        expect(sent).toBe(expected(args));
      } else {
        expect(sent).toBe(expected(repaired));
      }
    }
  });

  test('byteEdits: each edit moved past the bytes of the characters before it; a boundary at a character past ASCII has none', () => {
    const image = Buffer.from('{"é":1.0,"\xc3":2.0}', 'latin1').toString('latin1');
    const text = Buffer.from(image, 'latin1').toString('utf8');
    const edits = [text.indexOf('1.0'), text.indexOf('2.0')].map((start) => ({ start, end: start + 3, text: 'N' }));
    expect(listOf(byteEdits(text, image, editsOf(edits)))).toEqual([image.indexOf('1.0'), image.indexOf('2.0')].map((start) => ({ start, end: start + 3, text: 'N' })));
    expect(listOf(byteEdits(text, image, editsOf([{ start: 0, end: text.length, text: 'x' }])))).toEqual([{ start: 0, end: image.length, text: 'x' }]);
    expect(listOf(byteEdits(text, image, editsOf([{ start: 2, end: 3, text: 'x' }])))).toBeUndefined();
    expect(listOf(byteEdits(text, image, editsOf([{ start: 1, end: 2, text: 'x' }])))).toBeUndefined();
    expect(listOf(byteEdits(text, image, editsOf([])))).toEqual([]);
    // Right after a character past ASCII (never a JSON token's edge, but the mapping holds there too).
    expect(listOf(byteEdits('é1,', '\xc3\xa91,', editsOf([{ start: 1, end: 2, text: 'x' }])))).toEqual([{ start: 2, end: 3, text: 'x' }]);
    // U+0080, the first character past ASCII: its bytes (C2 80) are skipped before an edit, and an edit may not end at it.
    expect(listOf(byteEdits('\u00801,', '\xc2\x801,', editsOf([{ start: 1, end: 2, text: 'x' }])))).toEqual([{ start: 2, end: 3, text: 'x' }]);
    expect(listOf(byteEdits('1\u0080', '1\xc2\x80', editsOf([{ start: 0, end: 1, text: 'x' }])))).toBeUndefined();
  });
});

describe('repeated keys in the arguments', () => {
  test('equal values and a respelling: each occurrence respelled, every other byte as it came', () => {
    const { send } = knowing();
    expect(send('{"n":1.0, "n":1.0,"s":"\\u00e9 "}')).toBe(expected('{"n":1, "n":1,"s":"\\u00e9 "}'));
    expect(send('{"s":"\xc3\xa9","n":1.0,"n":1.0}')).toBe(expected('{"s":"\xc3\xa9","n":1,"n":1}'));
  });

  test.each([
    ['located arguments', '{"n":1,"n":2}', false],
    ['located arguments, lenient', '{"n":"1","n":"2"}', true],
    ['non-ASCII arguments', '{"s":"\xc3\xa9","n":1,"n":2}', false],
  ])('differing values (%s): answered with the refusal, never forwarded', (_name, args, lenient) => {
    const { send, toClient } = knowing({ lenient });
    expect(send(args)).toBeUndefined();
    const answer = JSON.parse(toClient.at(-1)!) as { id: number; result: { isError: boolean; content: { text: string }[] } };
    expect(answer.id).toBe(1);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toMatch(/^Invalid parameters for tool "t": the arguments are not valid JSON \(at line 1 column \d+: Duplicate key 'n'\)\./);
  });

  test('arguments that are not JSON still go on as they came (the line is not JSON)', () => {
    const { send, toClient } = knowing({ lenient: true });
    expect(send("{'n': 1.0}")).toBe(expected("{'n': 1.0}"));
    expect(send('{"n":1,"n":}')).toBe(expected('{"n":1,"n":}'));
    expect(toClient).toEqual([]);
  });
});

describe('arguments given as a string', () => {
  test('cut-off text is answered with the message that says so, lenient or not', () => {
    for (const lenient of [false, true]) {
      const { send, toClient } = knowing({ lenient });
      expect(send(JSON.stringify('{"n":2.0,"s":"abc'))).toBeUndefined();
      const answer = JSON.parse(toClient.at(-1)!) as { result: { isError: boolean; content: { text: string }[] } };
      expect(answer.result.isError).toBe(true);
      expect(answer.result.content[0]!.text).toMatch(/^Invalid parameters for tool "t": the arguments were cut off before they were complete/);
    }
  });

  test('text that reads as an object goes on as that object, repaired; any other string as it came', () => {
    const { send, toClient } = knowing();
    expect(send(JSON.stringify('{"n":2.0, "s":"\xc3\xa9"}'))).toBe(expected('{"n":2, "s":"\xc3\xa9"}'));
    expect(send('"hello"')).toBe(expected('"hello"'));
    expect(send('"[1.0]"')).toBe(expected('"[1.0]"'));
    expect(toClient).toEqual([]);
    const lenient = knowing({ lenient: true });
    expect(lenient.send(JSON.stringify("{'n': '3'}"))).toBe(expected('{"n":3}'));
  });
});

describe('a whole number with a long exponent', () => {
  test('1e0000000000000002 is 100: respelled at an integer position, in the core and through the proxy', () => {
    expect(restoreInteger('1e0000000000000002', 'int64')).toBe('100');
    expect(restoreInteger('25e-00000000000000000001', 'int64')).not.toBe('2');
    expect(restoreInteger('20e-00000000000000000001', 'int64')).toBe('2');
    expect(restoreInteger('1e0000000000000000000000000000019', 'int64')).toBe('out-of-range');
    expect(coerceArgsJson('{"n":1e0000000000000002}', SCHEMA)).toBe('{"n":100}');
    expect(knowing().send('{"n":1E+00000000000000000003}')).toBe(expected('{"n":1000}'));
  });
});

describe('the options of each tool', () => {
  /** A lenient session knowing tools `t` and `u`; `send` takes a whole line and gives what reached the server. */
  function twoTools() {
    const toServer: Buffer[] = [];
    const session = new ProxySession({ lenient: true }, {
      toServer: (pieces: readonly Piece[]) => toServer.push(Buffer.concat(pieces.map(bytesOf))),
      toClient: () => undefined,
      report: () => undefined,
    });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":0,"method":"tools/list"}'), true);
    const tools = ['t', 'u'].map((name) => ({ name, inputSchema: SCHEMA }));
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { tools } })), true);
    return (line: string): string => {
      session.fromClient(Buffer.from(line), true);
      return toServer.at(-1)!.toString('latin1');
    };
  }

  test.each([
    ['located arguments', (tool: string, args: string) => `{"id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`],
    ['arguments read with the whole line (a key "arguments" before them)', (tool: string, args: string) => `{"id":1,"_meta":{"arguments":1},"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`],
  ])('%s: a wrapper naming the tool called is taken off, call after call and tool after tool; one naming another tool is not', (_name, call) => {
    const send = twoTools();
    for (let round = 0; round < 2; round++) {
      for (const [tool, other] of [['t', 'u'], ['u', 't']]) {
        expect(send(call(tool!, `{"name":"${tool}","arguments":{"n":1.0}}`))).toBe(call(tool!, '{"n":1}') + '\n');
        expect(send(call(tool!, `{"name":"${other}","arguments":{"n":1.0}}`))).toBe(call(tool!, `{"name":"${other}","arguments":{"n":1.0}}`) + '\n');
      }
    }
  });
});
