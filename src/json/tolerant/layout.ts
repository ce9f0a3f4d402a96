/**
 * What the tolerant reader skips between tokens: JSON's white space, `//` and `/* *\/` comments,
 * and `\n`, `\r`, `\t` written out where white space goes. Each comment and each written-out
 * layout escape is an edit (dropped, or the white space it spells).
 */
import type { SyntaxRule } from './edits.js';
import type { Source } from './source.js';

/** A line break (CR, LF, or the line and paragraph separators JSON5 and ECMAScript end lines at): where a line comment ends. */
const LINE_END = /[\r\n\u2028\u2029]/g;
/** The white space each escape letter spells, when a model writes `\n` out between tokens. */
const LAYOUT: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

/** Where the reader records an edit, at positions of the body. */
export interface EditSink {
  edit(start: number, end: number, to: string, rule: SyntaxRule): void;
}

/**
 * Skips white space and comments from `at` of the source's body, recording the comments and the
 * written-out layout in `sink`; returns where the next token (or the end) is.
 *
 * @throws {ArgsParseError} Cut off when the text ends inside a `/*` comment.
 */
export function skipLayout(source: Source, at: number, sink: EditSink): number {
  const body = source.body;
  let i = at;
  for (;;) {
    const code = body.charCodeAt(i);
    // Most calls stop at once, on a token: one test for the characters nothing below starts with.
    if (code > 0x20 && code !== 0x2f && code !== 0x5c) return i;
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      i++;
    } else if (code === 0x2f && body.charCodeAt(i + 1) === 0x2f) {
      // A line comment ends at CR, LF or CRLF, which is kept, or at U+2028 or U+2029, which
      // JSON does not have: it goes with the comment, as a newline.
      LINE_END.lastIndex = i;
      const end = LINE_END.test(body) ? LINE_END.lastIndex - 1 : body.length;
      const separator = body.charCodeAt(end) >= 0x2028;
      sink.edit(i, separator ? end + 1 : end, separator ? '\n' : '', 'comment');
      i = separator ? end + 1 : end;
    } else if (code === 0x5c && LAYOUT[body[i + 1]!] !== undefined) {
      // `\n`, `\r` or `\t` written out between tokens: the white space it spells.
      sink.edit(i, i + 2, LAYOUT[body[i + 1]!]!, 'escaped-layout');
      i += 2;
    } else if (code === 0x2f && body.charCodeAt(i + 1) === 0x2a) {
      const close = body.indexOf('*/', i + 2);
      if (close === -1) source.cut(i, 'the text ends inside a comment');
      sink.edit(i, close + 2, '', 'comment');
      i = close + 2;
    } else {
      return i;
    }
  }
}
