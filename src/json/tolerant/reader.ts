/**
 * The tolerant reader: reads a model's argument text once, checks that it has exactly one
 * reading, and lists the edits that turn it into strict JSON, without applying any. It is the
 * truncation detector too: a text that ends where more must follow (inside a string, an escape,
 * a number, a literal, an array, an object, after a key or inside a code fence) is refused as cut
 * off before anything is repaired, and never completed. Iterative: depth costs memory, not stack.
 */
import type { Edit, Escapes, SyntaxRule } from './edits.js';
import { readAfter, type AfterContext } from './after.js';
import { findBody, type Body } from './envelope.js';
import type { EscapeKinds } from './escapes.js';
import { skipLayout } from './layout.js';
import { refuseCallId, refuseEscapedQuote, refuseMarkup } from './markup.js';
import type { TokenSpans } from './preserve.js';
import { opensString, QuotedString } from './quoted.js';
import { MAX_READINGS, type StrayReadings } from './readings.js';
import { Source } from './source.js';
import { literalWord, numberEnd, refuseKeyValue, wordEnd } from './words.js';

/** What the reader found: the edits to make and every string and number token, in order. */
export interface Reading {
  readonly edits: Edit[];
  /** Where each string (keys included) and number token is in the text. */
  readonly tokens: TokenSpans;
  /** The decoded value when the whole text is one string (arguments possibly double-encoded). */
  readonly rootString: string | undefined;
  /** When the text ends in an extra closing bracket that another bracket could be instead: both, to be refused. */
  readonly stray: StrayReadings | undefined;
}

/** Blank as `String.prototype.trim` sees it (the same white space), without copying the text. */
const BLANK = /^\s*$/;

const OPEN_BRACE = 0x7b;
/** What after `=` makes it no colon: `==`, `=>`. */
const EQUALS_OTHER = /[=>]/;
const OPEN_BRACKET = 0x5b;

/**
 * Reads `text` as one value in the tolerant grammar and returns the edits that make it strict
 * JSON. Blank text (inside a fence or not) reads as `{}`.
 *
 * @param markup - The `markup` rule: a serving engine's markup around complete arguments is dropped (`engines.ts`).
 * @throws {ArgsParseError} With `truncated: true` when the text was cut off; without it when the
 *   text has no single reading (two values, `NaN`, prose around the arguments, …).
 */
export function readTolerant(text: string, markup = true): Reading {
  const edits: Edit[] = [];
  const body = findBody(text, edits, markup);
  const { start, end } = body;
  const source = new Source(text, start, end);
  const reader = new Reader(source, edits, body.after);
  if (BLANK.test(source.body)) {
    if (body.after === 'wrapper') source.fail(source.body.length, 'the <tool_call> wrapper holds no arguments and is never closed');
    edits.push({ start: start, end, to: '{}', rule: 'empty-arguments' });
  } else {
    reader.read();
    reader.resolvePending();
  }
  edits.push(...body.tail);
  return { edits, tokens: reader.spans(), rootString: reader.rootString(), stray: reader.stray };
}

/** A string whose reading waits for the whole text: where it is, its escapes, and its edit's place. */
interface Pending {
  readonly at: number;
  readonly end: number;
  readonly kinds: EscapeKinds;
  readonly placeholder: Edit;
}

/**
 * The room the token list is made with: an entry for every 8 characters of the text (a Python
 * repr of records has one for every 12), at most 65,536 (256 KB). Filled in place, a list made
 * with room costs 2% fewer instructions a repair than one grown by pushes (cachegrind, the
 * bench's broken calls).
 */
const TOKEN_ROOM_SHIFT = 3;
const TOKEN_ROOM_MAX = 1 << 16;

class Reader implements AfterContext {
  /** The string and number tokens read so far, in its first `count` entries. */
  private readonly tokens: TokenSpans;
  private count = 0;
  readonly source: Source;
  private readonly body: string;
  readonly edits: Edit[];
  private readonly quoted = new QuotedString();
  private i = 0;
  /** True once the text has shown it is a Python literal (a single-quoted string, `True`, `False`, `None`). */
  private python = false;
  /** Strings whose escapes only a Python text reads, decided once the whole text is read. */
  private readonly pending: Pending[] = [];
  /** Where the root value starts when it is a string. */
  private rootStringAt = -1;
  /** The last closing bracket read (-1 for none): when `after()` reads it, the root container's, which closes last. */
  rootClose = -1;
  /**
   * The closing brackets (positions in the text, at most `MAX_READINGS` of them) that, dropped
   * instead of an extra one after the root, give another value each: each closes a container
   * whose every enclosing container, the root included, is of its kind, and a member follows it
   * in its parent (that member would move in).
   */
  readonly shifted: number[] = [];
  /** The extra closing bracket after the root and the others that may be the extra one, when there are such. */
  stray: StrayReadings | undefined;
  /** What may follow the root value (see `Body.after`). */
  readonly allowed: Body['after'];

  constructor(source: Source, edits: Edit[], allowed: Body['after']) {
    this.allowed = allowed;
    this.source = source;
    this.body = source.body;
    this.edits = edits;
    this.tokens = new Array<number>(Math.min(source.body.length >> TOKEN_ROOM_SHIFT, TOKEN_ROOM_MAX));
  }

  /** The string and number tokens of the text (see `TokenSpans`), once it is read. */
  spans(): TokenSpans {
    this.tokens.length = this.count;
    return this.tokens;
  }

  read(): void {
    const body = this.body;
    const source: Source = this.source;
    /** Per open container: true for an array. */
    const open: boolean[] = [];
    /** How many open containers, from the root in, are of the root's kind. */
    let uniform = 0;
    /** Where the container just closed was closed, when it and every container around it are of the root's kind, else -1. */
    let chainClose = -1;
    this.skip();
    refuseMarkup(source, this.i);
    refuseCallId(source, this.i);
    for (;;) {
      this.skip();
      if (this.i >= body.length) source.cut(this.i, open.length === 0 ? 'the text ends before any value' : 'the text ends where a value must follow');
      const code = body.charCodeAt(this.i);
      if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        const isArray = code === OPEN_BRACKET;
        this.i++;
        this.skip();
        if (body.charCodeAt(this.i) === (isArray ? 0x5d : 0x7d)) {
          this.i++;
          this.rootClose = isArray ? 0x5d : 0x7d;
        } else {
          if (open.length === uniform && (uniform === 0 || open[0] === isArray)) uniform++;
          open.push(isArray);
          if (!isArray) this.key();
          continue;
        }
      } else {
        const wasRoot = open.length === 0;
        this.scalar(wasRoot);
      }
      // After a value: close containers, or move on to the next member.
      for (;;) {
        this.skip();
        if (open.length === 0) {
          if (this.i < body.length) readAfter(this, this.i);
          else if (this.allowed === 'wrapper') source.fail(this.i, 'the <tool_call> wrapper opened before the arguments is never closed: refused. Send the arguments alone, as one JSON object');
          return;
        }
        if (this.i >= body.length) source.cut(this.i, `the text ends inside an ${open[open.length - 1] ? 'array' : 'object'}`);
        const isArray = open[open.length - 1]!;
        const closing = isArray ? 0x5d : 0x7d;
        let next = body.charCodeAt(this.i);
        // A comma here that does not lead to a member is a trailing one: the container's bracket,
        // dropped, would leave two commas in a row (no second reading).
        const trailing = next === 0x2c;
        if (trailing) {
          const comma = this.i;
          // Comments after the comma are recorded before it is known to be trailing: its edit goes before theirs.
          const before = this.edits.length;
          this.i++;
          this.skip();
          if (this.i >= body.length) source.cut(this.i, `the text ends inside an ${isArray ? 'array' : 'object'}`);
          next = body.charCodeAt(this.i);
          if (next !== closing) {
            // A member after a container of the chain: dropping that container's bracket instead would move it in.
            if (chainClose !== -1 && this.shifted.length < MAX_READINGS) this.shifted.push(this.source.offset + chainClose);
            chainClose = -1;
            if (!isArray) this.key();
            break;
          }
          this.edit(comma, comma + 1, '', 'trailing-comma', before);
        }
        if (next !== closing) {
          refuseMarkup(source, this.i);
          source.fail(this.i, `Expected ',' or '${isArray ? ']' : '}'}' but got ${source.describe(this.i)}`);
        }
        const depth = open.length - 1;
        chainClose = depth > 0 && depth < uniform && !trailing ? this.i : -1;
        if (uniform > depth) uniform = depth;
        open.pop();
        this.i++;
        this.rootClose = closing;
      }
    }
  }

  /** Reads a key and its colon (white space and comments before it already skipped); the value follows. */
  private key(): void {
    const body = this.body;
    const source: Source = this.source;
    const at = this.i;
    if (at >= body.length) source.cut(at, 'the text ends where a key must follow');
    let bare: string | undefined;
    if (opensString(body, at)) {
      this.string(at);
    } else {
      refuseEscapedQuote(source, at);
      const end = wordEnd(body, at);
      refuseKeyValue(source, at, end);
      if (end === -1) {
        refuseMarkup(source, at);
        source.fail(at, `Expected an object key but got ${source.describe(at)}`);
      }
      // An identifier holds nothing JSON escapes.
      bare = body.slice(at, end);
      const json = `"${bare}"`;
      this.edit(at, end, json, 'unquoted-key', undefined, 'bare');
      this.token(at, end, true);
      this.i = end;
    }
    this.skip();
    if (this.i >= body.length) source.cut(this.i, 'the text ends after a key');
    const colon = this.i;
    if (body.charCodeAt(colon) === 0x3d && !EQUALS_OTHER.test(body[colon + 1] ?? '')) {
      // `"path"= "a"`: `=` between a key and its value, where nothing else reads (`==` and `=>` are refused).
      this.edit(colon, colon + 1, ':', 'equals-colon');
    } else if (body.charCodeAt(colon) !== 0x3a) {
      refuseMarkup(source, colon);
      if (bare !== undefined && body.charCodeAt(colon) === 0x22) source.fail(at, `the key ${bare} is missing its opening quote (${bare}" is written where a key must be): refused. Write every key in double quotes`);
      source.fail(colon, `Expected ':' but got ${source.describe(colon)}`);
    }
    this.i++;
  }

  /** Reads a string, number or literal at `this.i`. */
  private scalar(root: boolean): void {
    const body = this.body;
    const source: Source = this.source;
    const at = this.i;
    if (opensString(body, at)) {
      if (root) this.rootStringAt = at;
      this.string(at);
      return;
    }
    const code = body.charCodeAt(at);
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const end = numberEnd(source, at);
      this.token(at, end, false);
      this.i = end;
      return;
    }
    const end = wordEnd(body, at);
    if (end === -1) {
      refuseMarkup(source, at);
      refuseEscapedQuote(source, at);
      source.fail(at, `Unexpected character ${source.describe(at)}`);
    }
    const python = literalWord(source, at, end);
    if (python !== undefined) {
      this.edit(at, end, python, 'python-literal');
      this.python = true;
    }
    this.i = end;
  }

  /** Reads a string token at `at`, recording it and its rewriting (or its pending reading). */
  private string(at: number): void {
    const quoted = this.quoted;
    quoted.read(this.source, at);
    const { end } = quoted;
    if (quoted.python) this.python = true;
    if (quoted.pending !== 0) {
      const placeholder: Edit = { start: at, end, to: '', rule: 'quotes' };
      this.edits.push(placeholder);
      this.pending.push({ at, end, kinds: quoted.pending, placeholder });
    } else if (quoted.requoted) {
      this.rewrite(at, end);
    }
    this.token(at, end, true);
    this.i = end;
  }

  /** Records the rewriting of the string token the quoted-string reader decided last, at `index` of the edits. */
  private rewrite(at: number, end: number, index?: number): void {
    const { json, escapes, rules } = this.quoted;
    this.edit(at, end, json, rules[0]!, index, escapes, rules.length > 1 ? rules.slice(1) : undefined);
  }

  /** Decides the strings whose reading waited for the whole text, now that it is known whether it is a Python literal. */
  resolvePending(): void {
    for (const { at, end, kinds, placeholder } of this.pending) {
      this.quoted.resolve(this.source, at, end, kinds, this.python);
      const index = this.edits.indexOf(placeholder);
      this.edits.splice(index, 1);
      if (this.quoted.requoted) this.rewrite(at, end, index);
    }
  }

  /** The decoded value when the whole text is one string, else `undefined`. */
  rootString(): string | undefined {
    const at = this.rootStringAt;
    if (at === -1) return undefined;
    const start = this.source.offset + at;
    // Only the root string's own rewriting starts where it does (every other edit starts at another character).
    const edit = this.edits.find((e) => e.start === start);
    return JSON.parse(edit === undefined ? this.body.slice(at, this.quoted.end) : edit.to) as string;
  }

  /** Records a string or number token at `start`..`end` of the body (see `TokenSpans`). */
  private token(start: number, end: number, isString: boolean): void {
    const offset = this.source.offset;
    const count = this.count;
    this.tokens[count] = offset + start;
    this.tokens[count + 1] = isString ? offset + end : -(offset + end);
    this.count = count + 2;
  }

  /** Skips white space and comments (recording the comments). */
  private skip(): void {
    this.i = skipLayout(this.source, this.i, this);
  }

  /**
   * Records an edit, at `index` of the list (the end by default), so the list stays in text
   * order; `escapes` when it writes a string or key token whole, `also` for the further rules it applies.
   */
  edit(start: number, end: number, to: string, rule: SyntaxRule, index?: number, escapes?: Escapes, also?: readonly SyntaxRule[]): void {
    const offset = this.source.offset;
    // One shape for every edit (no spread): the check reads thousands of them.
    const edit: Edit = { start: offset + start, end: offset + end, to, rule, escapes, also };
    if (index === undefined) this.edits.push(edit);
    else this.edits.splice(index, 0, edit);
  }
}
