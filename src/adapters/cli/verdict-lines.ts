/**
 * The verdicts of the main command, as `--report` writes them and `--fail-on-refusal` reads
 * them: each change and refusal made into its JSON line as it comes and held as UTF-8 bytes until
 * the whole text has been read (nothing is written before the result is known), so a report of
 * millions of lines costs its bytes, not an object per verdict.
 */
import type { Writable } from 'node:stream';
import { stringifyArgs, type Change, type Refusal } from '../../index.js';
import type { VerdictSink } from '../../coerce/text-verdicts.js';

/** Characters of lines gathered before they are held as one chunk of bytes. */
const CHUNK_CHARS = 1 << 16;

/**
 * A `--report` holder: the lines, when they are asked for (the changes, then the refusals, as
 * `prepareToolCall` lists them), how many refusals, and the first.
 */
export class VerdictLines implements VerdictSink {
  /** How many values were refused. */
  refused = 0;
  /** The first refusal, which `--fail-on-refusal` names. */
  first: Refusal | undefined;
  private readonly changes: Lines | null;
  private readonly refusals: Lines | null;

  /** @param keep - Whether the lines are kept for `--report` (else only the refusals are counted). */
  constructor(keep: boolean) {
    this.changes = keep ? new Lines() : null;
    this.refusals = keep ? new Lines() : null;
  }

  change(change: Change): void {
    this.changes?.hold(JSON.stringify({ type: 'change', ...change }));
  }

  refusal(refusal: Refusal): void {
    this.refused++;
    this.first ??= refusal;
    this.refusals?.hold(refusalLine(refusal));
  }

  /** Writes every line held to `stream`, each followed by a line break: the changes, then the refusals. */
  writeTo(stream: Writable): void {
    for (const chunk of [...this.changes?.done() ?? [], ...this.refusals?.done() ?? []]) stream.write(chunk);
  }
}

/** Lines held as chunks of UTF-8 bytes, each chunk of many lines. */
class Lines {
  private readonly chunks: Buffer[] = [];
  private lines: string[] = [];
  private size = 0;

  hold(line: string): void {
    this.lines.push(line);
    this.size += line.length + 1;
    if (this.size >= CHUNK_CHARS) this.flush();
  }

  /** The chunks, every line in one of them. */
  done(): readonly Buffer[] {
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    if (this.lines.length > 0) this.chunks.push(Buffer.from(this.lines.join('\n') + '\n'));
    this.lines = [];
    this.size = 0;
  }
}

/** A refusal as a `--report` line: its value written as JSON text. */
function refusalLine({ value, ...refusal }: Refusal): string {
  return JSON.stringify({ type: 'refusal', ...refusal, value: stringifyArgs(value) });
}
