/**
 * The envelope around a model's arguments: a leading byte-order mark and a Markdown code fence
 * (with or without a language), found before the body is read, so the reader reads only what is
 * inside and every position it names is still one of the text as given.
 */
import type { Edit } from './edits.js';
import { Source } from './source.js';

const FENCE_OPEN = /[ \t\r\n]*```[\w.+-]*[ \t]*(?:\r?\n)?/y;
const FENCE_TAIL = /^[ \t\r\n]*$/;

/** Where the body of a text lies inside its envelope. */
export interface Body {
  readonly start: number;
  /** Where the body ends: before a closing fence and the white space before it, else the text's end. */
  readonly end: number;
}

/**
 * Finds the body of `text` inside its envelope, and records the edits that drop what opens it (a
 * byte-order mark, an opening fence). A closing fence, from `end` to the text's end, is the
 * caller's to drop, after the body's own edits.
 *
 * @throws {ArgsParseError} Cut off when a fence opens and never closes; refused when text follows
 *   the closing fence.
 */
export function findBody(text: string, edits: Edit[]): Body {
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
  return { start, end };
}
