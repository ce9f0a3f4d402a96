/**
 * `readMessage`, the gateway's check of a POSTed body before it acts on it or forwards it, over
 * the tables in fixtures/gateway: every message a server would drop unanswered is refused with
 * the error that names why (and the id, when the message has a usable one); every valid one is
 * read for its method and request id. Nesting and raw bytes that JSON text cannot carry are built here.
 */
import { describe, expect, test } from 'vitest';
import { readMessage } from '../src/adapters/gateway/jsonrpc-check.js';
import { loadFixtures } from './_helpers/fixtures.js';

interface Invalid {
  readonly name: string;
  readonly body: string;
  readonly error: { readonly code: number; readonly message: string };
  readonly id: string | number | null;
}
interface Valid {
  readonly name: string;
  readonly body: string;
  readonly method: string | null;
  readonly requestId: string | number | null;
}

const [invalid] = loadFixtures<Invalid>('gateway').filter(({ file }) => file.endsWith('invalid-messages.json'));
const [valid] = loadFixtures<Valid>('gateway').filter(({ file }) => file.endsWith('/valid-messages.json'));
const read = (body: string | Buffer, depth = 128) => readMessage(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), depth);
const CALL = (args: string): string => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${args}}}`;
const DEEP = 'Invalid Request: the message nests deeper than';

describe('readMessage refuses what a server would drop unanswered', () => {
  test.each(invalid!.cases.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    expect(read(row.body)).toEqual({ ok: false, code: row.error.code, message: row.error.message, id: row.id });
  });

  test('text that is not JSON is a parse error', () => {
    expect(read('{"jsonrpc":"2.0","id":1,')).toEqual({ ok: false, code: -32700, message: 'Parse error: the body is not JSON', id: null });
    expect(read('{"s":"never closed')).toEqual({ ok: false, code: -32700, message: 'Parse error: the body is not JSON', id: null });
  });

  test('nesting past the bound is refused before it is parsed, at any size; at the bound it is read', () => {
    const nest = (levels: number): string => CALL(`{"n":1,"deep":${'['.repeat(levels)}${']'.repeat(levels)}}`);
    // The envelope, params, arguments: 3 levels before the arrays.
    expect(read(nest(125))).toMatchObject({ ok: true, requestId: 1 });
    expect(read(nest(126))).toEqual({ ok: false, code: -32600, message: `${DEEP} 128 levels`, id: null });
    expect(read(nest(5), 8)).toMatchObject({ ok: true });
    expect(read(nest(6), 8)).toEqual({ ok: false, code: -32600, message: `${DEEP} 8 levels`, id: null });
    // The bodies are made before the clock starts: encoding 10 MB took over 400 ms of the second alone.
    const [deep, open] = [Buffer.from(nest(100_000)), Buffer.from('{"a":'.repeat(2_000_000))];
    const begun = performance.now();
    expect(read(deep)).toMatchObject({ ok: false, message: `${DEEP} 128 levels` });
    expect(read(open)).toMatchObject({ ok: false, message: `${DEEP} 128 levels` });
    expect(performance.now() - begun).toBeLessThan(1_000);
    // Brackets inside strings are text, not nesting.
    expect(read(CALL(`{"n":1,"s":"${'[{'.repeat(500)}"}`))).toMatchObject({ ok: true });
  });

  test('the bytes are read in time linear in their length (each searched at most twice): many strings and one backslash at the end, many escapes, many top-level keys', () => {
    const shapes: ((count: number) => Buffer)[] = [
      (count) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { items: Array.from({ length: count }, (_, i) => `a${i % 10}`), last: 'end\\' } })),
      (count) => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"${'\\u00e9\\ud83d\\ude00'.repeat(count / 4)}"}}`),
      (count) => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"x",${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')},"s":"\\n"}`),
    ];
    /** The bytes `readMessage`'s searches of `body` pass over (each search counted from where it starts to what it finds, or to the end). */
    const searched = (body: Buffer): number => {
      let passed = 0;
      const search = body.indexOf.bind(body);
      Object.defineProperty(body, 'indexOf', {
        value: (value: number, from: number): number => {
          const found = search(value, from);
          passed += (found === -1 ? body.length : found + 1) - from;
          return found;
        },
      });
      expect(readMessage(body, 128)).toMatchObject({ ok: true });
      return passed;
    };
    for (const shape of shapes) {
      // Each byte is passed over once by the search for quotes and once by the search for backslashes, at most;
      // looking afresh at each string (as before) passed over the rest of the body for each: 2 MB of small strings took 19 s.
      // (Counted, not timed: a loaded machine's times vary more than twice over.)
      const body = shape(128_000);
      expect(searched(body), shape.toString()).toBeLessThanOrEqual(2 * body.length);
    }
  });

  test('bytes that are not UTF-8 are refused: a surrogate encoded raw, a lone continuation byte, a cut sequence', () => {
    const withBytes = (bytes: number[]): Buffer => Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"'), Buffer.from(bytes), Buffer.from('"}}')]);
    for (const bytes of [[0xed, 0xa0, 0x80], [0x80], [0xe2, 0x82], [0xff]]) {
      expect(read(withBytes(bytes))).toEqual({ ok: false, code: -32600, message: 'Invalid Request: the body is not valid UTF-8', id: null });
    }
    expect(read(withBytes([0xe2, 0x82, 0xac]))).toMatchObject({ ok: true });
  });

  test('a string cut off at the end of the text is not JSON; a high surrogate before a broken escape is alone', () => {
    expect(read('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\ud8')).toMatchObject({ ok: false, code: -32700 });
    expect(read('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\ud800\\u"}}')).toMatchObject({ ok: false, code: -32600 });
    expect(read('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\ud800\\uzzzz"}}')).toMatchObject({ ok: false, code: -32600 });
    expect(read('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\ud800\\udc0g"}}')).toMatchObject({ ok: false, code: -32600 });
    expect(read('{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\udbff\\uDFFF \\uD7FF \\uE000 \\uABCD"}}')).toMatchObject({ ok: true });
  });
});

describe('readMessage reads every valid message', () => {
  test.each(valid!.cases.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    expect(read(row.body)).toEqual({ ok: true, method: row.method ?? undefined, requestId: row.requestId ?? undefined });
  });
});
