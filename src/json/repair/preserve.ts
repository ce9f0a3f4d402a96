/**
 * The token-preservation check: a repair must be strict JSON that holds every string and number
 * token of the input, in order, each with the same value (numbers with the same spelling). The
 * repaired text is the input with the reader's edits applied, so a token no edit touches is the
 * same characters in it, only moved by the edits before it; the one edit allowed to touch a token
 * replaces it whole (a string requoted, a key quoted) with its JSON spelling. The check reads the
 * repaired text with the strict scanner and holds each string and number token it reports to the
 * place the input's next token must have moved to: positions compared, no token copied.
 */
import { ArgsParseError } from '../errors.js';
import { scanJson, type JsonVisitor } from '../scanner.js';
import type { Edit } from './edits.js';

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
  /** The first edit that may still reach a token, and how far the edits before it move the text. */
  private edit = 0;
  private shift = 0;

  constructor(spans: TokenSpans, edits: readonly Edit[]) {
    this.spans = spans;
    this.edits = edits;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(_key: string, start: number, end: number): void {
    this.token(start, end, true);
  }

  string(start: number, end: number): void {
    this.token(start, end, true);
  }

  number(start: number, end: number): void {
    this.token(start, end, false);
  }

  private token(start: number, end: number, isString: boolean): void {
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
      // in its place, whole, may (the reader's conversion, pinned by its own tests).
      if (edit.start !== from || edit.end !== to || !isString || (edit.rule !== 'quotes' && edit.rule !== 'unquoted-key')) this.same = false;
      length = edit.to.length;
    }
    if (start !== from + shift || end - start !== length) this.same = false;
  }
}

/**
 * Throws unless `repaired`, the input with `edits` applied, is strict JSON whose string and
 * number tokens are the input's `spans`, in order: each one untouched by every edit or replaced
 * whole by one, none lost, added or moved past another.
 *
 * @param repaired - `applyEdits(text, edits)`.
 * @param spans - The input's string and number tokens (see `TokenSpans`).
 * @param edits - In text order, never overlapping.
 * @throws {ArgsParseError} When the repair is not strict JSON, or would not keep every token.
 */
export function checkTokensKept(repaired: string, spans: TokenSpans, edits: readonly Edit[]): void {
  const matcher = new Matcher(spans, edits);
  scanJson(repaired, matcher);
  if (!matcher.same || matcher.next !== spans.length) {
    throw new ArgsParseError('the repair would not keep every string and number of the text; refused');
  }
}
