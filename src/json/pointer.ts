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
 * prefix is kept as the path grows (the parent's pointer plus one escaped token), so reading the
 * pointer costs O(1) at any depth, and a walk that records a change at every level stays linear.
 */
export class PointerPath {
  private readonly tokens: (string | number)[] = [];
  /** `pointers[i]` is the pointer of the first `i` tokens, after `base`. */
  private readonly pointers: string[];

  /** @param base - The pointer the path starts at (`""`: the root). */
  constructor(base = '') {
    this.pointers = [base];
  }

  /** The JSON Pointer of the path. */
  get pointer(): string {
    return this.pointers[this.pointers.length - 1]!;
  }

  /** The last token pushed and not popped; `undefined` at the start. */
  last(): string | number | undefined {
    return this.tokens[this.tokens.length - 1];
  }

  /** Steps down to `token`. */
  push(token: string | number): void {
    this.tokens.push(token);
    this.pointers.push(this.pointer + '/' + escapeToken(String(token)));
  }

  /** Steps back up; returns the token left (`undefined` at the start, which stays). */
  pop(): string | number | undefined {
    if (this.tokens.length === 0) return undefined;
    this.pointers.pop();
    return this.tokens.pop();
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
