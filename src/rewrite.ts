/**
 * The text path: one pass over JSON text, guided by the plan, that validates it, copies every
 * untouched span as it is and rewrites only number tokens at integer positions. No object model
 * is built and nothing recurses on the call stack, so depth costs memory, not stack, and time
 * stays linear in the length of the text. String contents are skipped by a native regular
 * expression, not character by character.
 */
import { ArgsParseError, locate } from './errors.js';
import { isCanonicalInteger, toIntegerLiteral, type IntegerRange } from './numbers.js';
import { WORK_INTEGER, type PlanNode } from './plan.js';

// One way to match at every position, so a failing match backtracks linearly, never exponentially.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const OBJECT = 0;
const ARRAY = 1;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Rewrites the integer literals of `text` that `root` says are at integer positions, and
 * returns `text` itself when none needed it. Returns `undefined` when an object repeats a key:
 * what that means is the object model's call (see `parseArgs`), so the caller takes that path.
 *
 * @throws {ArgsParseError} When `text` is not JSON.
 */
export function rewriteIntegerLiterals(text: string, root: PlanNode | null, range: IntegerRange): string | undefined {
  const length = text.length;
  const kinds: number[] = [];
  const nodes: (PlanNode | null)[] = [];
  const counts: number[] = [];
  const keys: (Set<string> | null)[] = [];
  let out = '';
  let copied = 0;
  let duplicate = false;
  let node = active(root);
  let i = skipSpace(text, 0);

  for (;;) {
    // A value starts at i, read against `node` (null: nothing to rewrite inside).
    if (i >= length) fail(text, i, 'Unexpected end of input');
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const kind = code === OPEN_BRACE ? OBJECT : ARRAY;
      i = skipSpace(text, i + 1);
      const close = kind === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET;
      if (text.charCodeAt(i) === close) {
        i++;
      } else {
        kinds.push(kind);
        nodes.push(node);
        counts.push(0);
        keys.push(null);
        if (kind === OBJECT) {
          i = readKey(i);
        } else {
          node = node === null ? null : active(node.item(0));
        }
        continue;
      }
    } else if (code === QUOTE) {
      STRING.lastIndex = i;
      if (!STRING.test(text)) failString(text, i);
      i = STRING.lastIndex;
    } else if (code === MINUS || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail(text, i, 'Invalid number');
      const end = NUMBER.lastIndex;
      if (node !== null && node.integer) {
        const literal = text.slice(i, end);
        if (!isCanonicalInteger(literal)) {
          const integer = toIntegerLiteral(literal, range);
          if (integer !== 'not-whole' && integer !== 'out-of-range') {
            out += text.slice(copied, i) + integer;
            copied = end;
          }
        }
      }
      i = end;
    } else if (text.startsWith('true', i)) {
      i += 4;
    } else if (text.startsWith('false', i)) {
      i += 5;
    } else if (text.startsWith('null', i)) {
      i += 4;
    } else {
      fail(text, i, `Unexpected character ${describe(text, i)}`);
    }

    // After a value: close containers, or move to the next member.
    for (;;) {
      i = skipSpace(text, i);
      const depth = kinds.length;
      if (depth === 0) {
        if (i < length) fail(text, i, `Unexpected character ${describe(text, i)} after the JSON value`);
        if (duplicate) return undefined;
        return copied === 0 ? text : out + text.slice(copied);
      }
      const kind = kinds[depth - 1]!;
      const next = text.charCodeAt(i);
      if (next === COMMA) {
        i = skipSpace(text, i + 1);
        const parent = nodes[depth - 1]!;
        if (kind === OBJECT) {
          i = readKey(i);
        } else {
          const index = ++counts[depth - 1]!;
          node = parent === null ? null : active(parent.item(index));
        }
        break;
      }
      if (next !== (kind === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
        fail(text, i, i >= length ? 'Unexpected end of input' : `Expected ',' or '${kind === OBJECT ? '}' : ']'}' but got ${describe(text, i)}`);
      }
      kinds.pop();
      nodes.pop();
      counts.pop();
      keys.pop();
      i++;
    }
  }

  /** Reads `"key" :` at `at`, checks it is new in its object, and sets `node` for its value. */
  function readKey(at: number): number {
    if (text.charCodeAt(at) !== QUOTE) fail(text, at, at >= length ? 'Unexpected end of input' : `Expected a quoted object key but got ${describe(text, at)}`);
    STRING.lastIndex = at;
    if (!STRING.test(text)) failString(text, at);
    const end = STRING.lastIndex;
    const raw = text.slice(at + 1, end - 1);
    const key = raw.indexOf('\\') === -1 ? raw : (JSON.parse(text.slice(at, end)) as string);
    const depth = kinds.length;
    let seen = keys[depth - 1];
    if (seen === null || seen === undefined) keys[depth - 1] = seen = new Set();
    if (seen.has(key)) duplicate = true;
    else seen.add(key);
    const colon = skipSpace(text, end);
    if (text.charCodeAt(colon) !== COLON) fail(text, colon, colon >= length ? 'Unexpected end of input' : `Expected ':' but got ${describe(text, colon)}`);
    const parent = nodes[depth - 1]!;
    node = parent === null ? null : active(parent.child(key));
    return skipSpace(text, colon + 1);
  }
}

/** A node only counts when an integer position is at or below it. */
function active(node: PlanNode | null): PlanNode | null {
  return node !== null && (node.work & WORK_INTEGER) !== 0 ? node : null;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== LF && code !== CR && code !== TAB) return i;
    i++;
  }
}

/** Throws for the string token at `at`, pointing at the character that breaks it. */
function failString(text: string, at: number): never {
  const special = /[\\"\u0000-\u001f]/g;
  special.lastIndex = at + 1;
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    const char = match[0];
    if (char === '"') fail(text, at, 'Invalid string');
    if (char !== '\\') fail(text, match.index, `Invalid character U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} in a string`);
    if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(match.index, match.index + 6))) fail(text, match.index, 'Invalid escape in a string');
    special.lastIndex = match.index + 2;
  }
  fail(text, text.length, 'Unterminated string');
}

function describe(text: string, at: number): string {
  return at >= text.length ? 'end of input' : JSON.stringify(text[at]);
}

function fail(text: string, at: number, reason: string): never {
  throw new ArgsParseError(reason, locate(text, at));
}
