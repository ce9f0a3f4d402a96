/**
 * The audit log: one JSON line per call, from the call events. Argument values are left out
 * unless asked for (`--audit-values`): by default a line says which rules changed which paths and
 * why values were refused, never what the values were. No line carries a header value, a token or
 * a session id (a session is named by a digest).
 *
 * To a file, rotated by size (`audit.jsonl` becomes `audit.jsonl.1`, and so on up to the files
 * kept, the oldest dropped), or to stdout (`-`), never rotated.
 */
import { createWriteStream, openSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { CallEvent, CallSink } from './call-events.js';

/** How the audit log is written. */
export interface AuditOptions {
  /** The file (`-`: stdout). */
  readonly target: string;
  /** Bytes a file may reach before it is rotated. */
  readonly maxBytes: number;
  /** Rotated files kept besides the current one. */
  readonly keep: number;
}

/** The defaults: 64 MiB per file, 4 rotated files kept. */
export const AUDIT_DEFAULTS: Omit<AuditOptions, 'target'> = { maxBytes: 64 * 1024 * 1024, keep: 4 };

/** One audit line, as written: an event's fields, times in milliseconds. */
function auditLine(event: CallEvent): string {
  const { time, client, tool, outcome, changes, refusals, answer, gatewaySeconds, upstreamSeconds, bytes, traceId } = event;
  return JSON.stringify({
    time,
    client,
    tool,
    outcome,
    changes,
    refusals,
    ...(answer === undefined ? {} : { answer }),
    gatewayMs: milliseconds(gatewaySeconds),
    ...(upstreamSeconds === undefined ? {} : { upstreamMs: milliseconds(upstreamSeconds) }),
    bytes,
    ...(traceId === undefined ? {} : { traceId }),
    ...('arguments' in event ? { arguments: event.arguments } : {}),
  });
}

/** The audit log, a sink of call events. */
export class AuditLog implements CallSink {
  private readonly options: AuditOptions;
  private readonly stdout: Writable | undefined;
  private file: WriteStream | undefined;
  private size = 0;
  private readonly warn: (text: string) => void;
  private failed = false;

  /**
   * @param warn - Told once when the file cannot be written (the gateway goes on).
   * @param stdout - Where `-` writes.
   */
  constructor(options: AuditOptions, warn: (text: string) => void, stdout: Writable = process.stdout) {
    this.options = options;
    this.warn = warn;
    if (options.target === '-') this.stdout = stdout;
    else {
      try {
        this.size = statSync(options.target).size;
      } catch {
        this.size = 0;
      }
      this.file = this.open();
    }
  }

  call(event: CallEvent): void {
    const line = auditLine(event) + '\n';
    if (this.stdout !== undefined) {
      this.stdout.write(line);
      return;
    }
    const length = Buffer.byteLength(line);
    if (this.size > 0 && this.size + length > this.options.maxBytes) this.rotate();
    this.size += length;
    this.file?.write(line);
  }

  /** Waits for what was written to reach the file. */
  async close(): Promise<void> {
    const file = this.file;
    if (file !== undefined) await new Promise<void>((resolve) => file.end(resolve));
  }

  /**
   * The current file becomes `.1` (each older one shifts up, the last dropped) and a new one is
   * begun. The old stream writes on into the renamed file what it still holds, then ends.
   */
  private rotate(): void {
    const { target, keep } = this.options;
    try {
      rmSync(keep > 0 ? `${target}.${keep}` : target, { force: true });
      for (let n = keep - 1; n >= 0; n--) move(n === 0 ? target : `${target}.${n}`, `${target}.${n + 1}`);
    } catch (error) {
      this.fail(error);
    }
    this.file?.end();
    this.size = 0;
    this.file = this.open();
  }

  /** The file, opened now (not when the stream gets to it: a rotation renames what is open). */
  private open(): WriteStream | undefined {
    try {
      const file = createWriteStream('', { fd: openSync(this.options.target, 'a') });
      file.on('error', (error) => this.fail(error));
      return file;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.warn(`the audit log ${this.options.target} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Renames `from` to `to`; a missing `from` (fewer files than kept so far) is no error. */
function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function milliseconds(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}
