/**
 * The proxy's writing end toward one peer: writes in order, gathers what one turn of the event
 * loop writes into one system call (cork until the next tick), waits for `drain` once (never one
 * listener per blocked write) while it pauses the source, writes long text in slices so a large
 * message is never copied whole into the stream's buffer, and treats a peer that has gone away
 * (`EPIPE`) as gone: what is still to be written is dropped, quietly.
 */
import type { Writable } from 'node:stream';

/** Bytes to write: a `Buffer`, or a latin1 string (one character per byte). */
export type Piece = Buffer | string;

/** What an outlet tells the side it reads from. */
export interface Source {
  pause(): void;
  resume(): void;
}

/** Text is written this many characters at a time. */
const SLICE = 1 << 20;

/** An ordered, backpressure-aware writer to one peer. */
export class Outlet {
  private readonly queue: Piece[] = [];
  private blocked = false;
  private gone = false;
  private ending = false;
  private corked = false;
  private readonly stream: Writable;
  private readonly source: Source;

  /**
   * @param stream - The peer's end.
   * @param source - Paused while the peer is not taking bytes, resumed when it drains.
   */
  constructor(stream: Writable, source: Source) {
    this.stream = stream;
    this.source = source;
    stream.on('error', () => this.lose());
  }

  /** Whether the peer has gone away. */
  get closed(): boolean {
    return this.gone;
  }

  /** Writes `piece` after everything written before. */
  write(piece: Piece): void {
    if (this.gone) return;
    if (!this.corked) {
      this.corked = true;
      this.stream.cork();
      process.nextTick(this.uncork);
    }
    this.queue.push(piece);
    if (!this.blocked) this.flush();
  }

  /** Ends the stream once everything is written. */
  end(): void {
    this.ending = true;
    if (!this.blocked) this.flush();
  }

  private flush(): void {
    this.stream.cork();
    while (this.queue.length > 0 && !this.blocked && !this.gone) {
      let piece = this.queue[0]!;
      if (typeof piece === 'string' && piece.length > SLICE) {
        this.queue[0] = piece.slice(SLICE);
        piece = piece.slice(0, SLICE);
      } else {
        this.queue.shift();
      }
      const flowing = typeof piece === 'string' ? this.stream.write(piece, 'latin1') : this.stream.write(piece);
      if (!flowing && !this.gone) {
        this.blocked = true;
        this.source.pause();
        this.stream.once('drain', this.drained);
      }
    }
    this.stream.uncork();
    if (this.queue.length === 0 && this.ending && !this.blocked && !this.gone) this.stream.end();
  }

  private readonly uncork = (): void => {
    this.corked = false;
    this.stream.uncork();
  };

  private readonly drained = (): void => {
    this.blocked = false;
    this.flush();
    if (!this.blocked) this.source.resume();
  };

  /** The peer is gone: drop what waits, and let the source flow (into nothing). */
  private lose(): void {
    if (this.gone) return;
    this.gone = true;
    this.queue.length = 0;
    this.stream.off('drain', this.drained);
    if (this.blocked) {
      this.blocked = false;
      this.source.resume();
    }
  }
}
