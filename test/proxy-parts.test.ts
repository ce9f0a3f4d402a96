/** The proxy's parts on their own: the line framing, the message heads the scanner finds, and the session's splicing. */
import { describe, expect, test } from 'vitest';
import { LineReader, type Line } from '../src/adapters/proxy/framing.js';
import fc from 'fast-check';
import { CallShapes } from '../src/adapters/proxy/call-shapes.js';
import { isPlainAsciiBytes } from '../src/adapters/proxy/ascii.js';
import { readHead, type MessageHead } from '../src/adapters/proxy/message.js';
import { batch, bytesOf, Outlet, type Piece, type Source } from '../src/adapters/proxy/outlet.js';
import { Writable } from 'node:stream';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heapGrowth } from './_helpers/heap.js';
import { ProxySession } from '../src/adapters/proxy/session.js';
import { SplicedLine } from '../src/adapters/proxy/splice.js';
import { editsOf, type Edit } from './_helpers/text-edits.js';

type Event = ['line', string, boolean] | ['through', string];

/** A line's latin1 image. */
const image = (line: Line): string => line.toString('latin1');

function frame(chunks: readonly string[], options: { passes?: boolean; streams?: boolean; limit?: number } = {}): Event[] {
  const events: Event[] = [];
  const reader = new LineReader(
    {
      line: (line, terminated) => events.push(['line', image(line), terminated]),
      through: (bytes) => events.push(['through', bytes.toString('latin1')]),
      passes: () => options.passes === true,
      streams: () => options.streams === true,
    },
    options.limit,
  );
  for (const chunk of chunks) reader.push(Buffer.from(chunk, 'latin1'));
  reader.end();
  return events;
}

describe('LineReader', () => {
  test('lines split across chunks and several in one chunk, each once, in order', () => {
    expect(frame(['a', 'b\nc\nd', 'e\n'])).toEqual([
      ['line', 'ab', true],
      ['line', 'c', true],
      ['line', 'de', true],
    ]);
  });

  test('a last line without a newline is handed over as unterminated', () => {
    expect(frame(['a\nb'])).toEqual([
      ['line', 'a', true],
      ['line', 'b', false],
    ]);
  });

  test('whole lines the sink lets pass go through as the chunk\'s bytes; the rest is read', () => {
    expect(frame(['a\nb\nc', 'd\n'], { passes: true })).toEqual([
      ['through', 'a\nb\n'],
      ['line', 'cd', true],
    ]);
  });

  test('after a line completed from earlier chunks, the whole lines that follow may pass', () => {
    expect(frame(['a', 'b\nc\nd\ne', 'f\n'], { passes: true })).toEqual([
      ['line', 'ab', true],
      ['through', 'c\nd\n'],
      ['line', 'ef', true],
    ]);
  });

  test('lines within the limit are slices of their chunk; past it, a line read whole is a copy of its bytes, in a buffer of its own', () => {
    const lines: Line[] = [];
    const chunk = Buffer.from('ab\ncd');
    const reader = new LineReader({ line: (line) => lines.push(line), through: () => undefined, passes: () => false, streams: () => false }, 3);
    reader.push(chunk);
    reader.push(Buffer.from('ef'));
    reader.push(Buffer.from([0xff, 0x0a]));
    expect(lines).toEqual([Buffer.from('ab'), Buffer.from('cdef\xff', 'latin1')]);
    expect(lines[0]!.buffer).toBe(chunk.buffer);
  });

  test('a line begun in one chunk and ended by the next one\'s first byte, or by the stream\'s end, is a slice of the chunk it came in, though a chunk of whole lines came before it', () => {
    /** A chunk in memory of its own (small `Buffer.from`s share one pool). */
    const own = (text: string): Buffer => {
      const bytes = Buffer.alloc(text.length);
      bytes.write(text, 'latin1');
      return bytes;
    };
    const chunks = [own('ab\n'), own('cd'), own('\nef')];
    const lines: Line[] = [];
    const reader = new LineReader({ line: (line) => lines.push(line), through: () => undefined, passes: () => false, streams: () => false });
    for (const chunk of chunks) reader.push(chunk);
    reader.end();
    expect(lines.map(image)).toEqual(['ab', 'cd', 'ef']);
    expect(lines.map((line) => chunks.findIndex((chunk) => chunk.buffer === line.buffer))).toEqual([0, 1, 2]);
  });

  test('property: lines read whole past any limit, from chunks of any size, are the stream\'s lines byte for byte', () => {
    const stream = fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes.map((byte) => (byte % 40 === 0 ? 0x0a : byte))));
    fc.assert(
      fc.property(stream, fc.array(fc.nat({ max: 40 }), { maxLength: 30 }), fc.nat({ max: 12 }), (bytes, cuts, limit) => {
        const lines: [string, boolean][] = [];
        const reader = new LineReader({ line: (line, terminated) => lines.push([image(line), terminated]), through: () => undefined, passes: () => false, streams: () => false }, limit);
        let at = 0;
        for (const cut of cuts) {
          reader.push(bytes.subarray(at, Math.min(bytes.length, at + cut)));
          at = Math.min(bytes.length, at + cut);
        }
        if (at < bytes.length) reader.push(bytes.subarray(at));
        reader.end();
        const parts = bytes.toString('latin1').split('\n');
        const last = parts.pop()!;
        const expected: [string, boolean][] = parts.map((line) => [line, true]);
        if (last !== '') expected.push([last, false]);
        expect(lines).toEqual(expected);
      }),
      { seed: 20261202, numRuns: 3_000 },
    );
  });

  test('the sink is asked to stream a line once it grows past the limit, not when it reaches it', () => {
    const heads: string[] = [];
    const reader = new LineReader({ line: () => undefined, through: () => undefined, passes: () => false, streams: (head) => (heads.push(image(head)), false) }, 3);
    reader.push(Buffer.from('ab'));
    reader.push(Buffer.from('c'));
    expect(heads).toEqual([]);
    reader.push(Buffer.from('d'));
    reader.push(Buffer.from('e'));
    expect(heads).toEqual(['abcd']);
  });

  test('after a streamed line, the next line arriving in pieces is read whole, byte for byte', () => {
    expect(frame(['abcd', 'ef\ngh', 'i\n', 'jk'], { streams: true, limit: 3 })).toEqual([
      ['through', 'abcd'],
      ['through', 'ef\n'],
      ['line', 'ghi', true],
      ['line', 'jk', false],
    ]);
  });

  test('a long line read whole from one-byte chunks holds none of them', () => {
    const lines: Line[] = [];
    const reader = new LineReader({ line: (line) => lines.push(line), through: () => undefined, passes: () => false, streams: () => false }, 16);
    // 40,000 bytes: past half of Node's buffer pool on every version (8 KiB on Node 20, 64 KiB on
    // Node 24), so the joined line is a buffer of its own, never a slice of the shared pool.
    const chunks = Array.from({ length: 40_000 }, (_, i) => Buffer.from([0x61 + (i % 26)]));
    for (const chunk of chunks) reader.push(chunk);
    reader.push(Buffer.from('\n'));
    expect(lines).toHaveLength(1);
    expect(image(lines[0]!)).toBe(chunks.map((chunk) => chunk.toString('latin1')).join(''));
    // The bytes were copied as they came, and joined once: the line holds a buffer of its own size.
    expect(lines[0]!.buffer.byteLength).toBe(40_000);
    expect(chunks.some((chunk) => chunk.buffer === lines[0]!.buffer)).toBe(false);
  });

  test('a line past the limit is streamed through when the sink agrees, up to and with its newline', () => {
    expect(frame(['abcd', 'ef', 'g\nh\n'], { streams: true, limit: 3 })).toEqual([
      ['through', 'abcd'],
      ['through', 'ef'],
      ['through', 'g\n'],
      ['line', 'h', true],
    ]);
  });

  test('a line past the limit the sink must read is read whole, and the sink is asked once', () => {
    let asked = 0;
    const lines: string[] = [];
    const reader = new LineReader({ line: (line) => lines.push(image(line)), through: () => undefined, passes: () => false, streams: () => (asked++, false) }, 2);
    for (const chunk of ['abc', 'def', 'g\n']) reader.push(Buffer.from(chunk));
    expect([asked, lines]).toEqual([1, ['abcdefg']]);
  });

  test('a sink that asks for images gets each line whole in a chunk with its latin1 image; a line from earlier chunks comes without', () => {
    const events: [string, boolean, string | undefined][] = [];
    const reader = new LineReader({ line: (line, terminated, image) => events.push([Buffer.from(line as Buffer).toString('latin1'), terminated, image]), images: true, through: () => undefined, passes: () => false, streams: () => false });
    reader.push(Buffer.from([0x61, 0x0a, 0xff, 0xc3, 0x0a, 0x0a, 0x62]));
    reader.push(Buffer.from('c\nd\ne'));
    reader.end();
    expect(events).toEqual([
      ['a', true, 'a'],
      ['\xff\xc3', true, '\xff\xc3'],
      ['', true, ''],
      ['bc', true, undefined],
      ['d', true, 'd'],
      ['e', false, undefined],
    ]);
  });

  test('the lines of a chunk past 1 MB come without images (the chunk is not decoded whole)', () => {
    const events: [number, string | undefined][] = [];
    const reader = new LineReader({ line: (line, _terminated, image) => events.push([line.length, image]), images: true, through: () => undefined, passes: () => false, streams: () => false });
    reader.push(Buffer.from(`a\n${'b'.repeat(1 << 20)}\n`));
    reader.push(Buffer.from('c\n'));
    expect(events).toEqual([
      [1, undefined],
      [1 << 20, undefined],
      [1, 'c'],
    ]);
  });

  test('property: with or without images, the same lines in the same order, each image the latin1 of its line', () => {
    const chunked = fc.array(fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes.map((byte) => (byte % 3 === 0 ? 0x0a : byte)))), { maxLength: 8 });
    fc.assert(
      fc.property(chunked, (chunks) => {
        const read = (images: boolean): [string, boolean][] => {
          const lines: [string, boolean][] = [];
          const reader = new LineReader({
            line: (line, terminated, given) => {
              const text = image(line);
              if (given !== undefined) expect(given).toBe(text);
              lines.push([text, terminated]);
            },
            images,
            through: () => undefined,
            passes: () => false,
            streams: () => false,
          });
          for (const chunk of chunks) reader.push(chunk);
          reader.end();
          return lines;
        };
        expect(read(true)).toEqual(read(false));
      }),
      { seed: 20261130, numRuns: 2_000 },
    );
  });

  test('bytes that are not UTF-8 survive, as bytes and in the latin1 image', () => {
    const events: Line[] = [];
    const reader = new LineReader({ line: (line) => events.push(line), through: () => undefined, passes: () => false, streams: () => false }, 0);
    reader.push(Buffer.from([0xff, 0x0a, 0xc3]));
    reader.push(Buffer.from([0xa9, 0x0a]));
    expect(events).toEqual([Buffer.from([0xff]), Buffer.from([0xc3, 0xa9])]);
  });
});

describe('readHead', () => {
  const call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"q":"x","n":5.0},"_meta":{"arguments":1}}}';

  test('a tools/call: method, id, name and the byte span of the arguments', () => {
    const head = readHead(call, true)!;
    // `params._meta` after the located arguments: its span is where it is in the line.
    const meta = { start: call.indexOf('{"arguments":1}'), end: call.indexOf('{"arguments":1}') + '{"arguments":1}'.length };
    expect(head).toEqual({ method: 'tools/call', id: 7, idSpan: { start: 22, end: 23 }, name: 'search', cursor: false, args: { start: call.indexOf('{"q"'), end: call.indexOf(',"_meta"'), unread: true }, meta });
  });

  test.each([
    ['an id after params, and a string id', '{"method":"tools/call","params":{"arguments":[1],"name":"a"},"id":"x-1"}', { method: 'tools/call', id: 'x-1', idSpan: { start: 66, end: 71 }, name: 'a', cursor: false, args: { start: 45, end: 48, unread: false } }],
    ['a scalar argument', '{"id":1,"method":"tools/call","params":{"name":"a","arguments":null}}', { method: 'tools/call', id: 1, idSpan: { start: 6, end: 7 }, name: 'a', cursor: false, args: { start: 63, end: 67, unread: false } }],
    ['a tools/list with a cursor', '{"id":2,"method":"tools/list","params":{"cursor":"c"}}', { method: 'tools/list', id: 2, idSpan: { start: 6, end: 7 }, cursor: true }],
    ['escaped names', '{"id":3,"method":"tools\\/call","params":{"name":"caf\\u00e9"}}', { method: 'tools/call', id: 3, idSpan: { start: 6, end: 7 }, name: 'café', cursor: false }],
    ['params as an array', '{"id":4,"method":"tools/call","params":[{"name":"a","arguments":{}}]}', { method: 'tools/call', id: 4, idSpan: { start: 6, end: 7 }, cursor: false }],
    ['a name and arguments deeper than params', '{"id":5,"method":"tools/call","params":{"x":{"name":"a","arguments":{}}}}', { method: 'tools/call', id: 5, idSpan: { start: 6, end: 7 }, cursor: false }],
    ['a method that is an array holding a string: no method', '{"id":4,"method":["tools/call"],"params":{"name":"a","arguments":{}}}', { method: undefined, id: 4, idSpan: { start: 6, end: 7 }, name: 'a', cursor: false, args: { start: 65, end: 67, unread: false } }],
    ['a response', '{"jsonrpc":"2.0","id":6,"result":{"tools":[]}}', { id: 6, idSpan: { start: 22, end: 23 }, cursor: false }],
  ])('%s', (_name, text, expected) => {
    expect(readHead(text, false)).toEqual(expected);
    // Located, the head is the same; object or array arguments of params are then not read.
    const args = (expected as { args?: { start: number; end: number } }).args;
    const located = args !== undefined && '{['.includes(text[args.start]!) ? { ...expected, args: { ...args, unread: true } } : expected;
    expect(readHead(text, true)).toEqual(located);
  });

  test('an "arguments" key met before params.arguments (in _meta, a nested value): the line is read whole, the span is params\' own', () => {
    const args = '{"n":5.0,"o":{"p":[2.0]},"q":[]}';
    const text = `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"_meta":{"arguments":{"n":1.0}},"name":"t","arguments":${args},"x":{"y":[]}}}`;
    const meta = { start: text.indexOf('{"arguments":{'), end: text.indexOf(',"name"') };
    const expected = { method: 'tools/call', id: 10, idSpan: { start: 22, end: 24 }, name: 't', cursor: false, args: { start: text.indexOf(args), end: text.indexOf(args) + args.length, unread: false }, meta };
    expect(readHead(text, true)).toEqual(expected);
    expect(readHead(text, false)).toEqual(expected);
  });

  test('an id after located arguments: its span is where it is in the line', () => {
    const text = '{"method":"tools/call","params":{"name":"a","arguments":{"x":[1,{"y":2}]}},"id":"x-1"}';
    expect(readHead(text, true)).toEqual({ method: 'tools/call', id: 'x-1', idSpan: { start: text.indexOf('"x-1"'), end: text.indexOf('"x-1"') + 5 }, name: 'a', cursor: false, args: { start: text.indexOf('{"x"'), end: text.indexOf(',"id"') - 1, unread: true } });
  });

  test('object or array arguments are located, not read: brackets and escaped quotes in strings are stepped over', () => {
    const args = '{"a":"}]\\\\","b":["\\"{",{"c":[]}],"d":\'x\'}';
    const text = `{"id":8,"method":"tools/call","params":{"arguments":${args},"name":"n"},"jsonrpc":"2.0"}`;
    expect(readHead(text, true)).toEqual({ method: 'tools/call', id: 8, idSpan: { start: 6, end: 7 }, name: 'n', cursor: false, args: { start: text.indexOf(args), end: text.indexOf(args) + args.length, unread: true } });
  });

  test('the rest of the line after located arguments is read: not JSON there, no head', () => {
    expect(readHead('{"id":9,"method":"tools/call","params":{"name":"n","arguments":{"a":1}},}', true)).toBeUndefined();
    expect(readHead('{"id":9,"method":"tools/call","params":{"name":"n","arguments":{"a":"}"}', true)).toBeUndefined();
    expect(readHead('{"id":9,"method":"tools/call","params":{"name":"n","arguments":[1,2', true)).toBeUndefined();
  });

  test('only the envelope\'s id and params\' own keys count: numbers, literals and a later object naming name, cursor, arguments and id change nothing', () => {
    const args = '{"n":1}';
    const text = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":1},"name":"t","arguments":${args}},"priority":9,"flag":true,"none":null,"_meta":{"name":"u","cursor":"c","arguments":[2],"id":4}}`;
    // Only params' own `_meta` has its span kept, not the envelope's.
    const meta = { start: text.indexOf('{"progressToken":1}'), end: text.indexOf('{"progressToken":1}') + '{"progressToken":1}'.length };
    const expected = { method: 'tools/call', id: 3, idSpan: { start: 22, end: 23 }, name: 't', cursor: false, args: { start: text.indexOf(args), end: text.indexOf(args) + args.length, unread: false }, meta };
    expect(readHead(text, false)).toEqual(expected);
    expect(readHead(text, true)).toEqual({ ...expected, args: { ...expected.args, unread: true } });
  });

  test('UTF-8 in a tool name is decoded from the latin1 image', () => {
    const text = Buffer.from('{"id":1,"method":"tools/call","params":{"name":"café"}}').toString('latin1');
    expect(readHead(text, true)?.name).toBe('café');
  });

  test('a line is read to its end whatever its method: a later key may be the one a server reads', () => {
    expect(readHead('{"method":"ping","id":1,"params":{"x":', true)).toBeUndefined();
    expect(readHead('{"method":"ping","id":1,"method":"tools/call"}', true)).toMatchObject({ method: 'tools/call', repeated: 'method' });
  });

  test.each([['not JSON', 'nope'], ['an array (a batch)', '[{"id":1,"method":"tools/call"}]'], ['cut short', '{"id":1,"method":"tools/call","params":{']])('%s: no head', (_name, text) => {
    expect(readHead(text, true)).toBeUndefined();
  });
});

describe('isPlainAsciiBytes', () => {
  const plain = (value: number): boolean => value >= 0x20 && value < 0x80;

  test('a span shorter than a word, at every alignment, is judged by its own bytes, not the control byte after it', () => {
    for (let offset = 0; offset < 4; offset++) {
      for (let length = 0; length < 4; length++) {
        const bytes = Buffer.alloc(offset + length + 4, 0x0a);
        bytes.fill(0x61, offset, offset + length);
        expect(isPlainAsciiBytes(bytes.subarray(offset), 0, length)).toBe(true);
      }
    }
  });

  test('finds a byte below 0x20 or past ASCII wherever it is, whatever the alignment, as a byte loop does', () => {
    // Mostly printable ASCII, now and then a control byte or a byte at 0x80 and above.
    const byte = fc.oneof(
      { arbitrary: fc.integer({ min: 0x20, max: 0x7f }), weight: 60 },
      { arbitrary: fc.integer({ min: 0, max: 0x1f }), weight: 1 },
      { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 90 }), fc.nat({ max: 7 }), fc.nat(), fc.nat(), (values, offset, a, b) => {
        const bytes = Buffer.alloc(offset + values.length);
        bytes.set(values, offset);
        const line = bytes.subarray(offset);
        const start = values.length === 0 ? 0 : a % (values.length + 1);
        const end = start + (values.length === 0 ? 0 : b % (values.length - start + 1));
        expect(isPlainAsciiBytes(line, start, end)).toBe(values.slice(start, end).every(plain));
      }),
      { seed: 20261130, numRuns: 20_000 },
    );
  });

  test('every byte value at every place of a run of words (four to a test, then one by one) and of the bytes around it', () => {
    const line = Buffer.alloc(50, 0x61);
    for (let value = 0; value < 256; value++) {
      for (let at = 0; at < line.length; at++) {
        line.fill(0x61);
        line[at] = value;
        expect(isPlainAsciiBytes(line, 1, line.length)).toBe(at === 0 || plain(value));
      }
    }
  });
});

describe('Outlet', () => {
  /** An outlet on a stream that records each write it is handed, as bytes. */
  function recorded(): { outlet: Outlet; writes: Buffer[] } {
    const writes: Buffer[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (writes.push(Buffer.from(chunk)), done()) });
    return { outlet: new Outlet(stream, { pause: () => undefined, resume: () => undefined }), writes };
  }

  test('what one turn writes goes out as one write, text and bytes in order, text as latin1', async () => {
    const { outlet, writes } = recorded();
    for (const piece of ['{"a":', Buffer.from([0xc3, 0xa9]), '\xff', '"x"', '}', Buffer.from('\n')]) outlet.write(piece);
    expect(writes).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(writes).toEqual([Buffer.from([...Buffer.from('{"a":'), 0xc3, 0xa9, 0xff, ...Buffer.from('"x"}\n')])]);
  });

  test('a repaired line past the join size goes to the stream in parts, each edit in place, in order with what came before and after', async () => {
    const { outlet, writes } = recorded();
    const args = `{"s":"${'a'.repeat(300_000)}","n":5.0}`;
    const line = Buffer.from(`{"params":{"arguments":${args}}}`);
    const offset = line.indexOf('{"s"');
    const dot = args.indexOf('.0}');
    outlet.write(Buffer.from('before\n'));
    outlet.write(new SplicedLine(line, offset, editsOf([{ start: dot, end: dot + 2, text: '' }]), true));
    outlet.write(Buffer.from('after\n'));
    await new Promise((resolve) => process.nextTick(resolve));
    expect(Buffer.concat(writes).toString('latin1')).toBe(`before\n{"params":{"arguments":{"s":"${'a'.repeat(300_000)}","n":5}}}\nafter\n`);
    // The line's long span was handed over as a view of it, not copied into a buffer of its own.
    expect(writes.length).toBeGreaterThan(3);
  });

  test('in a batch, what is written goes out as soon as the batch returns, in one write per outlet', () => {
    const first = recorded();
    const second = recorded();
    batch(() => {
      first.outlet.write('a');
      second.outlet.write('b');
      batch(() => first.outlet.write(Buffer.from('c')));
      expect(first.writes).toEqual([]);
    });
    expect(first.writes).toEqual([Buffer.from('ac')]);
    expect(second.writes).toEqual([Buffer.from('b')]);
  });

  test('an outlet written before a batch in the same turn: all it has goes out when the batch returns, in order', () => {
    const { outlet, writes } = recorded();
    outlet.write('a');
    batch(() => outlet.write('b'));
    expect(writes).toEqual([Buffer.from('ab')]);
  });

  test('a full stream: the source pauses, and on drain resumes; the stream is corked only to write what waited', () => {
    const writes: Buffer[] = [];
    let corks = 0;
    const stream = new Writable({ highWaterMark: 4, write: (chunk: Buffer, _encoding, done) => (writes.push(Buffer.from(chunk)), setImmediate(done)) });
    const cork = stream.cork.bind(stream);
    stream.cork = () => (corks++, cork());
    const source = { paused: 0, resumed: 0, pause: () => source.paused++, resume: () => source.resumed++ };
    const outlet = new Outlet(stream, source);
    return new Promise<void>((resolve) => {
      batch(() => outlet.write(Buffer.from('0123456789')));
      expect(source.paused).toBe(1);
      // Nothing waits: the drain resumes the source without corking the stream.
      stream.once('drain', () =>
        setImmediate(() => {
          expect(source.resumed).toBe(1);
          expect(corks).toBe(0);
          // A long text waits in the queue while the stream is full, and is written corked on drain.
          batch(() => outlet.write(Buffer.from('abcdefghij')));
          outlet.write('x'.repeat((1 << 20) + 1));
          stream.once('drain', () =>
            setImmediate(() => {
              expect(corks).toBeGreaterThan(0);
              expect(Buffer.concat(writes).toString('latin1')).toBe('0123456789abcdefghij' + 'x'.repeat((1 << 20) + 1));
              resolve();
            }),
          );
        }),
      );
    });
  });

  /** A connected pair of sockets (a Unix socket): the outlet writes to `near`, what arrives at `far` is collected. */
  async function socketPair(): Promise<{ near: Socket; far: Socket; received: () => Buffer; close: () => void }> {
    const path = join(tmpdir(), `schema-coerce-outlet-${process.pid}-${Math.random().toString(36).slice(2)}.sock`);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const near = connect(path);
    await new Promise((resolve) => near.once('connect', resolve));
    const far = await accepted;
    const chunks: Buffer[] = [];
    far.on('data', (chunk: Buffer) => chunks.push(chunk));
    return { near, far, received: () => Buffer.concat(chunks), close: () => (near.destroy(), far.destroy(), server.close()) };
  }

  /** An outlet writing to a socket pair's near end, the memory each write hands the socket recorded in `buffers`. */
  async function socketOutlet(): Promise<{ outlet: Outlet; far: Socket; received: () => Buffer; buffers: ArrayBufferLike[]; close: () => void }> {
    const { near, far, received, close } = await socketPair();
    const buffers: ArrayBufferLike[] = [];
    const write = near.write.bind(near) as (chunk: Buffer) => boolean;
    near.write = ((chunk: Buffer) => (buffers.push(chunk.buffer), write(chunk))) as typeof near.write;
    return { outlet: new Outlet(near, { pause: () => far.pause(), resume: () => far.resume() }), far, received, buffers, close };
  }

  test('to a socket, the buffer pieces are joined into is used again once written, and never while the socket holds it', async () => {
    const { outlet, far, received, buffers, close } = await socketOutlet();
    const expected: Buffer[] = [];
    // Small batches the socket writes at once, then large ones while the far end reads nothing, so
    // writes stay pending: each batch is two pieces (joined), its bytes distinct from every other's.
    far.pause();
    for (let n = 0; n < 40; n++) {
      const size = n < 20 ? 100 : 200_000;
      const pieces = [Buffer.alloc(size, n), Buffer.from(`#${n}\n`)];
      expected.push(...pieces);
      batch(() => pieces.forEach((piece) => outlet.write(piece)));
      if (n === 19) await new Promise((resolve) => setImmediate(resolve));
    }
    far.resume();
    const total = expected.reduce((sum, piece) => sum + piece.length, 0);
    while (received().length < total) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(received().equals(Buffer.concat(expected))).toBe(true);
    // The small batches shared one buffer; the large ones, left pending, each had their own.
    expect(new Set(buffers.slice(0, 20)).size).toBe(1);
    expect(new Set(buffers.slice(20)).size).toBeGreaterThan(10);
    close();
  });

  test('to a stream that is not a socket, each joined write is a buffer of its own (the stream may keep it)', () => {
    const kept: Buffer[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (kept.push(chunk), done()) });
    const outlet = new Outlet(stream, { pause: () => undefined, resume: () => undefined });
    for (const n of [1, 2, 3]) batch(() => [Buffer.alloc(10, n), Buffer.from('\n')].forEach((piece) => outlet.write(piece)));
    expect(kept.map((chunk) => chunk.toString('latin1'))).toEqual([1, 2, 3].map((n) => String.fromCharCode(n).repeat(10) + '\n'));
  });

  const quiet: Source = { pause: () => undefined, resume: () => undefined };
  /** Lets the writes of this turn go out, and what the stream does with them after. */
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const lengths = (writes: readonly Buffer[]): number[] => writes.map((write) => write.length);
  /** A stream's flow as its source sees it. */
  function logged(): { log: string[]; source: Source } {
    const log: string[] = [];
    return { log, source: { pause: () => log.push('pause'), resume: () => log.push('resume') } };
  }
  const SLICE = 1 << 20;
  const JOIN_UP_TO = 1 << 18;

  test('one piece alone in a turn is handed over as it is: the very buffer, or the text with its encoding, latin1', async () => {
    const chunks: unknown[] = [];
    const stream = new Writable({ decodeStrings: false, write: (chunk: unknown, encoding, done) => (chunks.push([chunk, encoding]), done()) });
    const outlet = new Outlet(stream, quiet);
    const bytes = Buffer.from([0xc3, 0xa9]);
    outlet.write(bytes);
    await settle();
    outlet.write('\xe9\xff');
    await settle();
    expect(chunks).toHaveLength(2);
    expect((chunks[0] as unknown[])[0]).toBe(bytes);
    expect(chunks[1]).toEqual(['\xe9\xff', 'latin1']);
  });

  test('text last in a joined write is latin1 too, and the bytes of any piece are what it writes', async () => {
    const { outlet, writes } = recorded();
    for (const piece of [Buffer.from('a'), '\xe9', '\xff']) outlet.write(piece);
    await settle();
    expect(writes).toEqual([Buffer.from([0x61, 0xe9, 0xff])]);
    const bytes = Buffer.from('b');
    expect(bytesOf(bytes)).toBe(bytes);
    expect(bytesOf('\xe9\xff')).toEqual(Buffer.from([0xe9, 0xff]));
    expect(bytesOf(new SplicedLine(Buffer.from('{"n":5.0}'), 0, editsOf([{ start: 6, end: 8, text: '' }]), true)).toString()).toBe('{"n":5}\n');
  });

  test('pieces of exactly the join size in all are joined into one write; one byte more, and each is written on its own', async () => {
    const { outlet, writes } = recorded();
    const half = JOIN_UP_TO / 2;
    outlet.write(Buffer.alloc(half, 1));
    outlet.write(Buffer.alloc(half, 2));
    await settle();
    expect(lengths(writes)).toEqual([JOIN_UP_TO]);
    outlet.write(Buffer.alloc(half, 1));
    outlet.write(Buffer.alloc(half + 1, 2));
    await settle();
    expect(lengths(writes)).toEqual([JOIN_UP_TO, half, half + 1]);
    expect(Buffer.concat(writes).equals(Buffer.concat([1, 2, 1, 2].map((n, i) => Buffer.alloc(i === 3 ? half + 1 : half, n))))).toBe(true);
  });

  /** A line `size` bytes long once its `5.0` is respelled, and its newline added. */
  const spliced = (size: number): SplicedLine => {
    const line = Buffer.from(`{"s":"${'a'.repeat(size - 15)}","n":5.0}`);
    const dot = line.lastIndexOf('.0');
    return new SplicedLine(line, 0, editsOf([{ start: dot, end: dot + 2, text: '' }]), true);
  };

  test('a repaired line of exactly the join size is written as one buffer; one byte more, in parts, none of them empty', async () => {
    for (const [size, writes] of [
      [JOIN_UP_TO, 1],
      [JOIN_UP_TO + 1, 3],
    ] as const) {
      const recording = recorded();
      const line = spliced(size);
      expect(line.length).toBe(size);
      recording.outlet.write(line);
      await settle();
      expect(recording.writes).toHaveLength(writes);
      expect(recording.writes.every((write) => write.length > 0)).toBe(true);
      expect(Buffer.concat(recording.writes).toString()).toBe(`{"s":"${'a'.repeat(size - 15)}","n":5}\n`);
    }
  });

  test('text longer than a slice goes out a slice at a time; what is written after it waits behind it; the stream ends only when told', async () => {
    const writes: Buffer[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (writes.push(Buffer.from(chunk)), done()) });
    const outlet = new Outlet(stream, quiet);
    outlet.write('<');
    outlet.write('x'.repeat(2 * SLICE));
    outlet.write('y'.repeat(SLICE + 1));
    outlet.write(Buffer.from('>'));
    while (writes.length < 6) await settle();
    await settle();
    expect(lengths(writes)).toEqual([1, SLICE, SLICE, SLICE, 1, 1]);
    expect(Buffer.concat(writes).toString('latin1')).toBe('<' + 'x'.repeat(2 * SLICE) + 'y'.repeat(SLICE + 1) + '>');
    expect(stream.writableEnded).toBe(false);
    outlet.end();
    expect(stream.writableEnded).toBe(true);
  });

  test('a repaired line longer than a slice, written behind a long text, goes out whole after it', async () => {
    const { outlet, writes } = recorded();
    const size = SLICE + (SLICE >> 1);
    outlet.write('x'.repeat(SLICE + 1));
    outlet.write(spliced(size));
    const expected = 'x'.repeat(SLICE + 1) + `{"s":"${'a'.repeat(size - 15)}","n":5}\n`;
    while (Buffer.concat(writes).length < expected.length) await settle();
    expect(Buffer.concat(writes).toString('latin1')).toBe(expected);
  });

  test('ended while text waits: the stream ends once all of it is written, not before', async () => {
    const writes: Buffer[] = [];
    const stream = new Writable({ highWaterMark: 4, write: (chunk: Buffer, _encoding, done) => (writes.push(Buffer.from(chunk)), setImmediate(done)) });
    const outlet = new Outlet(stream, quiet);
    outlet.write('x'.repeat(2 * SLICE + 1));
    outlet.end();
    await new Promise((resolve) => stream.once('finish', resolve));
    expect(lengths(writes)).toEqual([SLICE, SLICE, 1]);
  });

  test('a text of exactly one slice is gathered like any piece: nothing goes out before the turn ends', async () => {
    const { outlet, writes } = recorded();
    outlet.write('<');
    outlet.write('x'.repeat(SLICE));
    expect(writes).toEqual([]);
    await settle();
    expect(lengths(writes)).toEqual([1, SLICE]);
  });

  test('a stream that stays full: the source is paused at each block and resumed once, when all that waited is written', async () => {
    const writes: Buffer[] = [];
    const stream = new Writable({ highWaterMark: 4, write: (chunk: Buffer, _encoding, done) => (writes.push(Buffer.from(chunk)), setImmediate(done)) });
    const { log, source } = logged();
    const outlet = new Outlet(stream, source);
    outlet.write('x'.repeat(2 * SLICE + 1));
    expect(log).toEqual(['pause']);
    while (log.length < 3) await settle();
    expect(log).toEqual(['pause', 'pause', 'resume']);
    expect(lengths(writes)).toEqual([SLICE, SLICE, 1]);
  });

  test('a peer that goes away while full: what waits is dropped, the source flows again, nothing more is written or kept, a late drain does nothing', async () => {
    let fail: ((error: Error) => void) | undefined;
    let calls = 0;
    const stream = new Writable({ highWaterMark: 4, write: (_chunk, _encoding, done) => (calls++, (fail = done)) });
    const { log, source } = logged();
    const outlet = new Outlet(stream, source);
    batch(() => outlet.write(Buffer.from('0123456789')));
    outlet.write('x'.repeat(SLICE + 1));
    expect(log).toEqual(['pause']);
    fail!(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await settle();
    expect(log).toEqual(['pause', 'resume']);
    // What is written to a peer that is gone is not held: a caller that goes on writing keeps no more memory.
    const grown = heapGrowth(() => {
      for (let n = 0; n < 20_000; n++) outlet.write(String(n).padEnd(1000, 'x'));
      return outlet;
    });
    expect(grown).toBeLessThan(4_000_000);
    outlet.end();
    await settle();
    expect(calls).toBe(1);
    stream.emit('drain');
    expect(log).toEqual(['pause', 'resume']);
  });

  test('a peer that goes away while taking bytes: the source, never paused, is not resumed', async () => {
    const stream = new Writable({ write: (_chunk, _encoding, done) => setImmediate(done, Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    const { log, source } = logged();
    const outlet = new Outlet(stream, source);
    outlet.write('a');
    await settle();
    await settle();
    expect(stream.destroyed).toBe(true);
    expect(log).toEqual([]);
  });

  test('to a socket, a batch of exactly the join buffer\'s size is joined into the buffer used before', async () => {
    const { outlet, received, buffers, close } = await socketOutlet();
    const expected: Buffer[] = [];
    for (let n = 0; n < 5; n++) {
      const pieces = [Buffer.alloc((1 << 16) - 3, n), Buffer.from(`#${n}\n`)];
      expected.push(...pieces);
      batch(() => pieces.forEach((piece) => outlet.write(piece)));
      while (received().length < (n + 1) << 16) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(received().equals(Buffer.concat(expected))).toBe(true);
    expect(buffers).toHaveLength(5);
    expect(new Set(buffers).size).toBe(1);
    close();
  });

  test('a batch that throws still sends what it wrote', () => {
    const { outlet, writes } = recorded();
    expect(() =>
      batch(() => {
        outlet.write('a');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(writes).toEqual([Buffer.from('a')]);
  });
});

describe('CallShapes', () => {
  const call = (id: string, args: string, name = 'echo'): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
  /** The SDK's order: the id after the arguments. */
  const idLast = (id: string, args: string): string => `{"method":"tools/call","params":{"name":"echo","arguments":${args}},"jsonrpc":"2.0","id":${id}}`;

  /** Shapes that have learned the head of each of `lines`. */
  function learned(...lines: string[]): CallShapes {
    const shapes = new CallShapes();
    for (const line of lines) shapes.learn(line, readHead(line, true)!);
    return shapes;
  }

  test.each([
    ['the id before the arguments', call],
    ['the id after the arguments', idLast],
  ])('a call like one learned: %s, a new id and new arguments', (_name, make) => {
    const shapes = learned(make('1', '{"a":5.0}'));
    for (const [id, args] of [['12345', '{"text":"}]\\"}'], ['"req-7"', '[1,{"b":[]}]'], ['-1.5e3', '{}']]) {
      const text = make(id!, args!);
      expect(shapes.match(text)).toEqual(readHead(text, true));
    }
  });

  test.each([
    ['another tool', call('2', '{"a":1}', 'other')],
    ['a member more', call('2', '{"a":1}').replace('"params":{', '"params":{"_meta":{"progressToken":2},')],
    ['scalar arguments', call('2', '5')],
    ['an id that is no token', call('x', '{"a":1}')],
    ['an id of another kind', call('true', '{"a":1}')],
    ['a number token cut short', call('1.', '{"a":1}')],
    ['text after the line', call('2', '{"a":1}') + ' x'],
    ['arguments never closed', call('2', '{"a":[1}')],
    ['not JSON after the arguments', call('2', '{"a":1}]')],
    ['an id ending in the key readHead looks for first', call('"arguments"', '{"a":}')],
    ['an id ending in the key, escaped', call('"\\"arguments"', '{"a":1}')],
    ['a string id with an escape JSON has not', call('"a\\q"', '{"a":1}')],
    ['a string id past ASCII with a control character', call('"é\u0001"', '{"a":1}')],
  ])('no match: %s', (_name, text) => {
    expect(learned(call('1', '{"a":5.0}')).match(text)).toBeUndefined();
  });

  test('only a tools/call with located arguments and an id is learned', () => {
    const lines = ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}', '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"a","arguments":{}}}', call('1', 'null')];
    for (const line of lines) expect(learned(line).match(line)).toBeUndefined();
  });

  test('a shape holds none of the line it came from', () => {
    const line = call('1', `{"text":"${'a'.repeat(5000)}"}`);
    const shapes = learned(line);
    expect(JSON.stringify(shapes).length).toBeLessThan(1000);
  });

  test('the most recent shapes are kept, up to sixteen', () => {
    const tools = Array.from({ length: 17 }, (_, i) => `t${i}`);
    const shapes = learned(...tools.map((name) => call('1', '{}', name)));
    expect(shapes.match(call('2', '{}', 't0'))).toBeUndefined();
    expect(shapes.match(call('2', '{}', 't1'))?.name).toBe('t1');
    expect(shapes.match(call('2', '{}', 't16'))?.name).toBe('t16');
  });

  /** A head without the `unread` mark: the full read may have read arguments the shape only located. */
  const located = (head: MessageHead | undefined): unknown => (head === undefined ? undefined : { ...head, args: head.args === undefined ? undefined : { start: head.args.start, end: head.args.end } });

  test('property: a line that matches a shape has the head a full read finds', () => {
    const lines = [call('1', '{"a":5.0}'), idLast('"x"', '[1]'), call('1', '{"b":"\\\""}', 'other')];
    const shapes = learned(...lines);
    let matched = 0;
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', '1', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'x', '-', '.', 'e', '"arguments"'));
    fc.assert(
      fc.property(fc.constantFrom(...lines), fc.array(edit, { maxLength: 3 }), (line, edits) => {
        let text = line;
        for (const [at, cut, insert] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + cut);
        }
        const head = shapes.match(text);
        if (head === undefined) return;
        matched++;
        expect(located(head)).toEqual(located(readHead(text, true)));
      }),
      { numRuns: 20_000 },
    );
    expect(matched).toBeGreaterThan(2_000);
  });
});

describe('ProxySession splicing', () => {
  const TOOLS = { tools: [{ name: 't', inputSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } } } }] };

  /** A session that knows tool `t`; returns what it sends the server for `call`, as bytes. */
  function sent(call: Buffer, lenient: boolean): Buffer {
    const messages: Piece[][] = [];
    const session = new ProxySession({ lenient }, { toServer: (pieces) => messages.push([...pieces]), toClient: () => undefined, report: () => undefined });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: TOOLS })), true);
    session.fromClient(call, true);
    return Buffer.concat(messages.at(-1)!.map(bytesOf));
  }

  test('ASCII arguments whose repair writes non-ASCII: the written value goes as UTF-8', () => {
    const call = Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"tags":"[\\"caf\\\\u00e9\\"]","n":2.0}}}');
    expect(sent(call, true).toString('utf8')).toBe('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"tags":["café"],"n":2}}}\n');
  });

  test('non-ASCII arguments: the repaired arguments as UTF-8, every other byte as it came', () => {
    const call = Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"tags":["é"],"n":4.0}}}');
    expect(sent(call, false).toString('utf8')).toBe('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"tags":["é"],"n":4}}}\n');
  });

  test('calls of one shape: each read by the shape of the first, each repaired, an unlike one read in full', () => {
    const messages: Buffer[] = [];
    const session = new ProxySession({ lenient: true }, { toServer: (pieces) => messages.push(Buffer.concat(pieces.map(bytesOf))), toClient: () => undefined, report: () => undefined });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: TOOLS })), true);
    const call = (id: string, args: string, meta = ''): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{${meta}"name":"t","arguments":${args}}}`;
    const lines = [call('2', '{"n":2.0}'), call('"x"', '{"n":3.0,"tags":"a"}'), call('4', '{"n":4}'), call('5', '{"n":5.0}', '"_meta":{"progressToken":5},'), call('6', '{"n":6.0')];
    for (const line of lines) session.fromClient(Buffer.from(line), true);
    expect(messages.slice(1).map(String)).toEqual([call('2', '{"n":2}'), call('"x"', '{"n":3,"tags":["a"]}'), call('4', '{"n":4}'), call('5', '{"n":5}', '"_meta":{"progressToken":5},'), call('6', '{"n":6.0')].map((line) => line + '\n'));
  });

  test('a non-ASCII string the lenient repair wraps in an array: its characters, not its bytes read as latin1', () => {
    const call = (args: string): string => `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"t","arguments":${args}}}`;
    expect(sent(Buffer.from(call('{"tags":"café 日本","n":2.0}')), true).toString('utf8')).toBe(call('{"tags":["café 日本"],"n":2}') + '\n');
  });

  test('U+0080, the first character past ASCII (bytes C2 80), before a respelling: every other byte as it came', () => {
    const call = (n: string): string => `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"tags":["\u0080x\u0080","\u0080"],"n":${n}}}}`;
    expect(sent(Buffer.from(call('4.0')), false).toString('utf8')).toBe(call('4') + '\n');
  });

  test('an "arguments" key met before the call\'s own (in _meta): only the call\'s own arguments are repaired', () => {
    const call = (n: string): string => `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"arguments":{"n":1.0}},"name":"t","arguments":{"n":${n},"tags":["a"]}}}`;
    expect(sent(Buffer.from(call('3.0')), false).toString()).toBe(call('3') + '\n');
  });

  test('nothing to repair: the line itself goes on', () => {
    const call = Buffer.from('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{"n":4}}}');
    expect(sent(call, true).equals(Buffer.concat([call, Buffer.from('\n')]))).toBe(true);
  });
});

describe('ProxySession memory', () => {
  test('a tools/list id the session keeps until its answer holds none of the text it was read from', () => {
    const session = new ProxySession({}, { toServer: () => undefined, toClient: () => undefined, report: () => undefined });
    const grown = heapGrowth(() => {
      for (let n = 0; n < 20; n++) {
        // The image of a 1 MB chunk the line came in; the id, a slice of it, is long enough for V8 to make it a view.
        const chunk = `{"jsonrpc":"2.0","id":"request-${n}-of-a-long-client-id","method":"tools/list"}\n${' '.repeat(1 << 20)}${n}`;
        const image = chunk.slice(0, chunk.indexOf('\n'));
        session.fromClient(Buffer.from(image, 'latin1'), true, image);
      }
      return session;
    });
    // Kept as views, the twenty ids would keep twenty 1 MB texts alive.
    expect(grown).toBeLessThan(4 << 20);
  });
});

describe('SplicedLine', () => {
  /** The line's bytes with each edit's span replaced by the UTF-8 of its text, the plain way. */
  function reference(line: Buffer, offset: number, edits: readonly Edit[], terminated: boolean): Buffer {
    const parts: Buffer[] = [];
    let from = 0;
    for (const edit of edits) {
      parts.push(line.subarray(from, offset + edit.start), Buffer.from(edit.text, 'utf8'));
      from = offset + edit.end;
    }
    parts.push(line.subarray(from), Buffer.from(terminated ? '\n' : ''));
    return Buffer.concat(parts);
  }

  const texts = fc.oneof(fc.constantFrom('', '5', '-7', '[1]', '"é"', '["x"]'), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 8 }));

  test('writes the line with its edits applied, wherever it lands in the buffer, as the plain splice does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), texts), { maxLength: 6 }), fc.boolean(), fc.nat({ max: 8 }), fc.nat({ max: 40 }), (bytes, offsetSeed, rawEdits, terminated, before, slack) => {
        const line = Buffer.from(bytes);
        const offset = offsetSeed % (line.length + 1);
        // Edits in order, not overlapping, within the arguments (offset..end of the line).
        const edits: Edit[] = [];
        let at = 0;
        for (const [gap, width, text] of rawEdits) {
          const start = at + (gap % 5);
          const end = start + width;
          if (offset + end > line.length) break;
          edits.push({ start, end, text });
          at = end;
        }
        const expected = reference(line, offset, edits, terminated);
        const spliced = new SplicedLine(line, offset, editsOf(edits), terminated);
        expect(spliced.length).toBe(expected.length);
        expect(spliced.toBuffer()).toEqual(expected);
        expect(Buffer.concat(spliced.parts())).toEqual(expected);
        // Into a larger buffer: at `before`, with `slack` bytes after it (none: no room for the whole line).
        const target = Buffer.alloc(before + expected.length + slack, 0xee);
        spliced.copyInto(target, before);
        expect(target.subarray(before, before + expected.length)).toEqual(expected);
        expect(target.subarray(0, before).every((byte) => byte === 0xee)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  test('parts: with up to 64 edits, views of the line between the edits\' texts; with more, one buffer of the repaired line', () => {
    const line = Buffer.from(`{"xs":[${Array.from({ length: 65 }, () => '1.0').join(',')}],"s":"é"}`);
    const cuts = (count: number): Edit[] => Array.from({ length: count }, (_, i) => ({ start: 8 + 4 * i, end: 10 + 4 * i, text: '' }));
    const repaired = (count: number): string => `{"xs":[${Array.from({ length: 65 }, (_, i) => (i < count ? '1' : '1.0')).join(',')}],"s":"é"}\n`;
    const few = new SplicedLine(line, 0, editsOf(cuts(64)), true).parts();
    expect(Buffer.concat(few).toString('utf8')).toBe(repaired(64));
    // The spans between the edits are the line's own bytes, not copies of them.
    expect(few.filter((part) => part.buffer === line.buffer).length).toBe(65);
    const many = new SplicedLine(line, 0, editsOf(cuts(65)), true).parts();
    expect(many).toHaveLength(1);
    expect(many[0]!.toString('utf8')).toBe(repaired(65));
  });

  test('shrinking edits over a line with room after it: the fast path, several edits', () => {
    const line = Buffer.from('{"params":{"arguments":{"a":1.0,"b":[2.0,3.00],"c":"é"}}}');
    const args = line.indexOf('{"a"');
    const text = line.subarray(args).toString('latin1');
    const edits = ['1.0', '2.0', '3.00'].map((literal) => {
      const start = text.indexOf(literal);
      return { start, end: start + literal.length, text: literal.split('.')[0]! };
    });
    const spliced = new SplicedLine(line, args, editsOf(edits), true);
    const target = Buffer.alloc(spliced.length + 10);
    spliced.copyInto(target, 0);
    expect(target.subarray(0, spliced.length).toString('utf8')).toBe('{"params":{"arguments":{"a":1,"b":[2,3],"c":"é"}}}\n');
  });
});
