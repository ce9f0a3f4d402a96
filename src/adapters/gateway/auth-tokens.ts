/**
 * A static token list (`--auth-tokens <file>`): a JSON array of entries, each a token (`"token"`)
 * or its SHA-256 in hex (`"sha256"`, so the file need not hold the secret), with the `"subject"`
 * it stands for and the `"scopes"` it grants. A presented token is hashed and compared with every
 * entry's hash in constant time (`timingSafeEqual`, no early exit), so the time taken tells
 * neither which entry matched nor how much of a hash did. The file's problems are named by their
 * JSON Pointer, never with a token's text.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ArgsParseError, parseArgs, SchemaCoerceError } from '../../index.js';
import type { VerifiedToken } from './verified.js';

/** A token list that cannot be read or is not valid: its `detail` names the file and the entry, never a token. */
export class TokenListError extends SchemaCoerceError {
  constructor(detail: string) {
    super(detail);
    this.name = 'TokenListError';
  }
}

/** One entry of the list, as loaded. */
interface TokenEntry {
  readonly digest: Buffer;
  readonly subject: string;
  readonly scopes: readonly string[];
}

/** A bearer token as RFC 6750 writes one (`b64token`). */
export const B64TOKEN: RegExp = /^[A-Za-z0-9\-._~+/]+=*$/;
/** The fewest characters a token of the list may have: a shorter one can be guessed. */
const MIN_TOKEN = 32;
/** A scope as RFC 6749 writes one: printable ASCII but space, `"` and `\`. */
export const SCOPE: RegExp = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The tokens of a list, checked in constant time. */
export class TokenList {
  private readonly entries: readonly TokenEntry[];

  private constructor(entries: readonly TokenEntry[]) {
    this.entries = entries;
  }

  /**
   * Reads the list in `path`.
   *
   * @throws {TokenListError} When it cannot be read, is not JSON, or an entry is not valid (named by its pointer).
   */
  static read(path: string): TokenList {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new TokenListError(`--auth-tokens ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
    let list: unknown;
    try {
      list = parseArgs(text);
    } catch (error) {
      // The reason names a position, never the text there.
      if (error instanceof ArgsParseError) throw new TokenListError(`--auth-tokens ${path}: not JSON at line ${error.line} column ${error.column}`);
      throw error;
    }
    return TokenList.of(list, `--auth-tokens ${path}`);
  }

  /**
   * The list `list` holds (as a token file's JSON gives it); `source` names it in errors.
   *
   * @throws {TokenListError} When an entry is not valid (named by its pointer).
   */
  static of(list: unknown, source: string): TokenList {
    if (!Array.isArray(list) || list.length === 0) throw new TokenListError(`${source}: must be a non-empty array of {"token" or "sha256", "subject", "scopes"}`);
    return new TokenList(list.map((entry: unknown, index) => entryOf(entry, `${source}: /${index}`)));
  }

  /** What `token` stands for; `undefined` when no entry matches. Every entry is compared, whichever matches. */
  verify(token: string): VerifiedToken | undefined {
    const digest = createHash('sha256').update(token).digest();
    let found: TokenEntry | undefined;
    for (const entry of this.entries) if (timingSafeEqual(entry.digest, digest) && found === undefined) found = entry;
    return found === undefined ? undefined : { token, clientId: found.subject, scopes: found.scopes, extra: { subject: found.subject } };
  }
}

/** One entry checked, or a `TokenListError` naming what is wrong at `at`. */
function entryOf(entry: unknown, at: string): TokenEntry {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new TokenListError(`${at} must be an object`);
  const { token, sha256, subject, scopes, ...rest } = entry as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new TokenListError(`${at}/${unknown} is not a key of an entry (token, sha256, subject, scopes)`);
  if ((token === undefined) === (sha256 === undefined)) throw new TokenListError(`${at} must have either "token" or "sha256"`);
  if (token !== undefined && (typeof token !== 'string' || token.length < MIN_TOKEN || !B64TOKEN.test(token))) {
    throw new TokenListError(`${at}/token must be a bearer token of at least ${MIN_TOKEN} characters (letters, digits, - . _ ~ + /), e.g. from openssl rand -hex 32 (its text is not shown)`);
  }
  if (sha256 !== undefined && (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256))) throw new TokenListError(`${at}/sha256 must be 64 hex digits`);
  if (typeof subject !== 'string' || subject === '' || /[\0-\x1f]/.test(subject)) throw new TokenListError(`${at}/subject must be a non-empty string without control characters`);
  if (!Array.isArray(scopes)) throw new TokenListError(`${at}/scopes must be an array of scopes (it may be empty)`);
  scopes.forEach((scope: unknown, index) => {
    if (typeof scope !== 'string' || !SCOPE.test(scope)) throw new TokenListError(`${at}/scopes/${index} must be a scope (printable ASCII without space, " or \\)`);
  });
  const digest = typeof token === 'string' ? createHash('sha256').update(token).digest() : Buffer.from(sha256 as string, 'hex');
  return { digest, subject, scopes: scopes as string[] };
}
