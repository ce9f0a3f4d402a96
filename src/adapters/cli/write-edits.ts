/**
 * Writes a text with the text path's edits applied, as UTF-8, in chunks of bytes: the output is
 * never made as one string. Every span the edits leave alone is copied from the text as it is;
 * only the white space around the value is left out, as `String.prototype.trim` would. The edits
 * come as a list (`writeEdited`), or one by one as the text path finds them (`EditWriter`), so
 * that none is kept: a text of 50 MB with 12 million rewritten literals would hold 150 MB of them.
 */
import type { Writable } from 'node:stream';
import { TextEdits, TextEditsBuilder } from '../../coerce/coerce.js';

/** Bytes per chunk handed to the stream. */
const CHUNK_BYTES = 1 << 20;
/** A span up to this many characters is copied character by character, not through a slice. */
const SHORT_SPAN = 32;

/**
 * Writes `text` with `edits` applied and white space trimmed at both ends, then a line break, to
 * `out`, honouring its back pressure: the edits of a text the text path handed on (a repeated key,
 * syntax repair), whose output the object model has made already. Resolves once the stream has
 * taken every byte.
 *
 * @throws The stream's error (a closed pipe: `EPIPE`), when writing fails.
 */
export async function writeEdited(out: Writable, text: string, edits: TextEdits): Promise<void> {
  const count = edits.length;
  if (count > 0 && (edits.start(0) <= skipJsonSpace(text) || edits.end(count - 1) >= trimmedEnd(text))) {
    // An edit at an end of the value (a whole text rewritten, a root scalar): what it writes
    // there may itself begin or end with white space.
    return new EditWriter(out, applied(text, edits).trim()).finish();
  }
  const writer = new EditWriter(out, text);
  for (let i = 0; i < count; i++) writer.push(edits.start(i), edits.end(i), edits.text(i));
  return writer.finish();
}

/**
 * The output made as the text path finds its edits (hand it to `coerceArgsJsonEdits` as the
 * builder): each span is put into chunks of bytes as it comes, and the chunks are held until
 * `finish` writes them, so nothing is written before the whole text is read (a text that is not
 * JSON is found so only at its end). `built` says whether the text path took the text to its end
 * (its `build()` was called); if not, what was pushed is void and the edits it returned are the
 * output (`writeEdited`).
 */
export class EditWriter extends TextEditsBuilder {
  /** The text path took the text to its end: every edit was pushed here. */
  built = false;
  private readonly text: string;
  private readonly chunks: Chunks;
  /** Where the output next copies the text from. */
  private copied: number;

  constructor(out: Writable, text: string) {
    super();
    this.text = text;
    this.chunks = new Chunks(out);
    this.copied = skipJsonSpace(text);
  }

  /** Puts the text up to `start` and then `replacement` into the held chunks. */
  override push(start: number, end: number, replacement: string): void {
    this.hold(this.text, this.copied, start);
    this.hold(replacement, 0, replacement.length);
    this.copied = end;
  }

  /** Marks the edits complete: they are in the chunks, so none comes back. */
  override build(): TextEdits {
    this.built = true;
    return TextEdits.NONE;
  }

  /**
   * Writes the held chunks, the rest of the text and a line break.
   *
   * @throws The stream's error (a closed pipe: `EPIPE`), when writing fails.
   */
  async finish(): Promise<void> {
    await this.chunks.drain();
    await this.chunks.copy(this.text, this.copied, trimmedEnd(this.text));
    await this.chunks.copy('\n', 0, 1);
    await this.chunks.finish();
  }

  private hold(text: string, start: number, end: number): void {
    for (let at = start; at < end; ) at = this.chunks.put(text, at, end);
  }
}

/** `text` with `edits` applied, as one string. */
function applied(text: string, edits: TextEdits): string {
  const pieces: string[] = [];
  let at = 0;
  for (let i = 0; i < edits.length; i++) {
    pieces.push(text.slice(at, edits.start(i)), edits.text(i));
    at = edits.end(i);
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

/** Output bytes gathered into chunks, and the chunks handed to a stream. */
class Chunks {
  private readonly out: Writable;
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private readonly ready: Buffer[] = [];
  /** The stream's first error (a later write fails only because the stream is destroyed). */
  private failure: Error | undefined;

  constructor(out: Writable) {
    this.out = out;
    // Listened to, an error event never throws: the first is kept, and `finish` rejects with it.
    out.on('error', (error: Error) => {
      this.failure ??= error;
    });
  }

  /**
   * Appends `text.slice(start, end)`, encoded as UTF-8, up to the end of the current chunk.
   *
   * @returns Where it stopped: `end`, or before it when a chunk filled.
   */
  put(text: string, start: number, end: number): number {
    if (end - start <= SHORT_SPAN && CHUNK_BYTES - this.used >= 3 * SHORT_SPAN) {
      // Short spans (a comma, a replaced literal) without a slice: ASCII byte by byte.
      for (; start < end; start++) {
        const code = text.charCodeAt(start);
        if (code >= 0x80) break;
        this.buffer[this.used++] = code;
      }
    }
    while (start < end) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit (4 per surrogate pair).
      if (CHUNK_BYTES - this.used < 3 * SHORT_SPAN) {
        this.next();
        return start;
      }
      let stop = Math.min(end, start + Math.floor((CHUNK_BYTES - this.used) / 3));
      // A surrogate pair is never split between two writes (each half would be written as U+FFFD).
      if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1))) stop--;
      this.used += this.buffer.write(text.slice(start, stop), this.used, 'utf8');
      start = stop;
    }
    return end;
  }

  /** Appends `text.slice(start, end)` whole, handing each chunk it fills to the stream. */
  async copy(text: string, start: number, end: number): Promise<void> {
    for (let at = this.put(text, start, end); at < end; at = this.put(text, at, end)) await this.drain();
    await this.drain();
  }

  /** Hands the waiting chunks to the stream, waiting while it asks to. */
  async drain(): Promise<void> {
    for (const chunk of this.ready.splice(0)) {
      if (!this.out.write(chunk)) await drained(this.out);
    }
  }

  /** Hands every byte to the stream and resolves once it has taken them (or rejects with its error). */
  async finish(): Promise<void> {
    this.next();
    await this.drain();
    await new Promise<void>((resolve, reject) => {
      this.out.write('', (error) => (error ? reject(this.failure ?? error) : resolve()));
    });
  }

  /** Ends the current chunk and starts a new one. */
  private next(): void {
    if (this.used === 0) return;
    this.ready.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }
}

/** Resolves on the stream's `drain`, rejects on its `error`. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => {
      out.off('drain', done);
      out.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    out.on('drain', done);
    out.on('error', done);
  });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The index of the first character of `text` that is not JSON white space. */
function skipJsonSpace(text: string): number {
  let at = 0;
  while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index after the last character of `text` that is not JSON white space. */
function trimmedEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isJsonSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
