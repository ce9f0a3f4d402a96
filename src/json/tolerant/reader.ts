/**
 * The tolerant reader: reads a model's argument text once, checks that it has exactly one
 * reading, and lists the edits that turn it into strict JSON, without applying any. It is the
 * truncation detector too: a text that ends where more must follow (inside a string, an escape,
 * a number, a literal, an array, an object, after a key or inside a code fence) is refused as cut
 * off before anything is repaired, and never completed. Iterative: depth costs memory, not stack.
 */
import type { Edit, Escapes, SyntaxRule } from './edits.js';
import { opensString, QuotedString, type EscapeKinds } from './quoted.js';
import { Source } from './source.js';
import type { TokenSpans } from './preserve.js';

/** What the reader found: the edits to make and every string and number token, in order. */
export interface Reading {
  readonly edits: Edit[];
  /** Where each string (keys included) and number token is in the text. */
  readonly tokens: TokenSpans;
  /** The decoded value when the whole text is one string (arguments possibly double-encoded). */
  readonly rootString: string | undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_TAIL = /(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const FENCE_OPEN = /[ \t\r\n]*```[\w.+-]*[ \t]*(?:\r?\n)?/y;
const FENCE_TAIL = /^[ \t\r\n]*$/;
/** Blank as `String.prototype.trim` sees it (the same white space), without copying the text. */
const BLANK = /^\s*$/;

const JSON_WORDS = ['true', 'false', 'null'];
const PYTHON_WORDS: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };
const REFUSED_WORDS = ['NaN', 'Infinity', 'undefined'];
const ALL_WORDS = [...JSON_WORDS, ...Object.keys(PYTHON_WORDS), ...REFUSED_WORDS];

/** A line break (CR, LF, or the line and paragraph separators JSON5 and ECMAScript end lines at): where a line comment ends. */
const LINE_END = /[\r\n\u2028\u2029]/g;
/** The white space each escape letter spells, when a model writes `\n` out between tokens. */
const LAYOUT: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };
/** The opening tags of serving engines' tool-call formats, which a tool parser turns into JSON arguments. */
const MARKUP = /<(?:\|tool_calls_section_begin\||\|tool_call_begin\||\|tool_call_argument_begin\||\|tool_call>|\|[a-z]+\|>|\/?(?:tool_call>|arg_key>|arg_value>|function=|parameter=|function_calls>|invoke[ >]|think>|minimax:|\W{1,2}DSML\W)|\uff5ctool\u2581)|\[TOOL_CALLS\]|\]<\]minimax\[>\[/y;
/** Which model family's format a text of tool-call markup is in, by the first of these tags it holds. */
const MARKUP_FORMATS: readonly (readonly [string, string])[] = [
  // MiniMax and DeepSeek's DSML wrap Anthropic-like <invoke> and <parameter> tags: named first.
  ['minimax', 'MiniMax'],
  ['DSML', 'DeepSeek DSML'],
  ['arg_key>', 'GLM'],
  ['arg_value>', 'GLM'],
  ['parameter=', 'Qwen3-Coder XML'],
  ['function=', 'Qwen3-Coder XML'],
  ['<|tool_call>', 'Gemma 4'],
  ['<|tool_call', 'Kimi K2'],
  ['\uff5ctool\u2581', 'DeepSeek'],
  ['[TOOL_CALLS]', 'Mistral'],
  ['tool_call>', 'Hermes'],
  ['function_calls>', 'Anthropic XML'],
  ['invoke', 'Anthropic XML'],
  ['think>', 'reasoning'],
  // Every Harmony tag (`<|channel|>`, `<|call|>`, …) ends so: last, after Kimi's tags and beside Gemma's `<|"|>` strings.
  ['|>', 'gpt-oss Harmony'],
];

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Reads `text` as one value in the tolerant grammar and returns the edits that make it strict
 * JSON. Blank text (inside a fence or not) reads as `{}`.
 *
 * @throws {ArgsParseError} With `truncated: true` when the text was cut off; without it when the
 *   text has no single reading (two values, `NaN`, prose around the arguments, …).
 */
export function readTolerant(text: string): Reading {
  const edits: Edit[] = [];
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    edits.push({ start: 0, end: 1, to: '', rule: 'bom' });
    start = 1;
  }
  let end = text.length;
  FENCE_OPEN.lastIndex = start;
  if (FENCE_OPEN.test(text)) {
    const open = FENCE_OPEN.lastIndex;
    const close = text.lastIndexOf('```');
    const whole = new Source(text, 0, text.length);
    if (close < open) whole.cut(text.length, 'the text ends inside a code fence');
    if (!FENCE_TAIL.test(text.slice(close + 3))) whole.fail(close + 3, 'Unexpected text after the code fence');
    edits.push({ start, end: open, to: '', rule: 'code-fence' });
    end = close;
    while (end > open && FENCE_TAIL.test(text[end - 1]!)) end--;
    start = open;
  }
  const source = new Source(text, start, end);
  const reader = new Reader(source, edits);
  if (BLANK.test(source.body)) {
    edits.push({ start: start, end, to: '{}', rule: 'empty-arguments' });
  } else {
    reader.read();
    reader.resolvePending();
  }
  if (end < text.length) edits.push({ start: end, end: text.length, to: '', rule: 'code-fence' });
  return { edits, tokens: reader.spans(), rootString: reader.rootString() };
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

class Reader {
  /** The string and number tokens read so far, in its first `count` entries. */
  private readonly tokens: TokenSpans;
  private count = 0;
  private readonly source: Source;
  private readonly body: string;
  private readonly edits: Edit[];
  private readonly quoted = new QuotedString();
  private i = 0;
  /** True once the text has shown it is a Python literal (a single-quoted string, `True`, `False`, `None`). */
  private python = false;
  /** Strings whose escapes only a Python text reads, decided once the whole text is read. */
  private readonly pending: Pending[] = [];
  /** Where the root value starts when it is a string. */
  private rootStringAt = -1;
  /** The last closing bracket read (-1 for none): when `after()` reads it, the root container's, which closes last. */
  private rootClose = -1;

  constructor(source: Source, edits: Edit[]) {
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
    this.skip();
    this.markup(this.i);
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
          if (this.i < body.length) this.after();
          return;
        }
        if (this.i >= body.length) source.cut(this.i, `the text ends inside an ${open[open.length - 1] ? 'array' : 'object'}`);
        const isArray = open[open.length - 1]!;
        const closing = isArray ? 0x5d : 0x7d;
        let next = body.charCodeAt(this.i);
        if (next === 0x2c) {
          const comma = this.i;
          // Comments after the comma are recorded before it is known to be trailing: its edit goes before theirs.
          const before = this.edits.length;
          this.i++;
          this.skip();
          if (this.i >= body.length) source.cut(this.i, `the text ends inside an ${isArray ? 'array' : 'object'}`);
          next = body.charCodeAt(this.i);
          if (next !== closing) {
            if (!isArray) this.key();
            break;
          }
          this.edit(comma, comma + 1, '', 'trailing-comma', before);
        }
        if (next !== closing) {
          this.markup(this.i);
          source.fail(this.i, `Expected ',' or '${isArray ? ']' : '}'}' but got ${source.describe(this.i)}`);
        }
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
    if (opensString(body, at)) {
      this.string(at);
    } else {
      WORD.lastIndex = at;
      if (!WORD.test(body)) {
        this.markup(at);
        source.fail(at, `Expected an object key but got ${source.describe(at)}`);
      }
      const end = WORD.lastIndex;
      // An identifier holds nothing JSON escapes.
      const json = `"${body.slice(at, end)}"`;
      this.edit(at, end, json, 'unquoted-key', undefined, 'bare');
      this.token(at, end, true);
      this.i = end;
    }
    this.skip();
    if (this.i >= body.length) source.cut(this.i, 'the text ends after a key');
    if (body.charCodeAt(this.i) !== 0x3a) {
      this.markup(this.i);
      source.fail(this.i, `Expected ':' but got ${source.describe(this.i)}`);
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
      NUMBER.lastIndex = at;
      if (!NUMBER.test(body)) {
        if (at + 1 >= body.length) source.cut(at, 'the text ends inside a number');
        // A sign before a word: the word named when it is a refused one (`-Infinity`), else a
        // bad number. Never a cut: no word a sign may lead, whole or cut off, is a JSON value.
        WORD.lastIndex = at + 1;
        if (WORD.test(body)) this.refused(at + 1, body.slice(at + 1, WORD.lastIndex));
        source.fail(at, 'Invalid number');
      }
      const end = NUMBER.lastIndex;
      NUMBER_TAIL.lastIndex = end;
      const next = body.charCodeAt(end);
      // A point or an exponent letter after the number, its tail running to the end: cut off (such a tail is never empty).
      if ((next === 0x2e || next === 0x65 || next === 0x45) && NUMBER_TAIL.test(body) && NUMBER_TAIL.lastIndex === body.length) {
        source.cut(end, 'the text ends inside a number');
      }
      this.token(at, end, false);
      this.i = end;
      return;
    }
    WORD.lastIndex = at;
    if (!WORD.test(body)) {
      this.markup(at);
      source.fail(at, `Unexpected character ${source.describe(at)}`);
    }
    this.word(at, WORD.lastIndex);
  }

  /** A bare word where a value must be: a literal, a Python literal, or a refusal. */
  private word(at: number, end: number): void {
    const body = this.body;
    const source: Source = this.source;
    const word = body.slice(at, end);
    if (JSON_WORDS.includes(word)) {
      this.i = end;
      return;
    }
    const python = PYTHON_WORDS[word];
    if (python !== undefined) {
      this.edit(at, end, python, 'python-literal');
      this.python = true;
      this.i = end;
      return;
    }
    this.refused(at, word);
    if (end >= body.length && ALL_WORDS.some((known) => known.startsWith(word))) source.cut(at, 'the text ends inside a literal');
    source.fail(at, `Unexpected text ${JSON.stringify(word.length > 20 ? `${word.slice(0, 20)}…` : word)} where a value must be`);
  }

  /** Refuses `word` at `at` by its name when it is one of the words JSON has no spelling for. */
  private refused(at: number, word: string): void {
    if (REFUSED_WORDS.includes(word)) this.source.fail(at, `${word} is not a JSON value and has no JSON spelling`);
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

  /**
   * What follows a complete root value: one closing bracket (`]` or `}`, of either kind) after a
   * root container, with nothing after it, is dropped; another value, prose or anything else is refused.
   */
  private after(): void {
    const { body, i } = this;
    const source: Source = this.source;
    const code = body.charCodeAt(i);
    if (this.rootClose !== -1 && (code === 0x5d || code === 0x7d)) {
      // Comments after it are recorded first: its edit goes before theirs.
      const before = this.edits.length;
      this.i = i + 1;
      this.skip();
      if (this.i >= body.length) {
        this.edit(i, i + 1, '', 'stray-bracket', before);
        return;
      }
      source.fail(i, `Unexpected ${source.describe(i)} after the arguments`);
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET || opensString(body, i)) {
      source.fail(i, 'a second value follows the first one (two values back to back)');
    }
    this.markup(i);
    source.fail(i, `Unexpected ${source.describe(i)} after the arguments`);
  }

  /** Refuses, naming it, serving-engine tool-call markup at `at` (arguments a tool parser should have turned into JSON). */
  private markup(at: number): void {
    MARKUP.lastIndex = at;
    const match = MARKUP.exec(this.body);
    if (match === null) return;
    const format = MARKUP_FORMATS.find(([tag]) => this.body.includes(tag))![1];
    if (format === 'reasoning') {
      this.source.fail(at, `the arguments hold the model's reasoning (${JSON.stringify(match[0])}), not JSON: the serving engine's reasoning parser did not separate it from the tool call (check its reasoning parser for this model)`);
    }
    this.source.fail(at, `the arguments are tool-call markup (${JSON.stringify(match[0])}, the ${format} format), not JSON: the serving engine's tool parser did not turn the model's tool call into JSON arguments (check its tool-call parser for this model)`);
  }

  /** Skips white space and comments (recording the comments). */
  private skip(): void {
    const body = this.body;
    let i = this.i;
    for (;;) {
      const code = body.charCodeAt(i);
      // Most calls stop at once, on a token: one test for the characters nothing below starts with.
      if (code > 0x20 && code !== 0x2f && code !== 0x5c) break;
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
        i++;
      } else if (code === 0x2f && body.charCodeAt(i + 1) === 0x2f) {
        // A line comment ends at CR, LF or CRLF, which is kept, or at U+2028 or U+2029, which
        // JSON does not have: it goes with the comment, as a newline.
        LINE_END.lastIndex = i;
        const end = LINE_END.test(body) ? LINE_END.lastIndex - 1 : body.length;
        const separator = body.charCodeAt(end) >= 0x2028;
        this.edit(i, separator ? end + 1 : end, separator ? '\n' : '', 'comment');
        i = separator ? end + 1 : end;
      } else if (code === 0x5c && LAYOUT[body[i + 1]!] !== undefined) {
        // `\n`, `\r` or `\t` written out between tokens: the white space it spells.
        this.edit(i, i + 2, LAYOUT[body[i + 1]!]!, 'escaped-layout');
        i += 2;
      } else if (code === 0x2f && body.charCodeAt(i + 1) === 0x2a) {
        const close = body.indexOf('*/', i + 2);
        if (close === -1) this.source.cut(i, 'the text ends inside a comment');
        this.edit(i, close + 2, '', 'comment');
        i = close + 2;
      } else {
        break;
      }
    }
    this.i = i;
  }

  /**
   * Records an edit, at `index` of the list (the end by default), so the list stays in text
   * order; `escapes` when it writes a string or key token whole, `also` for the further rules it applies.
   */
  private edit(start: number, end: number, to: string, rule: SyntaxRule, index?: number, escapes?: Escapes, also?: readonly SyntaxRule[]): void {
    const offset = this.source.offset;
    // One shape for every edit (no spread): the check reads thousands of them.
    const edit: Edit = { start: offset + start, end: offset + end, to, rule, escapes, also };
    if (index === undefined) this.edits.push(edit);
    else this.edits.splice(index, 0, edit);
  }
}
