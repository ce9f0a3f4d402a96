/** `TextEdits` to and from plain lists of edits, for tests that state edits as data. */
import { TextEditsBuilder, type TextEdits } from '../../src/coerce/text-edits.js';

/** One edit, plainly: the span `start..end` becomes `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The compact form of `list` (in order, apart). */
export function editsOf(list: readonly Edit[]): TextEdits {
  const builder = new TextEditsBuilder();
  for (const { start, end, text } of list) builder.push(start, end, text);
  return builder.build();
}

/** The edits of `edits`, one object each. */
export function listOf(edits: TextEdits | undefined): Edit[] | undefined {
  if (edits === undefined) return undefined;
  return Array.from({ length: edits.length }, (_, i) => ({ start: edits.start(i), end: edits.end(i), text: edits.text(i) }));
}
