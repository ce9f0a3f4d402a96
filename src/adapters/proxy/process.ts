/**
 * `schema-coerce proxy`: sits between any MCP client on stdio and a server (a child process on
 * stdio, or a Streamable HTTP endpoint) and repairs every tool call against the server's own
 * schemas. Every message it does not need to change is forwarded byte for byte; in a `tools/call`
 * only the bytes of `params.arguments` are rewritten, through the text path.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { LineReader } from './framing.js';
import { batch, Outlet } from './outlet.js';
import { ProxySession, type ProxyOptions } from './session.js';
import type { Connect } from './upstream.js';

/** The streams the proxy joins; the process's own by default. */
export interface ProxyIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/** A server line longer than this (a large tool result) is streamed to the client unless the proxy must read it. */
const STREAM_PAST = 1 << 15;
/**
 * A client line longer than this is read as latin1 text piece by piece (the chunks it came in are
 * not held); shorter ones are read, and forwarded, as the bytes they came in.
 */
const READ_AS_TEXT_PAST = 1 << 16;
/** The signals the proxy passes on to the server. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Proxies between `io` (the client) and the server `connect` reaches, until the server is done.
 *
 * @returns The upstream's exit status (for a child process: its code, or 128 + the signal's number).
 */
export async function runProxy(connect: Connect, options: ProxyOptions, io: ProxyIo = process): Promise<number> {
  const log = options.log === undefined ? undefined : createWriteStream(options.log, { flags: 'a' });
  log?.on('error', () => undefined);
  const stderr = new Outlet(io.stderr, { pause: () => undefined, resume: () => undefined });
  const client = { pause: () => io.stdin.pause(), resume: () => io.stdin.resume() };
  let toClient: Outlet | undefined;
  const session = new ProxySession(options, {
    toServer: (pieces) => upstream.send(pieces),
    toClient: (piece) => toClient!.write(piece),
    report: (entry) => {
      const line = JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n';
      log?.write(line);
      // As UTF-8 bytes: the outlet writes a string as latin1, one byte per character.
      if (options.verbose === true) stderr.write(Buffer.from(`schema-coerce proxy: ${line}`, 'utf8'));
    },
  });
  const fromServer = new LineReader(
    {
      line: (line, terminated) => session.fromServer(line, terminated),
      through: (bytes) => toClient!.write(bytes),
      passes: (chunk) => session.serverPasses(chunk),
      streams: (head) => session.serverStreams(head),
    },
    STREAM_PAST,
  );
  const upstream = connect({
    reader: fromServer,
    session,
    client,
    warn: (text) => stderr.write(`schema-coerce proxy: ${text}\n`),
  });
  toClient = new Outlet(io.stdout, upstream.source);

  const fromClient = new LineReader(
    {
      line: (line, terminated, image) => session.fromClient(line, terminated, image),
      images: true,
      through: (bytes) => upstream.send([bytes]),
      passes: (chunk) => upstream.takesStream && session.clientPasses(chunk),
      streams: () => false,
    },
    READ_AS_TEXT_PAST,
  );
  const onData = (chunk: Buffer): void => batch(() => fromClient.push(chunk));
  const onEnd = (): void => {
    fromClient.end();
    session.whenIdle(() => upstream.end());
  };
  io.stdin.on('data', onData);
  io.stdin.on('end', onEnd);

  const forwards = FORWARDED.map((signal) => [signal, () => upstream.signal(signal)] as const);
  for (const [signal, forward] of forwards) process.on(signal, forward);
  const status = await upstream.done;
  for (const [signal, forward] of forwards) process.off(signal, forward);
  session.stop();
  io.stdin.off('data', onData);
  io.stdin.off('end', onEnd);
  io.stdin.pause();
  if (log !== undefined) await closing(log);
  return status;
}

/** Ends `log` and resolves once its file is closed (at once when it could not be opened and is closed already). */
function closing(log: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (log.closed) resolve();
    else log.end().once('close', () => resolve());
  });
}
