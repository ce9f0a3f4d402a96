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

/** Joins reference tokens into a JSON Pointer; no tokens is the root pointer `""`. */
export function toPointer(tokens: readonly (string | number)[]): string {
  let pointer = '';
  for (const token of tokens) pointer += '/' + escapeToken(String(token));
  return pointer;
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
