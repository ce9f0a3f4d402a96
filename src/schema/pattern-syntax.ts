/**
 * The structure of an ECMA-262 regular expression, read for the linear-time matcher
 * (`pattern-machine.ts`): alternation, concatenation, quantifiers, groups, anchors, word
 * boundaries and lookaround. Everything that matches one character (a literal, an escape, `.`,
 * a class, `\p{…}`) is kept as its own source text and later compiled by the native engine, which
 * matches one character at a time in constant time and so with the language's exact meaning.
 *
 * Only a pattern the native engine has already accepted (with the same flags) is read here, so
 * the reader need not report syntax errors. What the matcher cannot run is refused by name:
 * backreferences (no linear-time algorithm exists for them), inline modifiers, and groups nested
 * past `MAX_NESTING`.
 */

/** One node of a pattern's structure. */
export type PatternNode =
  /** One character: a literal code point (`code`), or a class, escape or `.` given as source (`source`). */
  | { readonly kind: 'char'; readonly code?: number; readonly source?: string }
  | { readonly kind: 'seq'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'alt'; readonly options: readonly PatternNode[] }
  /** `max` is `Infinity` for an unbounded quantifier. */
  | { readonly kind: 'repeat'; readonly body: PatternNode; readonly min: number; readonly max: number }
  /** `^`, `$` (no `m` flag: the ends of the text), `\b`, `\B`. */
  | { readonly kind: 'assert'; readonly what: '^' | '$' | 'b' | 'B' }
  | { readonly kind: 'look'; readonly behind: boolean; readonly negate: boolean; readonly body: PatternNode };

/** A pattern the matcher cannot run, with the reason in words. */
export class UnsupportedPattern extends Error {}

/** Deeper nesting of groups is refused: the compiler recurses once per level. */
const MAX_NESTING = 100;
const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;
/** Escapes whose text runs past one character: `\u{…}`, `\p{…}`, `\uXXXX` (a surrogate pair as one), `\xHH`, `\cX`. */
const LONG_ESCAPE_UNICODE = /\\(?:u\{[0-9a-fA-F]+\}|[pP]\{[^}]*\}|u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z])/y;
const LONG_ESCAPE_LEGACY = /\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z])/y;

interface Frame {
  readonly options: PatternNode[];
  items: PatternNode[];
  /** How the group was opened: a plain or named group, or a lookaround. */
  readonly look: { readonly behind: boolean; readonly negate: boolean } | null;
}

/**
 * Reads the structure of `source`, a pattern valid for `new RegExp(source, unicode ? 'u' : '')`.
 *
 * @throws UnsupportedPattern - for a backreference, an inline modifier, or nesting past 100 levels.
 */
export function parsePattern(source: string, unicode: boolean): PatternNode {
  const frames: Frame[] = [{ options: [], items: [], look: null }];
  let at = 0;
  while (at < source.length) {
    const frame = frames[frames.length - 1]!;
    const char = source[at]!;
    if (char === '|') {
      frame.options.push(sequence(frame.items));
      frame.items = [];
      at++;
    } else if (char === '(') {
      const [look, length] = groupOpening(source, at);
      if (frames.length > MAX_NESTING) throw new UnsupportedPattern(`groups nest more than ${MAX_NESTING} deep`);
      frames.push({ options: [], items: [], look });
      at += length;
    } else if (char === ')') {
      frames.pop();
      const body = closeGroup(frame);
      frames[frames.length - 1]!.items.push(frame.look === null ? body : { kind: 'look', ...frame.look, body });
      at++;
    } else if (char === '*' || char === '+' || char === '?' || (char === '{' && quantifierAt(source, at) !== null)) {
      at = quantify(source, at, frame.items);
    } else if (char === '^' || char === '$') {
      frame.items.push({ kind: 'assert', what: char });
      at++;
    } else if (char === '[') {
      const end = classEnd(source, at);
      frame.items.push({ kind: 'char', source: source.slice(at, end) });
      at = end;
    } else if (char === '\\') {
      at = escape(source, at, unicode, frame.items);
    } else if (char === '.') {
      frame.items.push({ kind: 'char', source: '.' });
      at++;
    } else {
      const code = unicode ? source.codePointAt(at)! : source.charCodeAt(at);
      frame.items.push({ kind: 'char', code });
      at += code > 0xffff ? 2 : 1;
    }
  }
  return closeGroup(frames[0]!);
}

function sequence(items: PatternNode[]): PatternNode {
  return items.length === 1 ? items[0]! : { kind: 'seq', items };
}

function closeGroup(frame: Frame): PatternNode {
  const options = [...frame.options, sequence(frame.items)];
  return options.length === 1 ? options[0]! : { kind: 'alt', options };
}

/** What a `(` opens, and how many characters its opening takes. */
function groupOpening(source: string, at: number): [Frame['look'], number] {
  if (source[at + 1] !== '?') return [null, 1];
  const next = source[at + 2];
  if (next === ':') return [null, 3];
  if (next === '=' || next === '!') return [{ behind: false, negate: next === '!' }, 3];
  if (next === '<') {
    const after = source[at + 3];
    if (after === '=' || after === '!') return [{ behind: true, negate: after === '!' }, 4];
    return [null, source.indexOf('>', at) + 1 - at];
  }
  throw new UnsupportedPattern('it uses an inline modifier group');
}

/** `{n}`, `{n,}` or `{n,m}` at `at`, as `[min, max, length]`, or `null` when the brace is a literal (legacy syntax). */
function quantifierAt(source: string, at: number): [number, number, number] | null {
  QUANTIFIER.lastIndex = at;
  const match = QUANTIFIER.exec(source);
  if (match === null) return null;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
  return [min, max, match[0].length];
}

/** Applies the quantifier at `at` to the last item; returns the position after it (and its lazy `?`). */
function quantify(source: string, at: number, items: PatternNode[]): number {
  const char = source[at];
  const [min, max, length] = char === '*' ? [0, Infinity, 1] : char === '+' ? [1, Infinity, 1] : char === '?' ? [0, 1, 1] : quantifierAt(source, at)!;
  items.push({ kind: 'repeat', body: items.pop()!, min, max });
  const end = at + length;
  return source[end] === '?' ? end + 1 : end;
}

/** The position after the class that opens at `at` (`]` right after `[` or `[^` closes it, as ECMA-262 reads it). */
function classEnd(source: string, at: number): number {
  let i = at + 1;
  while (source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Reads the escape at `at` into `items`; returns the position after it. */
function escape(source: string, at: number, unicode: boolean, items: PatternNode[]): number {
  const next = source[at + 1]!;
  if (next === 'b' || next === 'B') {
    items.push({ kind: 'assert', what: next });
    return at + 2;
  }
  if (next === 'k' || (next >= '1' && next <= '9')) throw new UnsupportedPattern('it uses a backreference');
  // A legacy `\0` followed by a digit is an octal escape of up to three digits.
  if (next === '0' && /[0-9]/.test(source[at + 2] ?? '')) throw new UnsupportedPattern('it uses an octal escape');
  // A legacy `\c` before anything but a letter matches the two characters `\c`.
  if (next === 'c' && !/[a-zA-Z]/.test(source[at + 2] ?? '')) throw new UnsupportedPattern('it uses a bare \\c');
  const long = unicode ? LONG_ESCAPE_UNICODE : LONG_ESCAPE_LEGACY;
  long.lastIndex = at;
  const match = long.exec(source);
  const length = match !== null ? match[0].length : 1 + (unicode ? String.fromCodePoint(source.codePointAt(at + 1)!).length : 1);
  items.push({ kind: 'char', source: source.slice(at, at + length) });
  return at + length;
}
