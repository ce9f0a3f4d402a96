/**
 * The proxy's writing end toward one peer: writes in order, gathers what one turn of the event
 * loop writes into one write (one system call, through the stream's plain path rather than a
 * corked `writev`), pauses the source once the stream says it is full and resumes it on `drain`
 * (one listener, never one per blocked write), writes long text in slices so a large message is
 * never copied whole into the stream's buffer, and treats a peer that has gone away (`EPIPE`) as
 * gone: what is still to be written is dropped, quietly.
 *
 * What is gathered is handed to the stream at once, like `pipe` does, even past the stream's
 * high-water mark: the source is paused then, so what can still arrive is what it had already
 * read. Holding pieces back instead would split one chunk's worth into many system calls, each
 * after a `drain`.
 *
 * Pieces are joined into a buffer the outlet keeps and joins into again once a socket has written
 * it (the system call copied it): a fresh buffer for every chunk cost the proxy about 5% of its
 * time, in allocation, in first writes to new memory and in collection.
 */
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { SplicedLine } from './splice.js';

/** Bytes to write: a `Buffer`, a latin1 string (one character per byte), or a repaired line. */
export type Piece = Buffer | string | SplicedLine;

/** What an outlet tells the side it reads from. */
export interface Source {
  pause(): void;
  resume(): void;
}

/** Text is written this many characters at a time. */
const SLICE = 1 << 20;
/** Pieces gathered in one turn are joined into one buffer up to this many bytes in all. */
const JOIN_UP_TO = 1 << 18;
/** The least size of the buffer an outlet joins into (a pipe reads this much at a time). */
const JOIN_BUFFER = 1 << 16;

/** The outlets written to during the batch that runs, sent when it ends; null while none runs. */
let held: Outlet[] | null = null;

/**
 * Runs `work`, the handling of one chunk read: what it writes to any outlet is gathered and sent
 * as soon as it returns, rather than at the end of the turn (one pass through the tick queue less
 * per chunk). Writes outside a batch, from a timer, are sent at the end of the turn.
 */
export function batch(work: () => void): void {
  if (held !== null) {
    work();
    return;
  }
  held = [];
  try {
    work();
  } finally {
    const outlets = held;
    held = null;
    for (const outlet of outlets) outlet.sendGathered();
  }
}

/** An ordered, backpressure-aware writer to one peer. */
export class Outlet {
  /** What this turn of the event loop has written so far, sent together at its end. */
  private gathered: Piece[] = [];
  private gatheredSize = 0;
  /**
   * The buffer pieces are joined into when the stream is done with it; null while the stream holds
   * it (a write that did not complete at once), and always for a stream that is not a socket,
   * which may keep what it is given.
   */
  private spare: Buffer | null = null;
  private readonly reuses: boolean;
  private scheduled = false;
  /** A batch that runs holds this outlet, to send what it gathered when it returns. */
  private held = false;
  /** Long text still to be written in slices, and what was written after it. */
  private readonly queue: Piece[] = [];
  private blocked = false;
  private gone = false;
  private ending = false;
  private readonly stream: Writable;
  private readonly source: Source;

  /**
   * @param stream - The peer's end.
   * @param source - Paused while the peer is not taking bytes, resumed when it drains.
   */
  constructor(stream: Writable, source: Source) {
    this.stream = stream;
    this.source = source;
    this.reuses = stream instanceof Socket;
    stream.on('error', () => this.lose());
  }

  /** Writes `piece` after everything written before. */
  write(piece: Piece): void {
    if (this.gone) return;
    if (this.queue.length > 0 || (typeof piece === 'string' && piece.length > SLICE)) {
      this.send();
      this.queue.push(piece);
      if (!this.blocked) this.flush();
      return;
    }
    this.gathered.push(piece);
    this.gatheredSize += piece.length;
    if (held !== null) {
      if (!this.held) {
        this.held = true;
        held.push(this);
      }
    } else if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.send);
    }
  }

  /** Ends the stream once everything is written. */
  end(): void {
    this.send();
    this.ending = true;
    if (!this.blocked) this.flush();
  }

  /** Sends what the batch gathered, and what this turn wrote before it (see `batch`). */
  sendGathered(): void {
    this.held = false;
    this.send();
  }

  /** Sends what this turn gathered: one piece as it is, several joined, or corked when they are large. */
  private readonly send = (): void => {
    this.scheduled = false;
    const pieces = this.gathered;
    if (pieces.length === 0 || this.gone) return;
    this.gathered = [];
    const size = this.gatheredSize;
    this.gatheredSize = 0;
    if (pieces.length === 1) {
      this.put(pieces[0]!);
    } else if (size <= JOIN_UP_TO) {
      this.putJoined(pieces, size);
    } else {
      this.stream.cork();
      for (const piece of pieces) this.put(piece);
      this.stream.uncork();
    }
  };

  /** Joins `pieces`, `size` bytes in all, into one buffer and hands it to the stream. */
  private putJoined(pieces: readonly Piece[], size: number): void {
    let buffer = this.spare;
    this.spare = null;
    if (buffer === null || buffer.length < size) buffer = Buffer.allocUnsafeSlow(Math.max(size, JOIN_BUFFER));
    join(pieces, buffer);
    this.put(buffer.subarray(0, size));
    // A socket whose write completed at once has copied the bytes: nothing of it is pending.
    if (this.reuses && this.stream.writableLength === 0) this.spare = buffer;
  }

  /** Hands one piece to the stream; a full stream blocks the queue and pauses the source. */
  private put(piece: Piece): void {
    const flowing = typeof piece === 'string' ? this.stream.write(piece, 'latin1') : piece instanceof SplicedLine && piece.length > JOIN_UP_TO ? this.putParts(piece.parts()) : this.stream.write(bytesOf(piece));
    if (!flowing && !this.gone && !this.blocked) {
      this.blocked = true;
      this.source.pause();
      this.stream.once('drain', this.drained);
    }
  }

  /** Hands a long repaired line to the stream in parts, corked (not copied whole when it has few edits); whether the stream takes more. */
  private putParts(parts: readonly Buffer[]): boolean {
    let flowing = true;
    this.stream.cork();
    for (const part of parts) if (part.length > 0) flowing = this.stream.write(part);
    this.stream.uncork();
    return flowing;
  }

  private flush(): void {
    // Corked only when there is something to write: corking a stream that has never been corked
    // changes a field Node's own optimized stream code had taken as constant, and V8 throws that
    // code away (seen after a drain, when the queue is usually empty).
    const corked = this.queue.length > 0;
    if (corked) this.stream.cork();
    while (this.queue.length > 0 && !this.blocked && !this.gone) {
      let piece = this.queue[0]!;
      if (typeof piece === 'string' && piece.length > SLICE) {
        this.queue[0] = piece.slice(SLICE);
        piece = piece.slice(0, SLICE);
      } else {
        this.queue.shift();
      }
      this.put(piece);
    }
    if (corked) this.stream.uncork();
    // Neither blocked nor gone, the loop has written the whole queue.
    if (this.ending && !this.blocked && !this.gone) this.stream.end();
  }

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
    this.gathered = [];
    this.gatheredSize = 0;
    this.stream.off('drain', this.drained);
    if (this.blocked) {
      this.blocked = false;
      this.source.resume();
    }
  }
}

/**
 * Copies `pieces` into `joined` from its start, which has room for them (text as latin1, one byte
 * per character). A run of text pieces is concatenated first (a rope, no copy) and written in one
 * call: per piece, the call costs more than the bytes it copies. Pieces are written in order, so
 * what a spliced line writes past its own bytes is written over by the pieces after it.
 */
function join(pieces: readonly Piece[], joined: Buffer): void {
  let at = 0;
  let text = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      continue;
    }
    if (text !== '') {
      at += joined.write(text, at, 'latin1');
      text = '';
    }
    if (piece instanceof SplicedLine) piece.copyInto(joined, at);
    else joined.set(piece, at);
    at += piece.length;
  }
  if (text !== '') joined.write(text, at, 'latin1');
}

/** The bytes of a piece, in a buffer. */
export function bytesOf(piece: Piece): Buffer {
  if (typeof piece === 'string') return Buffer.from(piece, 'latin1');
  return piece instanceof SplicedLine ? piece.toBuffer() : piece;
}
