/**
 * Newline-delimited framing: splits a byte stream into lines, the newline excluded. A line is
 * handed over as its bytes: a slice of the chunk it came in (no copy), or, once it has grown past
 * a limit and must be read whole, a buffer its chunks are copied into as they come (so they are not
 * held, however small they are). Runs of whole lines the sink does not need to read go through as
 * the chunk's own bytes, and a line past the limit can be streamed through in pieces, so a peer's
 * unterminated output is never held without bound.
 */

const NEWLINE = 0x0a;
/**
 * What remains of a chunk after the lines that went through is decoded together for the images of
 * its lines up to this many bytes (a pipe delivers at most 64 KB at a time); past it, its lines
 * are handed over without images.
 */
const IMAGED_UP_TO = 1 << 20;
/** A line read whole is copied into blocks of this many bytes (what a pipe delivers at most at a time). */
const BLOCK = 1 << 16;
/** The end of the stream, completing a last line with no bytes. */
const NOTHING = Buffer.alloc(0);

/** A line: its bytes. */
export type Line = Buffer;

/** Where the reader hands lines, and the bytes that go through unread. */
export interface LineSink {
  /**
   * A whole line; `terminated` is false for a last line the stream ended without a newline.
   * `image` is the latin1 image of a line that came whole in one chunk, when the sink asks for
   * images (a slice of the chunk's image, decoded once for all its lines).
   */
  line(line: Line, terminated: boolean, image?: string): void;
  /** Lines that come whole in a chunk (of up to 1 MB) are handed over with their latin1 images. */
  readonly images?: boolean;
  /** Bytes that go through as they came: whole lines with their newlines, or pieces of a streamed line. */
  through(bytes: Buffer): void;
  /** Whether whole lines at the start of `bytes` may go through unread (asked only between lines). */
  passes(bytes: Buffer): boolean;
  /**
   * Asked once a line grows past the limit, with what has arrived of it: `true` streams the rest
   * of the line through, `false` reads it whole.
   */
  streams(head: Buffer): boolean;
}

/** Splits a byte stream into lines. */
export class LineReader {
  /** The start of the line being read, while it is within the limit. */
  private pending: Buffer[] = [];
  /**
   * The line being read, once `sink.streams` said no (it is read whole): its bytes so far, copied
   * into blocks (of `BLOCK` bytes, but the first); the last one is filled up to `filled`.
   */
  private blocks: Buffer[] | null = null;
  private filled = 0;
  private pendingSize = 0;
  /** The line being read goes through in pieces, up to its newline. */
  private streaming = false;
  private readonly sink: LineSink;
  private readonly limit: number;

  /**
   * @param sink - Where lines go.
   * @param limit - The length past which `sink.streams` is asked whether to stream the line.
   */
  constructor(sink: LineSink, limit: number = Infinity) {
    this.sink = sink;
    this.limit = limit;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    let from = 0;
    if (this.streaming || this.pendingSize > 0) {
      const at = chunk.indexOf(NEWLINE);
      if (at === -1) {
        this.continueLine(chunk);
        return;
      }
      if (this.streaming) {
        this.streaming = false;
        this.sink.through(chunk.subarray(0, at + 1));
      } else {
        this.sink.line(this.take(chunk, at), true);
      }
      from = at + 1;
    }
    if (from < chunk.length && this.sink.passes(from === 0 ? chunk : chunk.subarray(from))) {
      // A chunk of whole lines (the usual case) goes through as it came.
      const last = chunk[chunk.length - 1] === NEWLINE ? chunk.length - 1 : chunk.lastIndexOf(NEWLINE);
      if (last >= from) {
        this.sink.through(from === 0 && last === chunk.length - 1 ? chunk : chunk.subarray(from, last + 1));
        from = last + 1;
      }
    }
    if (from === chunk.length) return;
    if (this.sink.images === true && chunk.length - from <= IMAGED_UP_TO) {
      from = this.imagedLines(chunk, from);
    } else {
      for (let at = chunk.indexOf(NEWLINE, from); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
        this.sink.line(chunk.subarray(from, at), true);
        from = at + 1;
      }
    }
    if (from < chunk.length) this.grow(chunk, from);
  }

  /**
   * Hands over the whole lines of `chunk` from `from` on, each with its image: the chunk is decoded
   * once (one call into Node instead of one per line, and no search of the bytes per line), and
   * each line's image is a slice of that text. Returns where the unterminated rest starts.
   */
  private imagedLines(chunk: Buffer, from: number): number {
    const text = chunk.toString('latin1', from);
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      this.sink.line(chunk.subarray(from + start, from + at), true, text.slice(start, at));
      start = at + 1;
    }
    return from + start;
  }

  /** The stream ended: a last line without a newline is handed over as it is. */
  end(): void {
    if (this.pendingSize === 0 || this.streaming) return;
    this.sink.line(this.take(NOTHING, 0), false);
  }

  /** The line being read, completed by `chunk` up to `to`; the reader is ready for the next. */
  private take(chunk: Buffer, to: number): Line {
    const blocks = this.blocks;
    const pending = this.pending;
    const size = this.pendingSize + to;
    this.blocks = null;
    this.pending = [];
    this.pendingSize = 0;
    if (blocks !== null) {
      this.append(blocks, chunk, 0, to);
      // The blocks are let go once joined: the line keeps no more than its own bytes.
      return blocks.length === 1 ? blocks[0]!.subarray(0, size) : Buffer.concat(blocks, size);
    }
    if (to > 0) pending.push(chunk.subarray(0, to));
    return pending.length === 1 ? pending[0]! : Buffer.concat(pending);
  }

  /** Takes `chunk`, which holds no newline, as the next piece of the line being read. */
  private continueLine(chunk: Buffer): void {
    if (this.streaming) {
      this.sink.through(chunk);
    } else if (this.blocks !== null) {
      this.append(this.blocks, chunk, 0, chunk.length);
      this.pendingSize += chunk.length;
    } else {
      this.grow(chunk, 0);
    }
  }

  /**
   * Keeps `chunk` from `from` on as the start (or the next piece) of a line within the limit; past
   * it, the sink is asked whether to stream the line or read it whole.
   */
  private grow(chunk: Buffer, from: number): void {
    this.pendingSize += chunk.length - from;
    this.pending.push(chunk.subarray(from));
    if (this.pendingSize <= this.limit) return;
    const head = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    if (this.sink.streams(head)) {
      this.pendingSize = 0;
      this.streaming = true;
      this.sink.through(head);
    } else {
      // A copy: the head may be a slice of a chunk that held other lines.
      this.blocks = [Buffer.from(head)];
      this.filled = head.length;
    }
  }

  /** Copies `chunk[from..to]` after the bytes in `blocks`, into a new block for what the last has no room for. */
  private append(blocks: Buffer[], chunk: Buffer, from: number, to: number): void {
    let last = blocks[blocks.length - 1]!;
    while (from < to) {
      if (this.filled === last.length) {
        last = Buffer.allocUnsafeSlow(Math.max(to - from, BLOCK));
        blocks.push(last);
        this.filled = 0;
      }
      const copied = chunk.copy(last, this.filled, from, to);
      this.filled += copied;
      from += copied;
    }
  }
}
