/**
 * The proxy's two ways to a server, run in this process (so their mutants are reached): a real
 * child process on stdio (its output, its exit status, a signal passed on, a command that cannot
 * be started), and the hand-followed redirects of a Streamable HTTP endpoint against a real
 * loopback server (same origin followed with method, body and headers; another origin, a missing
 * `Location` and a sixth hop refused; any other `3xx` answered as it is).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { fetchFollowing, follow, RedirectRefused, whyUnreachable } from '../src/adapters/proxy/redirects.js';
import { stdioUpstream } from '../src/adapters/proxy/stdio-upstream.js';
import type { Connect } from '../src/adapters/proxy/upstream.js';
import { runProxy } from '../src/adapters/proxy/process.js';
import { collector, runInProcess } from './_helpers/proxy-run.js';

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';

/** A child Node process running `script`. */
const node = (script: string): Connect => stdioUpstream([process.execPath, '-e', script]);

describe('a server run as a child process on stdio', () => {
  test('what the server writes reaches the client byte for byte, and its exit code is the status', async () => {
    // Echoes every byte it reads, then exits with 3 once its input is closed.
    const run = await runInProcess(node('process.stdin.pipe(process.stdout); process.stdin.on("end", () => process.exitCode = 3);'), [PING, '{"x":"é"}\n']);
    expect(run.stdout.toString('utf8')).toBe(PING + '{"x":"é"}\n');
    expect(run.status).toBe(3);
    expect(run.stderr).toBe('');
  });

  test('the server\'s input is closed once the client is done, after everything was sent', async () => {
    // Writes how many bytes it received once its input ends.
    const script = 'let n = 0; process.stdin.on("data", (c) => n += c.length); process.stdin.on("end", () => process.stdout.write(n + "\\n"));';
    const run = await runInProcess(node(script), [PING, PING]);
    expect(run.stdout.toString('utf8')).toBe(`${2 * PING.length}\n`);
    expect(run.status).toBe(0);
  });

  test('a server ended by a signal gives 128 + the signal\'s number, as a shell does', async () => {
    const run = await runInProcess(node('process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 10000);'), []);
    expect(run.status).toBe(143);
  });

  test('a signal the proxy receives is passed on to the server', async () => {
    let signal: ((name: NodeJS.Signals) => void) | undefined;
    const connect: Connect = (side) => {
      const upstream = node('process.stdout.write("ready\\n"); setTimeout(() => {}, 10000);')(side);
      signal = (name) => upstream.signal(name);
      return upstream;
    };
    const stdin = new PassThrough();
    const stdout = collector();
    const stderr = collector();
    const done = runProxy(connect, {}, { stdin, stdout: stdout.stream, stderr: stderr.stream });
    await new Promise<void>((resolve) => {
      const wait = (): void => void (stdout.bytes().length > 0 ? resolve() : setTimeout(wait, 10));
      wait();
    });
    signal!('SIGINT');
    expect(await done).toBe(130);
  });

  test('a command that cannot be started: status 127 and its name and code on stderr', async () => {
    const run = await runInProcess(stdioUpstream(['/nonexistent/mcp-server', '--flag']), [PING]);
    expect(run.status).toBe(127);
    expect(run.stderr).toBe('schema-coerce proxy: cannot start "/nonexistent/mcp-server": ENOENT\n');
    expect(run.stdout.length).toBe(0);
  });

  test('a server that exits with an error after starting is not reported as one that could not start', async () => {
    const run = await runInProcess(node('process.exit(1)'), [PING]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('cannot start');
  });
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly auth: string | undefined;
}

/** A loopback server answering each request with `route(path)`: a status and a `Location`. */
async function serve(route: (path: string) => { status: number; location?: string }): Promise<{ base: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, body: Buffer.concat(chunks).toString('utf8'), auth: request.headers.authorization });
      const { status, location } = route(request.url!);
      response.writeHead(status, location === undefined ? {} : { location });
      response.end(status === 200 ? 'answered' : 'moved');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const POST = { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: new TextEncoder().encode(PING) };

/** What `fetchFollowing` ends with: the answer's status and body, or the refusal's message. */
async function outcome(url: string): Promise<string> {
  try {
    const response = await fetchFollowing(new URL(url), POST);
    return `${response.status} ${await response.text()}`;
  } catch (error) {
    return error instanceof RedirectRefused ? `refused: ${error.message}` : `error: ${whyUnreachable(error)}`;
  }
}

describe('redirects of a Streamable HTTP endpoint', () => {
  test.each([307, 308])('a %i to the same origin is followed with the same method, body and headers', async (status) => {
    const peer = await serve((path) => (path === '/mcp' ? { status, location: '/mcp/' } : { status: 200 }));
    try {
      expect(await outcome(`${peer.base}/mcp`)).toBe('200 answered');
      expect(peer.seen).toEqual([
        { method: 'POST', url: '/mcp', body: PING, auth: 'Bearer t' },
        { method: 'POST', url: '/mcp/', body: PING, auth: 'Bearer t' },
      ]);
    } finally {
      await peer.close();
    }
  });

  test.each([301, 302, 303])('a %i is answered as it is, not followed', async (status) => {
    const peer = await serve(() => ({ status, location: '/elsewhere' }));
    try {
      expect(await outcome(`${peer.base}/mcp`)).toBe(`${status} moved`);
      expect(peer.seen.map((request) => request.url)).toEqual(['/mcp']);
    } finally {
      await peer.close();
    }
  });

  test('a redirect to another origin is refused, naming the origin only, and nothing is sent there', async () => {
    const other = await serve(() => ({ status: 200 }));
    const peer = await serve(() => ({ status: 307, location: `${other.base}/steal?key=secret` }));
    try {
      expect(await outcome(`${peer.base}/mcp`)).toBe(`refused: redirected to another origin (${other.base}): not followed`);
      expect(other.seen).toEqual([]);
    } finally {
      await Promise.all([peer.close(), other.close()]);
    }
  });

  test('a redirect without a Location, or with one that is no URL, is refused', async () => {
    const peer = await serve((path) => (path === '/none' ? { status: 308 } : { status: 307, location: 'http://[bad' }));
    try {
      expect(await outcome(`${peer.base}/none`)).toBe('refused: answered HTTP 308 without a usable Location');
      expect(await outcome(`${peer.base}/bad`)).toBe('refused: answered HTTP 307 without a usable Location');
    } finally {
      await peer.close();
    }
  });

  test('five redirects in a row are followed; a sixth is refused', async () => {
    // /r5 → /r4 → … → /r0, which answers; /r6 needs six hops.
    const peer = await serve((path) => {
      const left = Number(path.slice(2));
      return left === 0 ? { status: 200 } : { status: 307, location: `/r${left - 1}` };
    });
    try {
      expect(await outcome(`${peer.base}/r5`)).toBe('200 answered');
      expect(peer.seen.length).toBe(6);
      expect(await outcome(`${peer.base}/r6`)).toBe('refused: redirected more than 5 times');
      expect(peer.seen.length).toBe(6 + 6);
    } finally {
      await peer.close();
    }
  });

  test('each redirect\'s body is dropped before the next request is sent', async () => {
    const dropped: string[] = [];
    const answers = [
      { status: 307, location: '/b' },
      { status: 200, location: null },
    ];
    const sent: string[] = [];
    const answer = await follow(
      new URL('http://127.0.0.1:1/a'),
      async (target) => {
        sent.push(`${target.pathname} after ${dropped.length} dropped`);
        return answers[sent.length - 1]!;
      },
      (hop) => ({ status: hop.status, location: hop.location, discard: () => dropped.push(hop.location ?? '') }),
    );
    expect(answer.status).toBe(200);
    expect(sent).toEqual(['/a after 0 dropped', '/b after 1 dropped']);
  });

  test('a server that cannot be reached is named by the error\'s code', async () => {
    const peer = await serve(() => ({ status: 200 }));
    const url = `${peer.base}/mcp`;
    await peer.close();
    expect(await outcome(url)).toBe('error: cannot be reached: ECONNREFUSED');
  });

  test.each([
    [new RedirectRefused('redirected more than 5 times'), 'redirected more than 5 times'],
    [Object.assign(new Error('x'), { cause: { message: 'socket hang up' } }), 'cannot be reached: socket hang up'],
    [Object.assign(new Error('connect failed'), { code: 'EHOSTUNREACH' }), 'cannot be reached: EHOSTUNREACH'],
    [Object.assign(new Error('timed out'), { code: 23 }), 'cannot be reached: timed out'],
    ['a string thrown', 'cannot be reached: a string thrown'],
  ])('why a request got no answer: %s', (error, why) => {
    expect(whyUnreachable(error)).toBe(why);
  });

  test('a refused redirect is an error of its own name', () => {
    expect(new RedirectRefused('m').name).toBe('RedirectRefused');
  });
});
