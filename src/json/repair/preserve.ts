/**
 * The token-preservation check: a repaired text must be strict JSON holding every string and
 * number token of the input, in order, each with the same value (numbers with the same
 * spelling). Whatever produced the repair, this is checked on its output.
 */
import { ArgsParseError } from '../errors.js';
import { decodeString, scanJson, type JsonVisitor } from '../scanner.js';

/** Collects `s` + value for every string and key, `n` + literal for every number. */
class TokenCollector implements JsonVisitor {
  readonly tokens: string[] = [];
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  open(): void {}
  close(): void {}
  literal(): void {}

  key(key: string): void {
    this.tokens.push('s' + key);
  }

  string(start: number, end: number): void {
    this.tokens.push('s' + decodeString(this.text, start, end));
  }

  number(start: number, end: number): void {
    this.tokens.push('n' + this.text.slice(start, end));
  }
}

/**
 * The string and number tokens of strict JSON text, in order.
 *
 * @throws {ArgsParseError} When `text` is not strict JSON.
 */
export function tokensOf(text: string): string[] {
  const collector = new TokenCollector(text);
  scanJson(text, collector);
  return collector.tokens;
}

/**
 * Throws unless `repaired` is strict JSON whose string and number tokens are `expected`, in order.
 *
 * @throws {ArgsParseError} When the repair lost, added, reordered or altered a token.
 */
export function checkTokensKept(repaired: string, expected: readonly string[]): void {
  const got = tokensOf(repaired);
  const differs = got.length !== expected.length || got.some((token, i) => token !== expected[i]);
  if (differs) throw new ArgsParseError('the repair would not keep every string and number of the text; refused');
}
