/**
 * Texts with more than one reading. The reader proposes; when two readings give two values, the
 * text is refused with both named (`AmbiguousTextError`), each as the strict JSON it would be, so
 * a caller that knows more (the tool's schema) can tell them apart. Today one rule has a second
 * reading to give: an extra closing bracket after the root, when another bracket of its kind
 * could be the extra one instead (`{"a": {"b": 1}, "c": 2}}`: `c` beside `a`, or inside it).
 */
import { ArgsParseError, locate } from '../errors.js';
import { applyEdits, type Edit } from './edits.js';

/**
 * The most readings an ambiguity lists: past them, the text is refused without its readings (no
 * caller is asked to choose among so many).
 */
export const MAX_READINGS = 8;

/** An extra closing bracket after the root, and the others that, each dropped instead, give another value. */
export interface StrayReadings {
  /** Where the last bracket is, in the text as given. */
  readonly last: number;
  /**
   * Where the others are (at most `MAX_READINGS`, and then maybe more): each closes a container
   * whose next member would move into it.
   */
  readonly others: readonly number[];
}

/**
 * Thrown when a text has more than one reading and they give different values: the repair is
 * refused, and `readings` holds each one as strict JSON text, the first the one written before the
 * bracket or escape in question.
 */
export class AmbiguousTextError extends ArgsParseError {
  /** The readings, each as strict JSON text (at least two; none when there are too many to list). */
  readonly readings: readonly string[];

  constructor(reason: string, text: string, position: number, readings: readonly string[]) {
    super(reason, locate(text, position));
    this.name = 'AmbiguousTextError';
    this.readings = readings;
  }
}

/**
 * The readings of a text that ends in an extra closing bracket: `edits` (the last bracket dropped)
 * and the same edits with each other bracket dropped instead, each applied, and the error that
 * refuses them, naming the first two (with no readings when there are more than `MAX_READINGS`).
 */
export function strayBracketError(text: string, edits: readonly Edit[], stray: StrayReadings): AmbiguousTextError {
  const { last, others } = stray;
  const readings = [applyEdits(text, edits)];
  for (const other of others) {
    const second = edits.filter((edit) => edit.start !== last);
    // No edit covers a bracket: the other bracket's deletion goes before the first edit after it.
    const at = second.findIndex((edit) => edit.start > other);
    second.splice(at === -1 ? second.length : at, 0, { start: other, end: other + 1, to: '', rule: 'stray-bracket' });
    readings.push(applyEdits(text, second));
  }
  const where = locate(text, others[0]!);
  const more = others.length === 1 ? '' : `, and ${others.length === MAX_READINGS ? '' : `${others.length - 1} `}more`;
  const reason = `one ${JSON.stringify(text[last])} too many: the last one, or the one at line ${where.line} column ${where.column}${more} (what follows it then moves into what it closes)?: refused. Send the arguments with each bracket closing one container`;
  return new AmbiguousTextError(reason, text, last, others.length === MAX_READINGS ? [] : readings);
}
