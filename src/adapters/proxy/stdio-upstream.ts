/** A server run as a child process, speaking newline-delimited JSON-RPC on its stdio. */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { batch, Outlet } from './outlet.js';
import type { Connect } from './upstream.js';

/** Status 127, as a shell gives, when the server command cannot be started. */
const CANNOT_START = 127;

/**
 * Connects to the server `command` (file and arguments), started with the proxy's stderr.
 *
 * @returns A connector; the upstream's status is the server's exit code, 128 + the signal's
 *   number when a signal ended it (the platform's numbers), or 127 when it could not be started.
 */
export function stdioUpstream(command: readonly string[]): Connect {
  return (side) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const toServer = new Outlet(child.stdin, side.client);
    let started = false;
    child.on('spawn', () => {
      started = true;
    });
    child.stdout.on('data', (chunk: Buffer) => batch(() => side.reader.push(chunk)));
    child.stdout.on('end', () => side.reader.end());
    const done = new Promise<number>((resolve) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (started) return;
        side.warn(`cannot start ${JSON.stringify(file)}: ${error.code ?? error.message}`);
        resolve(CANNOT_START);
      });
      // Node gives a code or, when a signal ended the child, the signal's name from this very table.
      child.on('close', (code, signal) => resolve(code ?? 128 + constants.signals[signal!]));
    });
    return {
      send: (pieces) => {
        for (const piece of pieces) toServer.write(piece);
      },
      end: () => toServer.end(),
      takesStream: true,
      signal: (signal) => {
        child.kill(signal);
      },
      source: { pause: () => child.stdout.pause(), resume: () => child.stdout.resume() },
      done,
    };
  };
}
