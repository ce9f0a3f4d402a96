/**
 * The bytes of a repaired call: the line as it came, with the spans the repair rewrote in its
 * arguments replaced by their UTF-8. Every other byte is the line's own, whatever its encoding,
 * invalid UTF-8 included: the edits of arguments that are not ASCII are moved to byte offsets.
 */
import type { TextEdits } from '../../coerce/coerce.js';
import { isAscii, isShortAscii } from './ascii.js';

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
/** Past this many edits, a line is written as one buffer rather than as parts (see `parts`). */
const PARTS_UP_TO = 64;
const ASCII_END = 0x80;
/** An edit's text up to this long is measured and written character by character when it is ASCII. */
const SHORT = 32;

/**
 * A line (its bytes) with edits applied, their offsets counted from `offset` (where the
 * arguments start), and a newline after it when it had one. Nothing is copied until the outlet
 * writes it: straight into the buffer that joins what one chunk's handling wrote.
 */
export class SplicedLine {
  /** How many bytes it writes. */
  readonly length: number;
  private readonly line: Buffer;
  private readonly offset: number;
  private readonly edits: TextEdits;
  private readonly terminated: boolean;
  /** No edit's text is longer, in bytes, than the span it replaces. */
  private readonly shrinks: boolean;
  /** Every replacement is ASCII: each character one byte, written from the joined text. */
  private readonly ascii: boolean;

  constructor(line: Buffer, offset: number, edits: TextEdits, terminated: boolean) {
    this.line = line;
    this.offset = offset;
    this.edits = edits;
    this.terminated = terminated;
    const ascii = edits.texts.length <= SHORT ? isShortAscii(edits.texts) : isAscii(edits.texts);
    let length = terminated ? line.length + 1 : line.length;
    let shrinks = true;
    for (let i = 0; i < edits.length; i++) {
      const bytes = ascii ? edits.textEnd(i) - edits.textStart(i) : Buffer.byteLength(edits.text(i));
      const change = bytes - (edits.end(i) - edits.start(i));
      if (change > 0) shrinks = false;
      length += change;
    }
    this.length = length;
    this.shrinks = shrinks;
    this.ascii = ascii;
  }

  /**
   * Writes the bytes into `target` from `at` on: `length` of them. Where the target has room, the
   * bytes after them, up to `at` + the line's length, may be written too (with the line's tail):
   * the caller writes what follows afterwards, as `join` does, or owns those bytes.
   */
  copyInto(target: Buffer, at: number): void {
    const { line, offset, edits } = this;
    const count = edits.length;
    if (this.shrinks && at + line.length <= target.length) {
      // The whole line in one copy (no view to make), then each edit's text over its span and what
      // follows it moved back: every move goes left, each byte moves once.
      target.set(line, at);
      let shift = 0;
      for (let i = 0; i < count; i++) {
        const editEnd = edits.end(i);
        const end = this.writeText(i, target, at + offset + edits.start(i) - shift);
        shift = at + offset + editEnd - end;
        const next = i + 1 < count ? offset + edits.start(i + 1) : line.length;
        target.copyWithin(end, at + offset + editEnd, at + next);
      }
      if (this.terminated) target[at + line.length - shift] = NEWLINE;
      return;
    }
    let from = 0;
    for (let i = 0; i < count; i++) {
      at = copyRange(line, from, offset + edits.start(i), target, at);
      at = this.writeText(i, target, at);
      from = offset + edits.end(i);
    }
    at = copyRange(line, from, line.length, target, at);
    if (this.terminated) target[at] = NEWLINE;
  }

  /** The bytes, in a buffer of their own. */
  toBuffer(): Buffer {
    const bytes = Buffer.allocUnsafe(this.length);
    this.copyInto(bytes, 0);
    return bytes;
  }

  /**
   * The bytes as buffers to write in order: with few edits, the line's spans between them (views,
   * no copy) and each edit's text; with more, one buffer of their own, since each part costs the
   * stream an object (231,000 respellings of a 3 MB call written as parts held 150 MB).
   */
  parts(): Buffer[] {
    const { line, offset, edits } = this;
    if (edits.length > PARTS_UP_TO) return [this.toBuffer()];
    const parts: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < edits.length; i++) {
      parts.push(line.subarray(from, offset + edits.start(i)), Buffer.from(edits.text(i), 'utf8'));
      from = offset + edits.end(i);
    }
    parts.push(line.subarray(from));
    if (this.terminated) parts.push(NEWLINE_BYTES);
    return parts;
  }

  /** Writes edit `i`'s text as UTF-8 into `target` at `at`; where it ends. */
  private writeText(i: number, target: Buffer, at: number): number {
    const { edits } = this;
    if (!this.ascii) return at + target.write(edits.text(i), at);
    const from = edits.textStart(i);
    const to = edits.textEnd(i);
    if (to - from > SHORT) return at + target.write(edits.text(i), at, 'latin1');
    const texts = edits.texts;
    for (let j = from; j < to; j++) target[at++] = texts.charCodeAt(j);
    return at;
  }
}

/**
 * `edits` of `text`, the UTF-8 decoding of the latin1 image `image`, moved to byte offsets of
 * `image`; `undefined` when an edit does not start at an ASCII character or end before one (or at
 * the end). Every ASCII character of `text` is an ASCII byte of `image`, in order, and every
 * other byte is not ASCII: the decoder never takes an ASCII byte into a character of several
 * bytes or into a replacement character, so the bytes between edits are the image's own.
 */
export function byteEdits(text: string, image: string, edits: TextEdits): TextEdits | undefined {
  let char = 0;
  let byte = 0;
  // The edits' offsets come in order, each start then its end: one walk over both texts.
  return edits.moved((to) => {
    for (; char < to; char++) {
      if (text.charCodeAt(char) >= ASCII_END) continue;
      while (image.charCodeAt(byte) >= ASCII_END) byte++;
      byte++;
    }
    while (byte < image.length && image.charCodeAt(byte) >= ASCII_END) byte++;
    return to === text.length || text.charCodeAt(to) < ASCII_END ? byte : -1;
  });
}

/** Copies `source[from..to]` to `target` at `at` (through a plain view: no Buffer is made); where it ends. */
function copyRange(source: Buffer, from: number, to: number, target: Buffer, at: number): number {
  target.set(new Uint8Array(source.buffer, source.byteOffset + from, to - from), at);
  return at + to - from;
}
