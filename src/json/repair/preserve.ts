/**
 * The token-preservation check: a repair must be strict JSON that holds every string and number
 * token of the input, in order, each with the same value (numbers with the same spelling). The
 * repaired text is the input with the reader's edits applied, so a token no edit touches is the
 * same characters in it, only moved by the edits before it; the one edit allowed to touch a token
 * replaces a string or key whole (requoted, escapes decoded, a key quoted) with its JSON
 * spelling. The check reads the repaired text with the strict scanner and holds each string and
 * number token it reports to the place the input's next token must have moved to: positions
 * compared, no token copied. A token written whole is not trusted: the check decodes the input
 * token itself, with a decoder of its own (not the reader's), and compares the values.
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
      } else if ((value ?? decodeString(this.repaired, start, end)) !== decodeToken(this.input, from, to, escapes)) {
        this.same = false;
      }
      return;
    }
    if (start !== from + shift || end - start !== length) this.same = false;
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

/**
 * The value of the input token at `from`..`to` read with `escapes`, by a decoder of its own: the
 * runs between backslashes as they are, each escape looked up in its reading's table. `undefined` when the token
 * is not one that reading reads (wrong quotes, an escape it does not know, or for `literal` an
 * escape that JSON knows).
 */
function decodeToken(text: string, from: number, to: number, escapes: Escapes): string | undefined {
  if (escapes === 'bare') return text.slice(from, to);
  if (escapes === 'gemma') {
    if (!text.startsWith(GEMMA_QUOTE, from) || !text.startsWith(GEMMA_QUOTE, to - GEMMA_QUOTE.length) || to - from < 2 * GEMMA_QUOTE.length) return undefined;
    const content = text.slice(from + GEMMA_QUOTE.length, to - GEMMA_QUOTE.length);
    return content.includes(GEMMA_QUOTE) ? undefined : content;
  }
  if (to - from < 2 || text[to - 1] !== CLOSE[text[from]!]) return undefined;
  const content = text.slice(from + 1, to - 1);
  if (escapes === 'literal') return /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(content) ? undefined : content;
  const table = escapes === 'python' ? PYTHON_ESCAPES : JSON_ESCAPES;
  // Runs between backslashes are copied whole; each escape is looked up on its own.
  let value = '';
  let run = 0;
  for (let i = content.indexOf('\\'); i !== -1; i = content.indexOf('\\', i)) {
    value += content.slice(run, i);
    const next = content[++i];
    const simple = next === undefined ? undefined : table[next];
    if (simple !== undefined) {
      value += simple;
      run = ++i;
      continue;
    }
    const digits = next === 'u' ? 4 : escapes === 'python' && next === 'x' ? 2 : escapes === 'python' && next === 'U' ? 8 : 0;
    let code: number;
    if (digits > 0) {
      const hex = content.slice(i + 1, i + 1 + digits);
      if (hex.length !== digits || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
      code = Number.parseInt(hex, 16);
      i += digits + 1;
    } else if (escapes === 'python' && next !== undefined && next >= '0' && next <= '7') {
      let octal = next;
      while (octal.length < 3 && content[i + 1] !== undefined && content[i + 1]! >= '0' && content[i + 1]! <= '7') octal += content[++i];
      code = Number.parseInt(octal, 8);
      i++;
    } else {
      return undefined;
    }
    if (code > 0x10ffff) return undefined;
    value += String.fromCodePoint(code);
    run = i;
  }
  return value + content.slice(run);
}

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
