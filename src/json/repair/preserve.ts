/**
 * The token-preservation check: a repaired text must be strict JSON holding every string and
 * number token of the input, in order, each with the same value (numbers with the same
 * spelling). Whatever produced the repair, this is checked on its output.
 */
import { ArgsParseError } from '../errors.js';
import { decodeString, scanJson, type JsonVisitor } from '../scanner.js';

const STRING = 0;
const NUMBER = 1;

/** String values (keys included) and number literals, in text order. */
export class TokenList {
  readonly values: string[] = [];
  readonly kinds: number[] = [];

  /** Adds a string's (or key's) decoded value. */
  string(value: string): void {
    this.values.push(value);
    this.kinds.push(STRING);
  }

  /** Adds a number's literal text. */
  number(literal: string): void {
    this.values.push(literal);
    this.kinds.push(NUMBER);
  }
}

/** Collects the tokens of strict JSON text. */
class Collector implements JsonVisitor {
  readonly list = new TokenList();
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(key: string): void {
    this.list.string(key);
  }

  string(start: number, end: number): void {
    this.list.string(decodeString(this.text, start, end));
  }

  number(start: number, end: number): void {
    this.list.number(this.text.slice(start, end));
  }
}

/** Compares the tokens of strict JSON text with a list as the scanner reports them, mostly without copying. */
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

  key(key: string): void {
    const k = this.next++;
    if (this.expected.kinds[k] !== STRING || this.expected.values[k] !== key) this.same = false;
  }

  string(start: number, end: number): void {
    const k = this.next++;
    const value = this.expected.values[k];
    if (this.expected.kinds[k] !== STRING || value === undefined) {
      this.same = false;
    } else if (value.indexOf('\\') === -1 && value.length === end - start - 2 && this.text.startsWith(value, start + 1)) {
      // The raw text equals a value without backslashes, so it has no escape: same value.
    } else if (decodeString(this.text, start, end) !== value) {
      this.same = false;
    }
  }

  number(start: number, end: number): void {
    const k = this.next++;
    const literal = this.expected.values[k];
    if (this.expected.kinds[k] !== NUMBER || literal === undefined || literal.length !== end - start || !this.text.startsWith(literal, start)) this.same = false;
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
  if (!matcher.same || matcher.next !== expected.values.length) {
    throw new ArgsParseError('the repair would not keep every string and number of the text; refused');
  }
}
