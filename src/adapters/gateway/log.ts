/**
 * What the gateway says: warnings on stderr, and the proxy's report lines (changes, refusals,
 * rejections) in the `--log` file and, with `--verbose`, on stderr. No line carries a header
 * value, a session id or a stack trace.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Wiring } from '../proxy/session.js';

/** The gateway's log. */
export class GatewayLog {
  private readonly file: WriteStream | undefined;
  private readonly stderr: Writable;
  private readonly verbose: boolean;

  /**
   * @param stderr - Where warnings (and, with `verbose`, reports) go.
   * @param file - A file to append report lines to.
   */
  constructor(stderr: Writable, file: string | undefined, verbose: boolean) {
    this.stderr = stderr;
    this.verbose = verbose;
    this.file = file === undefined ? undefined : createWriteStream(file, { flags: 'a' });
    this.file?.on('error', () => undefined);
  }

  /** One line on stderr. */
  warn(text: string): void {
    this.stderr.write(`schema-coerce gateway: ${text}\n`);
  }

  /** One report line: a change, a refusal or a rejection. */
  report(entry: Parameters<Wiring['report']>[0]): void {
    const line = JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n';
    this.file?.write(line);
    if (this.verbose) this.stderr.write(`schema-coerce gateway: ${line}`);
  }

  /** Waits for the report file to be written. */
  async close(): Promise<void> {
    const file = this.file;
    if (file !== undefined) await new Promise<void>((resolve) => file.end(resolve));
  }
}
