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

/**
 * Thrown where a number no JavaScript number holds exactly (an integer beyond ±(2^53−1), a number
 * beyond float64) must be written as JSON on a runtime without `JSON.rawJSON` (Node 20): by
 * `JSON.stringify` of a value the library handed out, or by the MCP client before it sends. The
 * number is never rounded silently; the message says how to send it exactly.
 *
 * @example
 * try { JSON.stringify(call.args) } catch (e) { if (e instanceof NumberPrecisionError) send(call.json) }
 */
export class NumberPrecisionError extends SchemaCoerceError {
  /** The number's literal text, e.g. `12345678901234567890`. */
  readonly literal: string;
  /** JSON Pointer (RFC 6901) to the number in the arguments, when known (`""`: the arguments themselves). */
  readonly path: string | undefined;

  /**
   * @param literal - The number's literal text.
   * @param path - Where the number is, when known.
   * @param fix - What the caller can do instead (the end of the message).
   */
  constructor(literal: string, path: string | undefined, fix: string) {
    const where = path === undefined ? '' : ` at ${path === '' ? 'the root' : path}`;
    super(`the number ${literal}${where} is beyond what a JavaScript number holds exactly, and this runtime has no JSON.rawJSON to write its digits (Node 22 and later have it): ${fix}`);
    this.name = 'NumberPrecisionError';
    this.literal = literal;
    this.path = path;
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
