/** Where in a text a problem is: zero-based `position`, one-based `line` and `column`. */
export interface TextLocation {
  readonly position: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Thrown by the text boundaries (`parseArgs`, `coerceArgsJson`) when the text is not JSON.
 * The message starts with `[schema-coerce]` and names the position; nothing partial is ever
 * returned alongside it.
 *
 * @example
 * try { parseArgs('{"line": 5.0,}') } catch (e) { if (e instanceof ArgsParseError) e.position }
 */
export class ArgsParseError extends SyntaxError {
  /** Zero-based character offset of the problem, or `undefined` when it has no position. */
  readonly position: number | undefined;
  /** One-based line of the problem. */
  readonly line: number | undefined;
  /** One-based column of the problem. */
  readonly column: number | undefined;
  /** What is wrong, without the location (`Quoted object key expected but reached end of input`). */
  readonly reason: string;
  /** The text ends where more must follow: it was cut off (most likely at an output-token limit). */
  readonly truncated: boolean;

  constructor(reason: string, location?: TextLocation, truncated = false) {
    const where = location ? ` at line ${location.line} column ${location.column} (position ${location.position})` : '';
    super(`[schema-coerce] ${truncated ? 'the arguments were cut off' : 'invalid JSON'}${where}: ${reason}`);
    this.truncated = truncated;
    this.name = 'ArgsParseError';
    this.reason = reason;
    this.position = location?.position;
    this.line = location?.line;
    this.column = location?.column;
  }
}

/** Line and column (both one-based) of a zero-based `position` in `text`. */
export function locate(text: string, position: number): TextLocation {
  const clamped = Math.max(0, Math.min(position, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < clamped; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { position: clamped, line, column: clamped - lineStart + 1 };
}
