/**
 * The spans of a text a rewrite replaces, held without an object per edit: three integers each
 * in one `Int32Array` (where the span starts, where it ends, where its replacement ends in one
 * joined text), and the replacements as that one text. A 3 MB call with 231,000 respellings holds
 * 2.8 MB of edits this way, against 13 MB as one object each (and 5.5 MB in a plain array, whose
 * growth in the young generation took the proxy's peak from 8.5× the call to 15–17×).
 */

/** Integers per edit: start, end, and the end of its replacement in the joined text. */
const FIELDS = 3;
/** Replacements are joined this many at a time (then the joined pieces are joined at the end). */
const JOIN_EVERY = 512;
/**
 * Integers the span array starts with: five edits, 60 bytes, small enough for V8 to keep the array
 * in its heap (an array past 64 bytes has its memory allocated apart, which costs about as much
 * as the proxy's whole reading of a small call).
 */
const FIRST_CAPACITY = 5 * FIELDS;

/**
 * Edits of a text, in order and apart: edit `i` replaces the characters (or bytes, for the
 * proxy's byte edits) `start(i)..end(i)` with `text(i)`. Immutable.
 */
export class TextEdits {
  /** No edit. */
  static readonly NONE: TextEdits = new TextEdits(new Int32Array(0), 0, '');

  /** How many edits there are. */
  readonly length: number;
  /** Per edit: start, end, and where its replacement ends in `texts`. */
  private readonly spans: Int32Array;
  /** The replacements, joined in order. */
  readonly texts: string;

  /** The first `length` edits of `spans` (start, end, replacement end, per edit), of replacements `texts`. */
  constructor(spans: Int32Array, length: number, texts: string) {
    this.spans = spans;
    this.length = length;
    this.texts = texts;
  }

  /** One edit: `start..end` becomes `text`. */
  static one(start: number, end: number, text: string): TextEdits {
    return new TextEdits(Int32Array.of(start, end, text.length), 1, text);
  }

  start(i: number): number {
    return this.spans[i * FIELDS]!;
  }

  end(i: number): number {
    return this.spans[i * FIELDS + 1]!;
  }

  /** Where edit `i`'s replacement starts in `texts`. */
  textStart(i: number): number {
    return i === 0 ? 0 : this.spans[i * FIELDS - 1]!;
  }

  /** Where edit `i`'s replacement ends in `texts`. */
  textEnd(i: number): number {
    return this.spans[i * FIELDS + 2]!;
  }

  /** Edit `i`'s replacement. */
  text(i: number): string {
    return this.texts.slice(this.textStart(i), this.textEnd(i));
  }

  /** The same replacements over other spans: `move(offset)` gives each new start and end (-1: no such place, and `undefined` comes back). */
  moved(move: (offset: number) => number): TextEdits | undefined {
    const spans = this.spans.slice(0, this.length * FIELDS);
    for (let i = 0; i < spans.length; i += FIELDS) {
      const start = move(spans[i]!);
      const end = move(spans[i + 1]!);
      if (start === -1 || end === -1) return undefined;
      spans[i] = start;
      spans[i + 1] = end;
    }
    return new TextEdits(spans, this.length, this.texts);
  }
}

/**
 * `text` (the text `edits` are edits of) with every edit applied. A function apart from the class,
 * so a bundle that never applies edits (the browser core) leaves it out.
 */
export function applyTextEdits(text: string, edits: TextEdits): string {
  let out = '';
  let at = 0;
  for (let i = 0; i < edits.length; i++) {
    out += text.slice(at, edits.start(i)) + edits.text(i);
    at = edits.end(i);
  }
  return out + text.slice(at);
}

/** Collects edits in order, then hands them over as `TextEdits`. */
export class TextEditsBuilder {
  private spans = new Int32Array(FIRST_CAPACITY);
  private count = 0;
  private textLength = 0;
  /** Replacements not joined yet, and the pieces joined so far (null until there is one). */
  private pending: string[] | null = null;
  private joined: string[] | null = null;

  /** Records that `start..end` becomes `text` (after every edit before it). */
  push(start: number, end: number, text: string): void {
    const at = this.count * FIELDS;
    if (at === this.spans.length) {
      const grown = new Int32Array(this.spans.length * 2);
      grown.set(this.spans);
      this.spans = grown;
    }
    this.textLength += text.length;
    this.spans[at] = start;
    this.spans[at + 1] = end;
    this.spans[at + 2] = this.textLength;
    this.count++;
    if (text === '') return;
    const pending = (this.pending ??= []);
    pending.push(text);
    if (pending.length === JOIN_EVERY) {
      (this.joined ??= []).push(pending.join(''));
      this.pending = null;
    }
  }

  /** The edits collected. */
  build(): TextEdits {
    const rest = this.pending === null ? '' : this.pending.join('');
    return new TextEdits(this.spans, this.count, this.joined === null ? rest : this.joined.join('') + rest);
  }
}
