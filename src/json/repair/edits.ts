/**
 * Edits of a syntax repair: what the reader decided to rewrite, as spans of the input, applied in
 * one pass that copies every other character as it is, and summarised as one change per rule.
 */

/** The rule behind a syntax repair (whole-text repairs, reported at path `""`). */
export type SyntaxRule =
  | 'code-fence'
  | 'bom'
  | 'comment'
  | 'trailing-comma'
  | 'quotes'
  | 'unquoted-key'
  | 'python-literal'
  | 'empty-arguments'
  | 'double-encoded';

/** One span of the input text and what it becomes. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly to: string;
  readonly rule: SyntaxRule;
}

/**
 * A syntax repair as reported: one per rule that fired, at path `""`, with the first place it
 * fired (`from`, as written) and what that became (`to`).
 */
export interface SyntaxChange {
  readonly path: '';
  readonly from: string;
  readonly to: string;
  readonly rule: SyntaxRule;
}

/** `text` with every edit applied; `edits` are in text order and never overlap. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const pieces: string[] = [];
  let copied = 0;
  for (const edit of edits) {
    pieces.push(text.slice(copied, edit.start), edit.to);
    copied = edit.end;
  }
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** One change per rule, in the order the rules first fired. */
export function summarizeEdits(text: string, edits: readonly Edit[]): SyntaxChange[] {
  const changes: SyntaxChange[] = [];
  // A handful of rules at most: a scan of the changes beats a Set.
  for (const edit of edits) {
    if (changes.some((change) => change.rule === edit.rule)) continue;
    changes.push({ path: '', from: text.slice(edit.start, edit.end), to: edit.to, rule: edit.rule });
  }
  return changes;
}
