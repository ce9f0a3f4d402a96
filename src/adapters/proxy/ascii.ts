/**
 * Whether bytes, or a line's latin1 image, are ASCII: what decides whether the proxy may read a
 * line's bytes as its text (every ASCII byte is its own character, in UTF-8 and latin1 alike).
 */
import buffer from 'node:buffer';

/** `isAscii` of `node:buffer` (SIMD), where Node has it (18.15 and later). */
const asciiBuffer = (buffer as { isAscii?: (bytes: Buffer) => boolean }).isAscii;

/** Whether `bytes` are all ASCII; false too where Node cannot tell quickly (before 18.15). */
export function isAsciiBytes(bytes: Buffer): boolean {
  return asciiBuffer !== undefined && asciiBuffer(bytes);
}

/**
 * Whether `bytes` from `start` to `end` are all printable ASCII or DEL (0x20 to 0x7f: no control
 * character, no JSON white space but the space, nothing past ASCII). Read four bytes at a time,
 * each word tested for a byte outside that range at once, four words to a test: about as fast as
 * `isAsciiBytes` (SIMD) and this loop's own first version together were for the ASCII test alone.
 */
export function isPlainAsciiBytes(bytes: Buffer, start: number, end: number): boolean {
  let at = start;
  const offset = bytes.byteOffset;
  while (at < end && ((offset + at) & 3) !== 0) if (!isPlainAsciiByte(bytes[at++]!)) return false;
  const words = (end - at) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, offset + at, words);
    let word = 0;
    for (; word + 4 <= words; word += 4) {
      if ((outsidePlain(view[word]!) | outsidePlain(view[word + 1]!) | outsidePlain(view[word + 2]!) | outsidePlain(view[word + 3]!)) !== 0) return false;
    }
    for (; word < words; word++) if (outsidePlain(view[word]!) !== 0) return false;
    at += words << 2;
  }
  while (at < end) if (!isPlainAsciiByte(bytes[at++]!)) return false;
  return true;
}

const isPlainAsciiByte = (byte: number): boolean => byte >= 0x20 && byte < 0x80;

/**
 * Nonzero exactly when some byte of the word `x` is below 0x20 or at 0x80 and above: `x` has the
 * high bit of such a byte, and subtracting 0x20 from every byte sets the high bit of the lowest
 * byte below 0x20 (the bytes under it, all in range, borrow nothing).
 */
const outsidePlain = (x: number): number => ((x - 0x20202020) | x) & 0x80808080;

/** Whether every character of `text` is ASCII, checked one by one (for short text: no call into Node). */
export function isShortAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Whether the latin1 image holds only ASCII, so it reads the same as UTF-8. */
export function isAscii(latin1: string): boolean {
  return Buffer.byteLength(latin1, 'utf8') === latin1.length;
}
