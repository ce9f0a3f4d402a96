/**
 * The error family. Every error the library throws is a `SchemaCoerceError`: its message starts
 * with `[schema-coerce]`, and what it is about is in fields (`detail`, and per class the position,
 * the peer, …), so a caller reads fields instead of cutting the message apart.
 */

/** Where in a text a problem is: zero-based `position`, one-based `line` and `column`. */
export interface TextLocation {
  readonly position: number;
  readonly line: number;
  readonly column: number;
}

/**
 * The base class of every error schema-coerce throws.
 *
 * @example
 * try { parseArgs(text) } catch (e) { if (e instanceof SchemaCoerceError) log(e.detail) }
 */
export class SchemaCoerceError extends Error {
  /** The message without the `[schema-coerce] ` prefix. */
  readonly detail: string;

  constructor(detail: string, options?: { readonly cause?: unknown }) {
    super(`[schema-coerce] ${detail}`, options);
    this.name = 'SchemaCoerceError';
    this.detail = detail;
  }
}

/**
 * Thrown by the text boundaries (`parseArgs`, `coerceArgsJson`) when the text is not JSON.
 * The message names the position; nothing partial is ever returned alongside it.
 *
 * @example
 * try { parseArgs('{"line": 5.0,}') } catch (e) { if (e instanceof ArgsParseError) e.position }
 */
export class ArgsParseError extends SchemaCoerceError {
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
    super(`${truncated ? 'the arguments were cut off' : 'invalid JSON'}${where}: ${reason}`);
    this.truncated = truncated;
    this.name = 'ArgsParseError';
    this.reason = reason;
    this.position = location?.position;
    this.line = location?.line;
    this.column = location?.column;
  }
}

/**
 * Thrown by `stringifyArgs` when the value contains itself: a cyclic value has no JSON text.
 *
 * @example
 * const a: unknown[] = []; a.push(a); stringifyArgs(a) // throws ArgsCycleError
 */
export class ArgsCycleError extends SchemaCoerceError {
  constructor() {
    super('cannot write cyclic arguments as JSON');
    this.name = 'ArgsCycleError';
  }
}

/**
 * Thrown when a feature needs an optional peer dependency that is not installed (validation
 * needs `ajv`).
 */
export class MissingPeerError extends SchemaCoerceError {
  /** The feature asked for, e.g. `validation`. */
  readonly feature: string;
  /** The package to install, e.g. `ajv`. */
  readonly peer: string;
  /** What is missing, without the feature: `needs the optional peer dependency ajv (npm install ajv): …`. */
  readonly need: string;

  constructor(feature: string, peer: string, cause: unknown) {
    const need = `needs the optional peer dependency ${peer} (npm install ${peer}): ${cause instanceof Error ? cause.message : String(cause)}`;
    super(`${feature} ${need}`, { cause });
    this.name = 'MissingPeerError';
    this.feature = feature;
    this.peer = peer;
    this.need = need;
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
