/**
 * The envelope around a model's arguments: a leading byte-order mark, under the `markup` rule what
 * a serving engine leaves around them (`engines.ts`: a closed reasoning block, the Hermes
 * `<tool_call>` wrapper, a bare `json` tag line, end tokens after a closing fence), and a Markdown
 * code fence (with or without a language), found before the body is read, so the reader reads
 * only what is inside and every position it names is still one of the text as given.
 */
import type { Edit } from './edits.js';
import { engineEndAt, readOpening, skipBlank, wrapperCloseAt } from './engines.js';
import { Source } from './source.js';

const FENCE_OPEN = /[ \t\r\n]*```[\w.+-]*[ \t]*(?:\r?\n)?/y;
const FENCE_TAIL = /^[ \t\r\n]*$/;

/** Where the body of a text lies inside its envelope. */
export interface Body {
  readonly start: number;
  /** Where the body ends: before a closing fence and the white space before it, else the text's end. */
  readonly end: number;
  /**
   * What may follow the root value inside the body: nothing (`none`), one engine's end tokens
   * (`end-tokens`, under the `markup` rule), or the Hermes wrapper's closing tag, which must
   * (`wrapper`: the wrapper opened and no fence closed it).
   */
  readonly after: 'none' | 'end-tokens' | 'wrapper';
  /** The edits that drop what follows the body (a closing fence, and end tokens or a closing tag after it), in order. */
  readonly tail: readonly Edit[];
}

/**
 * Finds the body of `text` inside its envelope, and records the edits that drop what opens it (a
 * byte-order mark, an engine's opening markup, an opening fence). What follows the body (`tail`:
 * a closing fence, with the end tokens or the closing tag after it) is the caller's to drop, after
 * the body's own edits.
 *
 * @param markup - The `markup` rule is on.
 * @throws {ArgsParseError} Cut off when a fence opens and never closes; refused when text follows
 *   the closing fence (other than one engine's end tokens, or the wrapper's closing tag).
 */
export function findBody(text: string, edits: Edit[], markup: boolean): Body {
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    edits.push({ start: 0, end: 1, to: '', rule: 'bom' });
    start = 1;
  }
  let wrapper = false;
  if (markup) {
    const opening = readOpening(text, start, (from, to, rule) => edits.push({ start: from, end: to, to: '', rule }));
    start = opening.at;
    wrapper = opening.wrapper;
  }
  let end = text.length;
  FENCE_OPEN.lastIndex = start;
  if (FENCE_OPEN.test(text)) {
    const open = FENCE_OPEN.lastIndex;
    const close = text.lastIndexOf('```');
    const whole = new Source(text, 0, text.length);
    if (close < open) whole.cut(text.length, 'the text ends inside a code fence');
    const after = skipBlank(text, close + 3);
    if (!fenceTail(text, after, markup, wrapper)) whole.fail(close + 3, `Unexpected text after the code fence${wrapper ? ' (the </tool_call> tag closing the wrapper must follow it, alone)' : ''}`);
    edits.push({ start, end: open, to: '', rule: 'code-fence' });
    end = close;
    while (end > open && FENCE_TAIL.test(text[end - 1]!)) end--;
    const tail: Edit[] = [{ start: end, end: after, to: '', rule: 'code-fence' }];
    if (after < text.length) tail.push({ start: after, end: text.length, to: '', rule: wrapper ? 'call-wrapper' : 'end-tokens' });
    return { start: open, end, after: 'none', tail };
  }
  return { start, end, after: wrapper ? 'wrapper' : markup ? 'end-tokens' : 'none', tail: [] };
}

/** True when what follows a closing fence and its white space, from `at`, may: white space, and under `markup` one engine's end tokens or (and then it must) the wrapper's closing tag. */
function fenceTail(text: string, at: number, markup: boolean, wrapper: boolean): boolean {
  if (wrapper) return wrapperCloseAt(text, at);
  return at === text.length || (markup && engineEndAt(text, at) !== undefined);
}
