/** JSON Pointer (RFC 6901) helpers. */

/** Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token: `~1` becomes `/`, `~0` becomes `~`. */
function unescapeToken(token: string): string {
  if (token.indexOf('~') === -1) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The path of the value a walk is at, as tokens and as a JSON Pointer. The pointer of each
 * prefix is made when it is first read (the parent's pointer plus one escaped token) and kept
 * while the path holds that prefix, so reading the pointer costs O(1) amortised at any depth: a
 * walk that records a change at every level stays linear, and one that records none (most
 * values change nothing) makes no pointer at all.
 */
export class PointerPath {
  private readonly tokens: (string | number)[] = [];
  /** `pointers[i]` is the pointer of the first `i` tokens, after `base`, for every `i` up to `made`. */
  private readonly pointers: string[];
  private made = 0;

  /** @param base - The pointer the path starts at (`""`: the root). */
  constructor(base = '') {
    this.pointers = [base];
  }

  /** The JSON Pointer of the path. */
  get pointer(): string {
    const { tokens, pointers } = this;
    for (let i = this.made; i < tokens.length; i++) pointers[i + 1] = pointers[i] + '/' + escapeToken(String(tokens[i]));
    this.made = tokens.length;
    return pointers[tokens.length]!;
  }

  /** The last token pushed and not popped; `undefined` at the start. */
  last(): string | number | undefined {
    return this.tokens[this.tokens.length - 1];
  }

  /** Steps down to `token`. */
  push(token: string | number): void {
    this.tokens.push(token);
  }

  /** Steps back up; returns the token left (`undefined` at the start, which stays). */
  pop(): string | number | undefined {
    if (this.tokens.length === 0) return undefined;
    const token = this.tokens.pop();
    // The pointer of the prefix left stays made; those past it are made again when read.
    if (this.made > this.tokens.length) this.made = this.tokens.length;
    return token;
  }
}

/**
 * Splits a JSON Pointer into unescaped tokens. Returns `undefined` for text that is not a
 * pointer (a non-empty pointer must start with `/`).
 */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer[0] !== '/') return undefined;
  return pointer.slice(1).split('/').map(unescapeToken);
}

/**
 * The value a JSON Pointer designates inside `root`, following own properties and array
 * indices only; `undefined` when the pointer is malformed or leads nowhere.
 */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let current = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.prototype.hasOwnProperty.call(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
