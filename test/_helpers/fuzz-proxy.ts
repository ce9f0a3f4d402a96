/**
 * A seeded fuzz of the proxy with a byte-exact oracle for both directions. Generated client lines
 * (calls with whole floats at integer positions, repeated keys, string arguments, other JSON-RPC,
 * batches, text that is not JSON, invalid UTF-8, CRLF, long lines, a last line without a newline) and
 * server lines go through the proxy, run in process, in random chunks of 1 B to 64 KB. The oracle
 * is the promise: the server receives each client line as it came but for the integer literals
 * respelled in the arguments of a call to a listed tool, nothing of a line whose envelope repeats
 * a key or whose arguments repeat one with two values, nor of a batch holding a `tools/` request
 * (those are answered instead: a batch with one error per request member), and the
 * client receives every server byte as it came, plus those answers.
 */
import { bytesOf } from '../../src/adapters/proxy/outlet.js';
import type { Connect } from '../../src/adapters/proxy/upstream.js';
import { runInProcess } from './proxy-run.js';

/** mulberry32: a small seeded generator, the same numbers for the same seed everywhere. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text as its latin1 image: every character one byte. */
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
const utf8 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

export const FUZZ_SCHEMA = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    xs: { type: 'array', items: { type: 'integer' } },
    f: { type: 'number' },
    s: { type: 'string' },
    o: { type: 'object', properties: { k: { type: 'integer' } } },
  },
};

/** Number literals at an integer position, and what the proxy writes for each (int64 range). */
const INTEGER_LITERALS: readonly [string, string][] = [
  ['5', '5'],
  ['5.0', '5'],
  ['-12.000', '-12'],
  ['0.0', '0'],
  ['-0.0', '0'],
  ['1e0', '1'],
  ['1E+2', '100'],
  ['0.5e1', '5'],
  ['2.5', '2.5'],
  ['1e0000000000000002', '100'],
  ['9223372036854775807.0', '9223372036854775807'],
  ['9223372036854775808.0', '9223372036854775808.0'],
  ['12345678901234567890', '12345678901234567890'],
  ['1e400', '1e400'],
  ['123456789012345.0', '123456789012345'],
];

export interface FuzzOptions {
  readonly seed: number;
  readonly lines: number;
  /** The longest line, about (a few lines of 2–5 MB in the long run, up to 1 MB in `npm test`). */
  readonly longest: number;
}

/** What one run found: the lines whose bytes differ from the promise, first ones first. */
export interface FuzzResult {
  readonly lines: number;
  readonly differences: string[];
  readonly clientBytes: number;
  readonly serverBytes: number;
}

/** One generated client line: its bytes, and what the server must receive for it (null: nothing, it is answered). */
interface ClientLine {
  readonly bytes: string;
  readonly expected: string | null;
  /** The ids (JSON tokens) the proxy answers it with, when it answers. */
  readonly answered?: readonly string[];
}

class Generator {
  private readonly random: () => number;
  private count = 0;
  private readonly longest: number;

  constructor(seed: number, longest: number) {
    this.random = generator(seed);
    this.longest = longest;
  }

  int(below: number): number {
    return Math.floor(this.random() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }

  space(): string {
    return this.chance(0.8) ? '' : this.pick([' ', '  ', '\t', '\r', ' \t']);
  }

  /** A JSON string token as latin1 bytes: ASCII, escapes, UTF-8, and sometimes invalid UTF-8. */
  stringToken(long = false): string {
    const parts: string[] = [];
    const length = long ? this.longest / 2 + this.int(this.longest / 2) : this.int(12);
    if (long) return `"${'x'.repeat(length)}"`;
    for (let i = 0; i < length; i++) {
      parts.push(
        this.pick([
          'a',
          'Z',
          ' ',
          '\\"',
          '\\\\',
          '\\n',
          '\\u00e9',
          '\\ud83d\\ude00',
          utf8('é'),
          utf8('日本'),
          utf8('😀'),
          '\xc3', // a lead byte alone
          '\x80', // a continuation byte alone
          '\xe2\x82', // a cut sequence
          '\xff',
          '{',
          '}',
          '[',
          ':',
          ',',
          'arguments',
          'tools/call',
        ]),
      );
    }
    return `"${parts.join('')}"`;
  }

  /** An integer-position literal and its respelling. */
  integer(): [string, string] {
    return this.pick(INTEGER_LITERALS);
  }

  /** Arguments for tool `t` (and what the server must receive), or a refusal. */
  args(): { text: string; expected: string; refused: boolean } {
    const sp = (): string => this.space();
    const texts: string[] = [];
    const wanted: string[] = [];
    const member = (key: string, value: string, respelled: string): void => {
      const a = sp();
      const b = sp();
      const c = sp();
      const d = sp();
      texts.push(`${a}"${key}"${b}:${c}${value}${d}`);
      wanted.push(`${a}"${key}"${b}:${c}${respelled}${d}`);
    };
    const keys = ['n', 'xs', 'f', 's', 'o', 'extra'].filter(() => this.chance(0.6));
    let refused = false;
    for (const key of keys) {
      if (key === 'n') {
        const [literal, respelled] = this.integer();
        member('n', literal, respelled);
      } else if (key === 'xs') {
        const items = Array.from({ length: this.int(6) }, () => (this.chance(0.2) ? [this.stringToken(), ''] : this.integer()));
        const value = `[${items.map(([literal]) => literal).join(',')}]`;
        const respelled = `[${items.map(([literal, to]) => (to === '' ? literal : to)).join(',')}]`;
        member('xs', value, respelled);
      } else if (key === 'f') {
        const [literal] = this.integer();
        member('f', literal, literal);
      } else if (key === 's') {
        const token = this.stringToken(this.chance(0.002));
        member('s', token, token);
      } else if (key === 'o') {
        const [literal, respelled] = this.integer();
        member('o', `{"k":${literal}}`, `{"k":${respelled}}`);
      } else {
        const token = this.stringToken();
        member('extra', token, token);
      }
    }
    // A key given twice: the same value (respelled alike) or another one (refused).
    if (this.chance(0.03) && texts.length > 0) {
      const at = this.int(texts.length);
      if (this.chance(0.5)) {
        texts.push(texts[at]!);
        wanted.push(wanted[at]!);
      } else {
        const key = /"([^"]*)"/.exec(texts[at]!)![1]!;
        texts.push(`"${key}":"other ${this.count}"`);
        wanted.push('');
        refused = true;
      }
    }
    return { text: `{${texts.join(',')}}`, expected: `{${wanted.join(',')}}`, refused };
  }

  client(): ClientLine {
    const id = `"c-${++this.count}"`;
    const kind = this.random();
    if (kind < 0.5) {
      const tool = this.pick(['t', 't', 'u', 'x']);
      const { text, expected, refused } = this.args();
      const call = (args: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;
      // `x` is not a tool the server lists: its calls go on as they came.
      if (tool === 'x') return { bytes: call(text), expected: call(text) };
      if (refused) return { bytes: call(text), expected: null, answered: [id] };
      return { bytes: call(text), expected: call(expected) };
    }
    if (kind < 0.55) {
      const smuggled = this.pick([
        `{"jsonrpc":"2.0","id":${id},"method":"ping","method":"tools/call","params":{"name":"t","arguments":{"n":"7"}}}`,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"n":7},"arguments":{"n":"8"}}}`,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"u","name":"t","arguments":{"n":1.0}}}`,
      ]);
      return { bytes: smuggled, expected: null, answered: [id] };
    }
    if (kind < 0.58) return this.batch();
    if (kind < 0.6) {
      // Arguments given as a string holding an object's text: sent on as that object.
      const n = this.int(1000);
      return { bytes: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":"{\\"n\\":${n}.0}"}}`, expected: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"n":${n}}}}` };
    }
    const others = [
      `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
      `{"jsonrpc": "2.0", "id": ${id}, "method": "resources/read", "params": {"uri": "tools/call", "n": 5.0}}`,
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id}}}`,
      `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"t"}]}}`,
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{'n': 1.0}}}`,
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"n":1.0}}`,
      'not JSON at all, tools/call',
      '\xff\xfe\x00garbage',
      '',
      `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"cursor":"x"}}`,
      `{"jsonrpc":"2.0","id":${id},"method":"x","params":{"s":${this.stringToken(this.chance(0.01))}}}`,
    ];
    const line = this.pick(others);
    return { bytes: line, expected: line };
  }

  /**
   * A batch of one to four members: refused whole (each request answered) when one of them is a
   * `tools/` request, else sent on as it came.
   */
  batch(): ClientLine {
    const members: { text: string; id?: string; tools: boolean }[] = [];
    for (let i = this.int(4); i >= 0; i--) {
      const id = `"c-${++this.count}"`;
      members.push(
        this.pick([
          { text: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":${this.args().text}}}`, id, tools: true },
          { text: `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`, id, tools: true },
          { text: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"u","arguments":{"n":"7"}}}`, tools: true },
          { text: `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, id, tools: false },
          { text: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${id},"message":"tools/call"}}`, tools: false },
          { text: `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{"uri":"tools/call","s":${this.stringToken()},"n":5.0}}`, id, tools: false },
        ]),
      );
    }
    const bytes = `${this.space()}[${members.map((member) => this.space() + member.text + this.space()).join(',')}]`;
    if (!members.some((member) => member.tools)) return { bytes, expected: bytes };
    return { bytes, expected: null, answered: members.flatMap((member) => (member.id === undefined ? [] : [member.id])) };
  }

  server(): string {
    const id = `"s-${++this.count}"`;
    return this.pick([
      `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${this.stringToken(this.chance(0.01))}}]}}`,
      `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${this.stringToken()}}}`,
      '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
      'server noise \xff\xfe',
      `{"jsonrpc":"2.0","id":${id},"result":{}}\r`,
      '',
    ]);
  }

  /** `stream` cut into chunks of 1 B to 64 KB. */
  chunks(stream: Buffer): Buffer[] {
    const chunks: Buffer[] = [];
    for (let at = 0; at < stream.length; ) {
      const size = this.chance(0.3) ? 1 + this.int(16) : this.chance(0.5) ? 1 + this.int(4096) : 1 + this.int(65536);
      chunks.push(stream.subarray(at, at + size));
      at += size;
    }
    return chunks;
  }
}

/** The tools the fuzz's server lists, in two pages. */
const PAGES = [
  { tools: [{ name: 't', inputSchema: FUZZ_SCHEMA }], nextCursor: 'p2' },
  { tools: [{ name: 'u', inputSchema: FUZZ_SCHEMA }] },
];

/**
 * Runs one seed: `lines` client lines (and a server line for about every third) through the proxy.
 */
export async function fuzzProxy({ seed, lines, longest }: FuzzOptions): Promise<FuzzResult> {
  const gen = new Generator(seed, longest);
  const client = Array.from({ length: lines }, () => gen.client());
  // CRLF on some lines (the \r is the line's own last byte), and a last line without a newline.
  const endings: string[] = client.map(() => (gen.chance(0.05) ? '\r\n' : '\n'));
  if (gen.chance(0.5)) endings[endings.length - 1] = '';
  const clientStream = latin1(client.map((line, i) => line.bytes + endings[i]).join(''));
  const expectedServer = client.map((line, i) => (line.expected === null ? '' : line.expected + endings[i])).join('');
  const serverLines = Array.from({ length: Math.ceil(lines / 3) }, () => gen.server());
  const serverStream = latin1(serverLines.map((line) => line + '\n').join(''));

  const received: Buffer[] = [];
  const connect: Connect = (side) => {
    let finish!: (status: number) => void;
    const done = new Promise<number>((resolve) => (finish = resolve));
    const serverChunks = gen.chunks(serverStream);
    let clientEnded = false;
    let serverEnded = false;
    const own: string[] = [];
    /** Between two of its lines, a server answers the proxy's tools/list first. */
    let atLineStart = true;
    /** The server writes its own stream in chunks, and answers the proxy's tools/list between its lines. */
    const tick = (): void => {
      const reply = atLineStart ? own.shift() : undefined;
      if (reply !== undefined) side.reader.push(latin1(reply));
      else if (serverChunks.length > 0) {
        const chunk = serverChunks.shift()!;
        atLineStart = chunk[chunk.length - 1] === 0x0a;
        side.reader.push(chunk);
      }
      if (own.length > 0 || serverChunks.length > 0) setImmediate(tick);
      else if (!serverEnded) {
        serverEnded = true;
        side.reader.end();
      }
      if (serverEnded && clientEnded) finish(0);
    };
    let pending = Buffer.alloc(0);
    return {
      send: (pieces) => {
        pending = Buffer.concat([pending, ...pieces.map(bytesOf)]);
        // The proxy's own requests are answered, never counted as the client's.
        for (let at = pending.indexOf(0x0a); at !== -1; at = pending.indexOf(0x0a)) {
          const line = pending.subarray(0, at + 1);
          pending = pending.subarray(at + 1);
          const text = line.toString('latin1');
          if (text.includes('"schema-coerce-proxy:')) {
            const request = JSON.parse(text) as { id: string; params: { cursor?: string } };
            own.push(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: PAGES[request.params.cursor === 'p2' ? 1 : 0] }) + '\n');
            setImmediate(tick);
          } else {
            received.push(Buffer.from(line));
          }
        }
      },
      end: () => {
        if (pending.length > 0) received.push(pending);
        clientEnded = true;
        setImmediate(tick);
      },
      signal: () => finish(143),
      takesStream: true,
      source: { pause: () => undefined, resume: () => undefined },
      done,
    };
  };
  const run = await runInProcess(connect, gen.chunks(clientStream));

  const differences: string[] = [];
  // Client → server: line by line against the promise.
  const got = Buffer.concat(received).toString('latin1');
  if (got !== expectedServer) differences.push(describeDifference('client → server', got, expectedServer));
  // Server → client: every server byte as it came, with the proxy's answers (one line each) between lines.
  const answers = new Set(client.flatMap((line) => line.answered ?? []).map((id) => JSON.parse(id) as string));
  const toClient = run.stdout.toString('latin1').split('\n');
  const answered: string[] = [];
  const passed: string[] = [];
  for (const line of toClient) {
    const ids = answerIds(line);
    if (ids !== undefined && ids.every((id) => answers.has(id))) answered.push(...ids);
    else passed.push(line);
  }
  const gotServer = passed.join('\n');
  const wantServer = serverStream.toString('latin1');
  if (gotServer !== wantServer) differences.push(describeDifference('server → client', gotServer, wantServer));
  if (answered.length !== answers.size || new Set(answered).size !== answers.size) differences.push(`answers: ${answered.length} answers to the ${answers.size} refused requests`);
  return { lines, differences, clientBytes: clientStream.length, serverBytes: serverStream.length };
}

/** The ids of a line the proxy answered a client line with (`c-` ids; several for a batch), else undefined. */
function answerIds(line: string): string[] | undefined {
  if (!line.startsWith('{"jsonrpc":"2.0","id":"c-') && !line.startsWith('[{"jsonrpc":"2.0","id":"c-')) return undefined;
  try {
    const parsed = JSON.parse(line) as unknown;
    const ids = (Array.isArray(parsed) ? parsed : [parsed]).map(answerId);
    return ids.every((id) => id !== undefined) ? ids : undefined;
  } catch {
    return undefined;
  }
}

/** The id of an error or `isError` answer, when it is a string. */
function answerId(message: { id?: unknown; error?: unknown; result?: { isError?: unknown } }): string | undefined {
  return (message.error !== undefined || message.result?.isError === true) && typeof message.id === 'string' ? message.id : undefined;
}

/** Where two streams first differ, with the lines around it. */
function describeDifference(direction: string, got: string, want: string): string {
  let at = 0;
  while (at < got.length && at < want.length && got.charCodeAt(at) === want.charCodeAt(at)) at++;
  const lineStart = Math.max(got.lastIndexOf('\n', at - 1), want.lastIndexOf('\n', at - 1)) + 1;
  const show = (text: string): string => JSON.stringify(text.slice(lineStart, Math.min(text.length, at + 120)).slice(0, 400));
  return `${direction}: first difference at byte ${at} (of ${got.length} received, ${want.length} promised): got ${show(got)}, promised ${show(want)}`;
}
