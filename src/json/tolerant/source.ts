/**
 * The text a syntax repair reads: the part inside any code fence, with its offset in the input,
 * so every error names its position in the text the caller gave.
 */
import { ArgsParseError, locate } from '../errors.js';
import { flatSlice } from '../strings.js';

/** The body being read and where it sits in the original text. */
export class Source {
  /** The text between the envelope (byte-order mark, code fence) and the end. */
  readonly body: string;
  /** The text as given. */
  readonly original: string;
  /** Where `body` starts in `original`. */
  readonly offset: number;

  /**
   * @param original - The text as given.
   * @param offset - Where the body starts; 0 only for the whole text (an envelope, a byte-order
   *   mark or a code fence, always starts the body past 0), which is then not copied.
   * @param end - Where the body ends.
   */
  constructor(original: string, offset: number, end: number) {
    this.original = original;
    this.offset = offset;
    this.body = offset === 0 ? original : flatSlice(original, offset, end);
  }

  /** Throws: the text is not JSON that can be repaired with one reading. */
  fail(at: number, reason: string): never {
    throw new ArgsParseError(reason, locate(this.original, this.offset + at));
  }

  /** Throws: the text ends where more must follow. */
  cut(at: number, reason: string): never {
    throw new ArgsParseError(reason, locate(this.original, this.offset + at), true);
  }

  /**
   * The character at `at`, quoted, for messages. Only ever asked about a character the body has:
   * the reader refuses a text that ends where more must follow (`cut`) before it describes one.
   */
  describe(at: number): string {
    return JSON.stringify(this.body[at]);
  }
}
