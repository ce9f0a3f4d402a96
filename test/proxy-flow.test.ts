/**
 * The proxy's flow between a real child process on stdio and a client over streams, run in this
 * process: a server that stops reading makes the proxy stop reading from the client, a client that
 * stops reading makes it stop reading from the server (and both go on once the peer reads again),
 * a long server line reaches the client as it comes, whole client lines go to the server as the
 * chunk they came in, the server's stderr is the proxy's own, and what the proxy holds of the
 * client's stream, its stderr and its log file once the server is done.
 */
import { fstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { runProxy } from '../src/adapters/proxy/process.js';
import type { ProxyOptions } from '../src/adapters/proxy/session.js';
import { stdioUpstream } from '../src/adapters/proxy/stdio-upstream.js';
import type { Connect } from '../src/adapters/proxy/upstream.js';
import { collector, runInProcess } from './_helpers/proxy-run.js';

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
/** A call whose arguments repeat a key: the proxy answers it itself and reports the rejection. */
const AMBIGUOUS = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"n":1},"arguments":{"n":2}}}\n';

/** A child Node process running `script`. */
const node = (script: string): Connect => stdioUpstream([process.execPath, '-e', script]);

/** `connect`, with a hand on its upstream's `signal` (any signal, sent to the child). */
function withSignal(connect: Connect): { connect: Connect; signal: (name: NodeJS.Signals) => void } {
  let upstream: ReturnType<Connect> | undefined;
  return {
    connect: (side) => (upstream = connect(side)),
    signal: (name) => upstream!.signal(name),
  };
}

/** Waits until `ready()` holds, polling; fails after `seconds`. */
async function until(ready: () => boolean, what: string, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not within ${seconds} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `done`, or a failure naming `what` after `seconds`. */
function within<T>(done: Promise<T>, what: string, seconds = 20): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${seconds} s: ${what}`)), seconds * 1000);
  });
  return Promise.race([done, late]).finally(() => clearTimeout(timer));
}

/** A client's end that takes nothing (holds every write's callback) until `release` is called. */
function heldStream(highWaterMark: number): { stream: Writable; bytes: () => Buffer; release: () => void } {
  const chunks: Buffer[] = [];
  const held: (() => void)[] = [];
  let open = false;
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      if (open) done();
      else held.push(() => done());
    },
  });
  return {
    stream,
    bytes: () => Buffer.concat(chunks),
    release: () => {
      open = true;
      for (const done of held.splice(0)) done();
    },
  };
}

describe('back-pressure through the proxy', () => {
  test('a server that stops reading: the proxy stops reading from the client, and goes on once the server reads', async () => {
    // Says it is ready, reads nothing until SIGUSR2, then echoes everything; exits once its input ends.
    const script = 'const keep = setInterval(() => {}, 1 << 30); process.on("SIGUSR2", () => process.stdin.pipe(process.stdout)); process.stdin.on("end", () => clearInterval(keep)); process.stdout.write("ready\\n");';
    const { connect, signal } = withSignal(node(script));
    const stdin = new PassThrough();
    const stdout = collector();
    const done = runProxy(connect, {}, { stdin, stdout: stdout.stream, stderr: collector().stream });
    await until(() => stdout.bytes().length > 0, 'the server is ready');
    const chunk = PING.repeat(Math.ceil(65_536 / PING.length));
    let sent = 0;
    // A pipe holds 64 KB and the child's stdin stream 16 KB more: well before 4 MB the proxy must stop.
    while (!stdin.isPaused() && sent < 64) {
      stdin.write(chunk);
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(stdin.isPaused()).toBe(true);
    expect(sent).toBeLessThan(64);
    signal('SIGUSR2');
    for (let more = 0; more < 8; more++) stdin.write(chunk);
    stdin.end();
    expect(await within(done, 'the proxy resumes reading from the client')).toBe(0);
    expect(stdout.bytes().toString('latin1')).toBe('ready\n' + chunk.repeat(sent + 8));
  });

  test('a client that stops reading: the proxy stops reading from the server, and goes on once the client reads', async () => {
    // 8 MB of whole lines, as fast as the pipe takes them.
    const line = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'x'.repeat(1_000)}"}}\n`;
    const script = `const line = ${JSON.stringify(line)}; let left = 8_000; const more = () => { while (left > 0) { left--; if (!process.stdout.write(line)) return void process.stdout.once("drain", more); } }; more(); process.stdin.resume();`;
    const stdin = new PassThrough();
    const client = heldStream(16_384);
    const done = runProxy(node(script), {}, { stdin, stdout: client.stream, stderr: collector().stream });
    let finished = false;
    void done.then(() => (finished = true));
    await until(() => client.stream.writableLength > 0, 'the server\'s first lines reach the proxy');
    // What the proxy took from the server stops growing far short of the 8 MB the server has to send.
    let taken = -1;
    while (taken !== client.stream.writableLength) {
      taken = client.stream.writableLength;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(taken).toBeLessThan(2_000_000);
    expect(finished).toBe(false);
    client.release();
    stdin.end();
    expect(await within(done, 'the proxy resumes reading from the server')).toBe(0);
    expect(client.bytes().toString('latin1')).toBe(line.repeat(8_000));
  });

  test('a verbose proxy whose stderr is not read goes on answering: the reports wait for stderr', async () => {
    const stderr = heldStream(1);
    const stdin = new PassThrough();
    const stdout = collector();
    const done = runProxy(node('process.stdin.resume()'), { verbose: true }, { stdin, stdout: stdout.stream, stderr: stderr.stream });
    stdin.write(AMBIGUOUS);
    stdin.write(AMBIGUOUS.replace('"id":7', '"id":8'));
    await until(() => stdout.bytes().toString().split('\n').length === 3, 'both calls answered');
    expect(stdout.bytes().toString().split('\n').slice(0, 2).map((answer) => (JSON.parse(answer) as { id: number }).id)).toEqual([7, 8]);
    stderr.release();
    stdin.end();
    expect(await within(done, 'the proxy ends')).toBe(0);
    expect(stderr.bytes().toString().split('\n').filter((report) => report.includes('"kind":"rejection"')).length).toBe(2);
  });
});

describe('how lines pass', () => {
  test('a server line past 32 KB reaches the client as it comes, before its end has been written', async () => {
    const head = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'x'.repeat(100_000)}`;
    const tail = '"}]}}\n';
    // Writes the head at once, and the tail only once its input ends.
    const script = `process.stdout.write(${JSON.stringify(head)}); process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(${JSON.stringify(tail)}));`;
    const stdin = new PassThrough();
    const stdout = collector();
    const done = runProxy(node(script), {}, { stdin, stdout: stdout.stream, stderr: collector().stream });
    await until(() => stdout.bytes().length === head.length, 'the head of the line reaches the client');
    stdin.end();
    expect(await within(done, 'the proxy ends')).toBe(0);
    expect(stdout.bytes().toString()).toBe(head + tail);
  });

  test('whole client lines that need no reading reach a stdio server as the chunk they came in, in one write', async () => {
    const sent: Buffer[][] = [];
    const connect: Connect = (side) => {
      const upstream = node('process.stdin.pipe(process.stdout)')(side);
      return {
        ...upstream,
        send: (pieces: readonly Piece[]) => {
          sent.push(pieces.map(bytesOf));
          upstream.send(pieces);
        },
      };
    };
    const chunk = PING + PING.replace('"id":1', '"id":2') + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
    const run = await runInProcess(connect, [chunk]);
    expect(sent.map((pieces) => pieces.map((piece) => piece.toString()))).toEqual([[chunk]]);
    expect(run.stdout.toString()).toBe(chunk);
  });
});

describe('what the proxy shares and holds', () => {
  test('the server\'s stderr is the proxy\'s own: what it writes there goes where the proxy\'s goes', async () => {
    const run = await runInProcess(node('const s = require("fs").fstatSync(2); process.stdout.write(JSON.stringify([s.dev, s.ino]) + "\\n")'), []);
    const own = fstatSync(2);
    expect(JSON.parse(run.stdout.toString())).toEqual([own.dev, own.ino]);
  });

  test('once the server is done, the client\'s stream is let go: no listener of the proxy\'s left on it, paused', async () => {
    const stdin = new PassThrough();
    const before = { data: stdin.listenerCount('data'), end: stdin.listenerCount('end') };
    const status = await runProxy(node('process.exit(4)'), {}, { stdin, stdout: collector().stream, stderr: collector().stream });
    expect(status).toBe(4);
    expect({ data: stdin.listenerCount('data'), end: stdin.listenerCount('end') }).toEqual(before);
    expect(stdin.isPaused()).toBe(true);
  });

  test('when the proxy returns, its log file holds every report and is closed', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'sc-log-')), 'proxy.log');
    const stdin = new PassThrough();
    const options: ProxyOptions = { log };
    const done = runProxy(node('process.stdin.resume()'), options, { stdin, stdout: collector().stream, stderr: collector().stream });
    stdin.end(AMBIGUOUS);
    expect(await done).toBe(0);
    // Read at once, without a turn of the event loop for a late write to land.
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).map((entry) => (JSON.parse(entry) as { kind: string }).kind)).toEqual(['rejection']);
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(join('/proc/self/fd', fd))];
      } catch {
        return [];
      }
    });
    expect(open).not.toContain(log);
  });

  test('a log file that cannot be opened does not stop the proxy: the client is answered, the status is the server\'s', async () => {
    const run = await runInProcess(node('process.stdin.resume(); process.stdin.on("end", () => process.exitCode = 5)'), [AMBIGUOUS], { log: join(tmpdir(), 'no-such-dir-sc', 'proxy.log') });
    expect(run.status).toBe(5);
    expect((JSON.parse(run.stdout.toString()) as { id: number; error: { code: number } }).error.code).toBe(-32600);
  });
});
