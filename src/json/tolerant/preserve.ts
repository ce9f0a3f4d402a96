/**
 * The token-preservation check: a repair must be strict JSON that holds every string and number
 * token of the input, in order, each with the same value (numbers with the same spelling). The
 * repaired text is the input with the reader's edits applied, so a token no edit touches is the
 * same characters in it, only moved by the edits before it; the one edit allowed to touch a token
 * replaces a string or key whole (requoted, escapes decoded, a key quoted) with its JSON
 * spelling. The check reads the repaired text with the strict scanner and holds each string and
 * number token it reports to the place the input's next token must have moved to: positions
 * compared, no token copied. A token written whole is not trusted: the check reads the input
 * token itself, with a decoder of its own (not the reader's), against the value of the repaired
 * token, run by run between backslashes, each escape looked up where it stands.
 */
import { ArgsParseError } from '../errors.js';
import { decodeString, scanJson, type JsonVisitor } from '../scanner.js';
import type { Edit, Escapes } from './edits.js';

/**
 * The string (keys included) and number tokens of a text, in order, as `start, end` pairs of
 * positions in the text; a number's end is written negated (never 0: a token is never empty).
 */
export type TokenSpans = number[];

/** Holds each token the scanner reports to where the input's next token lands. */
class Matcher implements JsonVisitor {
  /** Index in `spans` of the next token expected. */
  next = 0;
  same = true;
  private readonly spans: TokenSpans;
  private readonly edits: readonly Edit[];
  private readonly input: string;
  private readonly repaired: string;
  /** The first edit that may still reach a token, and how far the edits before it move the text. */
  private edit = 0;
  private shift = 0;
  /**
   * The first backslash of the input at or after the last place asked about (2^32 - 1 for none,
   * -1 before the first search): one forward search shared by the tokens. They are asked about in
   * text order: a token is read only once its place has been checked, and the places only grow.
   */
  private backslash = -1;

  constructor(input: string, repaired: string, spans: TokenSpans, edits: readonly Edit[]) {
    this.input = input;
    this.repaired = repaired;
    this.spans = spans;
    this.edits = edits;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(key: string, start: number, end: number): void {
    this.token(start, end, true, key);
  }

  string(start: number, end: number): void {
    this.token(start, end, true, undefined);
  }

  number(start: number, end: number): void {
    this.token(start, end, false, undefined);
  }

  /** `value`: a key's value as the scanner decoded it. */
  private token(start: number, end: number, isString: boolean, value: string | undefined): void {
    const index = this.next;
    this.next = index + 2;
    if (index >= this.spans.length) {
      this.same = false;
      return;
    }
    const from = this.spans[index]!;
    const signed = this.spans[index + 1]!;
    const to = signed < 0 ? -signed : signed;
    if (signed < 0 === isString) this.same = false;
    const edits = this.edits;
    let j = this.edit;
    let shift = this.shift;
    for (let edit = edits[j]; edit !== undefined && edit.end <= from; edit = edits[++j]) shift += edit.to.length - (edit.end - edit.start);
    this.edit = j;
    this.shift = shift;
    let length = to - from;
    const edit = edits[j];
    if (edit !== undefined && edit.start < to) {
      // An edit reaches into the token: only one that writes a string's or a key's JSON spelling
      // in its place, whole, may, and what it wrote must mean what the input token means.
      length = edit.to.length;
      const escapes = edit.escapes;
      if (edit.start !== from || edit.end !== to || !isString || escapes === undefined || start !== from + shift || end - start !== length) {
        this.same = false;
      } else if (!this.means(from, to, escapes, value ?? decodeString(this.repaired, start, end))) {
        this.same = false;
      }
      return;
    }
    if (start !== from + shift || end - start !== length) this.same = false;
  }

  /** The first backslash of the input at or after `at` (2^32 - 1 for none). */
  private backslashFrom(at: number): number {
    if (this.backslash < at) this.backslash = this.input.indexOf('\\', at) >>> 0;
    return this.backslash;
  }

  /**
   * Whether the input token at `from`..`to`, read with `escapes` by a decoder of its own, is
   * `value`: false when it is another string, or not one that reading reads (wrong quotes, an
   * escape it does not know, or for `literal` an escape that JSON knows). The runs between
   * backslashes are compared where they stand, no string built; each escape is looked up on its own.
   */
  private means(from: number, to: number, escapes: Escapes, value: string): boolean {
    const text = this.input;
    if (escapes === 'bare') return text.slice(from, to) === value;
    if (escapes === 'gemma') {
      if (!text.startsWith(GEMMA_QUOTE, from) || !text.startsWith(GEMMA_QUOTE, to - GEMMA_QUOTE.length) || to - from < 2 * GEMMA_QUOTE.length) return false;
      const content = text.slice(from + GEMMA_QUOTE.length, to - GEMMA_QUOTE.length);
      return !content.includes(GEMMA_QUOTE) && content === value;
    }
    if (to - from < 2 || text[to - 1] !== CLOSE[text[from]!]) return false;
    const stop = to - 1;
    if (escapes === 'literal') {
      const content = text.slice(from + 1, stop);
      return !/\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(content) && content === value;
    }
    const table = escapes === 'python' ? PYTHON_ESCAPES : JSON_ESCAPES;
    /** Where the next run starts in the text, and where its characters must stand in `value`. */
    let run = from + 1;
    let at = 0;
    for (let i = this.backslashFrom(run); i < stop; i = this.backslashFrom(run)) {
      // (Slices compared with `===`, which V8 does natively, measured faster than `startsWith`.)
      if (value.slice(at, at + i - run) !== text.slice(run, i)) return false;
      at += i - run;
      // The closing quote, which the tables hold, never ends an escape.
      const simple = i + 1 < stop ? table[text[i + 1]!] : undefined;
      let code: number;
      if (simple !== undefined) {
        code = simple.charCodeAt(0);
        run = i + 2;
      } else {
        // Hex digits and octal ones never run into the closing quote, so a match ends inside the token.
        const digits = escapes === 'python' ? PYTHON_DIGITS : JSON_DIGITS;
        digits.lastIndex = i + 1;
        const match = digits.exec(text);
        if (match === null) return false;
        code = match[4] === undefined ? Number.parseInt(match[1] ?? match[2] ?? match[3]!, 16) : Number.parseInt(match[4], 8);
        run = digits.lastIndex;
      }
      // A code point past U+FFFF is two code units of the value, a surrogate pair (and past
      // U+10FFFF none: `codePointAt` never reads one so large).
      if ((code > 0xffff ? value.codePointAt(at) : value.charCodeAt(at)) !== code) return false;
      at += code > 0xffff ? 2 : 1;
    }
    return value.slice(at) === text.slice(run, stop);
  }
}

/** The closing quote of each opening quote of a string token. */
const CLOSE: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\u201c': '\u201d', '\u2018': '\u2019' };
const GEMMA_QUOTE = '<|"|>';
/** Escape letters and the characters they stand for, per reading (`\u`, `\x`, `\U` and octal apart). */
const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const PYTHON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', "'": "'", '\\': '\\', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\x0b',
};

/** The escapes spelled with digits, after the backslash: `\\uXXXX` in JSON; in Python `\\xHH`, `\\UXXXXXXXX` and octal too. */
const JSON_DIGITS = /u([0-9a-fA-F]{4})/y;
const PYTHON_DIGITS = /u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|U([0-9a-fA-F]{8})|([0-7]{1,3})/y;

/**
 * Throws unless `repaired`, the input with `edits` applied, is strict JSON whose string and
 * number tokens are the input's `spans`, in order: each one untouched by every edit or replaced
 * whole by one, none lost, added or moved past another.
 *
 * @param text - The input.
 * @param repaired - `applyEdits(text, edits)`.
 * @param spans - The input's string and number tokens (see `TokenSpans`).
 * @param edits - In text order, never overlapping.
 * @throws {ArgsParseError} When the repair is not strict JSON, or would not keep every token.
 */
export function checkTokensKept(text: string, repaired: string, spans: TokenSpans, edits: readonly Edit[]): void {
  const matcher = new Matcher(text, repaired, spans, edits);
  scanJson(repaired, matcher);
  if (!matcher.same || matcher.next !== spans.length) {
    throw new ArgsParseError('the repair would not keep every string and number of the text; refused');
  }
}
