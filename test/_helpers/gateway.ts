/**
 * Runs the built `schema-coerce gateway` as a child process on 127.0.0.1 and a free port, and
 * reads its URL from the line it writes once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { BIN } from './run.js';

/** The strict Python stdio server (`test/peers/strict_server.py`). */
export const STRICT_SERVER: string = join(import.meta.dirname, '..', 'peers', 'strict_server.py');

/** A running gateway. */
export interface RunningGateway {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running: RunningGateway[] = [];

/** Starts `schema-coerce gateway --listen 127.0.0.1:0 …args`. */
export async function startGatewayProcess(args: readonly string[], env: Record<string, string> = {}): Promise<RunningGateway> {
  const child = spawn(process.execPath, [BIN, 'gateway', '--listen', '127.0.0.1:0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (\S+),/.exec(stderr);
      if (found !== null) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
  });
  const gateway: RunningGateway = {
    url,
    child,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.push(gateway);
  return gateway;
}

/** Stops every gateway the tests started (for `afterEach`). */
export async function stopGateways(): Promise<void> {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop('SIGKILL')));
}

/** A stderr for an in-process gateway that keeps what is written. */
export function captureStream(): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}
