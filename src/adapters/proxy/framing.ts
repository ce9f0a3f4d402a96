/**
 * Newline-delimited framing: splits a byte stream into lines, each handed over as one piece of
 * its own (a `Buffer`, or its latin1 image), the newline excluded. Whole lines the sink does not
 * need to read go through as the chunk's own bytes, and a line longer than a limit can be
 * streamed through in pieces, so a peer's unterminated output is never held without bound.
 */

const NEWLINE = 0x0a;

/** How a reader makes pieces: byte slices of a chunk, one piece from several, and back to bytes. */
export interface PieceKind<T> {
  slice(chunk: Buffer, from: number, to: number): T;
  join(pieces: readonly T[]): T;
  toBytes(piece: T): Buffer;
}

/** Lines as `Buffer`s: slices share the chunk's memory. */
export const BYTES: PieceKind<Buffer> = {
  slice: (chunk, from, to) => chunk.subarray(from, to),
  join: (pieces) => (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)),
  toBytes: (piece) => piece,
};

/** Lines as latin1 strings: one character per byte, so every byte survives and offsets are byte offsets. */
export const LATIN1: PieceKind<string> = {
  slice: (chunk, from, to) => chunk.toString('latin1', from, to),
  join: (pieces) => pieces.join(''),
  toBytes: (piece) => Buffer.from(piece, 'latin1'),
};

/** Where the reader hands lines, and the bytes that go through unread. */
export interface LineSink<T> {
  /** A whole line; `terminated` is false for a last line the stream ended without a newline. */
  line(line: T, terminated: boolean): void;
  /** Bytes that go through as they came: whole lines with their newlines, or pieces of a streamed line. */
  through(bytes: Buffer): void;
  /** Whether the whole lines of this chunk may go through unread (asked only between lines). */
  passes(chunk: Buffer): boolean;
  /**
   * Asked once a line grows past the limit, with what has arrived of it: `true` streams the rest
   * of the line through, `false` reads it whole.
   */
  streams(head: T): boolean;
}

/** Splits a byte stream into lines. */
export class LineReader<T> {
  private pending: T[] = [];
  private pendingSize = 0;
  /** The line being read goes through in pieces, up to its newline. */
  private streaming = false;
  /** `sink.streams` said no for the line being read: it is read whole. */
  private whole = false;
  private readonly kind: PieceKind<T>;
  private readonly sink: LineSink<T>;
  private readonly limit: number;

  /**
   * @param kind - How pieces are made (`BYTES` or `LATIN1`).
   * @param sink - Where lines go.
   * @param limit - The length past which `sink.streams` is asked whether to stream the line.
   */
  constructor(kind: PieceKind<T>, sink: LineSink<T>, limit: number = Infinity) {
    this.kind = kind;
    this.sink = sink;
    this.limit = limit;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    let from = 0;
    if (this.pending.length === 0 && !this.streaming && this.sink.passes(chunk)) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last !== -1) this.sink.through(chunk.subarray(0, last + 1));
      from = last + 1;
    }
    for (let at = chunk.indexOf(NEWLINE, from); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      if (this.streaming) {
        this.streaming = false;
        this.sink.through(chunk.subarray(from, at + 1));
      } else {
        const piece = this.kind.slice(chunk, from, at);
        const line = this.pending.length === 0 ? piece : this.kind.join([...this.pending, piece]);
        this.reset();
        this.sink.line(line, true);
      }
      from = at + 1;
    }
    if (from === chunk.length) return;
    if (this.streaming) {
      this.sink.through(chunk.subarray(from));
      return;
    }
    this.pending.push(this.kind.slice(chunk, from, chunk.length));
    this.pendingSize += chunk.length - from;
    if (this.pendingSize > this.limit && !this.whole) this.startStreaming();
  }

  /** The stream ended: a last line without a newline is handed over as it is. */
  end(): void {
    const pending = this.pending;
    this.reset();
    if (pending.length > 0) this.sink.line(this.kind.join(pending), false);
  }

  private reset(): void {
    this.pending = [];
    this.pendingSize = 0;
    this.whole = false;
  }

  private startStreaming(): void {
    const head = this.kind.join(this.pending);
    if (!this.sink.streams(head)) {
      this.pending = [head];
      this.whole = true;
      return;
    }
    this.reset();
    this.streaming = true;
    this.sink.through(this.kind.toBytes(head));
  }
}
