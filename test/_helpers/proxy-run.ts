/** The proxy run in this process (so an in-memory mutant is reached), over streams the test holds. */
import { PassThrough, Writable } from 'node:stream';
import { runProxy } from '../../src/adapters/proxy/process.js';
import type { ProxyOptions } from '../../src/adapters/proxy/session.js';
import type { Connect } from '../../src/adapters/proxy/upstream.js';

export interface ProxyRun {
  readonly status: number;
  /** What the client received, as bytes. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** A stream that keeps what is written to it. */
export function collector(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

/**
 * Runs the proxy in front of `connect`, writes `chunks` as the client (each after the last was
 * taken, with a turn of the event loop between), closes the client's side, and waits for the end.
 */
export async function runInProcess(connect: Connect, chunks: readonly (string | Buffer)[], options: ProxyOptions = {}): Promise<ProxyRun> {
  const stdin = new PassThrough();
  const stdout = collector();
  const stderr = collector();
  const done = runProxy(connect, options, { stdin, stdout: stdout.stream, stderr: stderr.stream });
  for (const chunk of chunks) {
    stdin.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  stdin.end();
  const status = await done;
  // What the outlets gathered in the last turn is written on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  return { status, stdout: stdout.bytes(), stderr: stderr.bytes().toString('utf8') };
}
