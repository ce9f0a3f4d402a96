/**
 * The token-preservation check: a repaired text must be strict JSON holding every string and
 * number token of the input, in order, each with the same value (numbers with the same
 * spelling). Whatever produced the repair, this is checked on its output.
 */
import { ArgsParseError } from '../errors.js';
import { decodeString, scanJson, type JsonVisitor } from '../scanner.js';

/**
 * String and number tokens in text order: each string (keys included) as strict JSON text,
 * quotes and all, and each number as its literal. A string's spelling starts with `"`, a
 * number's never does, so the spelling tells the kinds apart.
 */
export type TokenList = string[];

const QUOTE = 0x22;

/** Collects the tokens of strict JSON text. */
class Collector implements JsonVisitor {
  readonly list: TokenList = [];
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(_key: string, start: number, end: number): void {
    this.list.push(this.text.slice(start, end));
  }

  string(start: number, end: number): void {
    this.list.push(this.text.slice(start, end));
  }

  number(start: number, end: number): void {
    this.list.push(this.text.slice(start, end));
  }
}

/**
 * Compares the tokens of strict JSON text with a list as the scanner reports them. Equal spelling
 * is equal value, so most tokens are compared in place; a string spelled differently (another
 * choice of escapes) is decoded on both sides.
 */
class Matcher implements JsonVisitor {
  next = 0;
  same = true;
  private readonly text: string;
  private readonly expected: TokenList;

  constructor(text: string, expected: TokenList) {
    this.text = text;
    this.expected = expected;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(_key: string, start: number, end: number): void {
    this.string(start, end);
  }

  string(start: number, end: number): void {
    const token = this.expected[this.next++];
    // Spelled the same, it is a string token too: the text's token here opens with a quote.
    if (token === undefined) this.same = false;
    else if (!this.spelled(token, start, end) && (token.charCodeAt(0) !== QUOTE || JSON.parse(token) !== decodeString(this.text, start, end))) this.same = false;
  }

  number(start: number, end: number): void {
    const token = this.expected[this.next++];
    if (token === undefined || token.charCodeAt(0) === QUOTE || !this.spelled(token, start, end)) this.same = false;
  }

  /** True when the text at `start`..`end` is exactly `token`. */
  private spelled(token: string, start: number, end: number): boolean {
    // A slice shares the text's characters, and `===` compares them faster than `startsWith`.
    return token.length === end - start && this.text.slice(start, end) === token;
  }
}

/**
 * The string and number tokens of strict JSON text, in order.
 *
 * @throws {ArgsParseError} When `text` is not strict JSON.
 */
export function tokensOf(text: string): TokenList {
  const collector = new Collector(text);
  scanJson(text, collector);
  return collector.list;
}

/**
 * Throws unless `repaired` is strict JSON whose string and number tokens are `expected`, in order.
 *
 * @throws {ArgsParseError} When the repair lost, added, reordered or altered a token.
 */
export function checkTokensKept(repaired: string, expected: TokenList): void {
  const matcher = new Matcher(repaired, expected);
  scanJson(repaired, matcher);
  if (!matcher.same || matcher.next !== expected.length) {
    throw new ArgsParseError('the repair would not keep every string and number of the text; refused');
  }
}
