/**
 * Syntax repair: a model's argument text in, strict JSON text and the list of repairs out, or a
 * typed refusal. Only texts with exactly one reading are repaired; a cut-off text is refused as
 * truncated before anything is repaired, and every repair is checked to keep every string and
 * number token of the input, in order.
 */
import { applyEdits, summarizeEdits, type SyntaxChange } from './edits.js';
import { checkTokensKept } from './preserve.js';
import { readTolerant, type Reading } from './reader.js';
import { decodeOnce, opensOverEscaped, quotesUnescaped } from './over-escaped.js';
import { AmbiguousTextError, strayBracketError } from './readings.js';
import { ArgsParseError, locate } from '../errors.js';

export type { SyntaxChange, SyntaxRule } from './edits.js';

/** Strict JSON text made from a model's text, and what was repaired to make it. */
export interface SyntaxRepair {
  /** Strict JSON: the input itself when it already was and nothing was unwrapped. */
  readonly text: string;
  /** One change per rule that fired, at path `""`, in the order the rules first fired. */
  readonly changes: readonly SyntaxChange[];
}

const NONE: readonly SyntaxChange[] = Object.freeze([]);

/** The syntax rules that have switches of their own (see `LenientRules`). */
export interface TextRules {
  /** A serving engine's markup around complete arguments is dropped (`engines.ts`). */
  readonly markup: boolean;
  /** Arguments whose every quote is escaped once too many are decoded once (`over-escaped.ts`). */
  readonly overEscaped: boolean;
}

/** Every switched syntax rule on. */
export const ALL_TEXT_RULES: TextRules = Object.freeze({ markup: true, overEscaped: true });

/**
 * Repairs the syntax of argument text: a code fence, a byte-order mark, comments, trailing
 * commas, single and typographic quotes, unquoted keys, Python `True`/`False`/`None`, blank text
 * (`{}`), and an object's text double-encoded as a JSON string. Valid JSON comes back as the very
 * same string (unless it is a string holding an object's text).
 *
 * @param text - The arguments as the model wrote them.
 * @returns `{ text, changes }`.
 * @throws {ArgsParseError} With `truncated: true` when the text was cut off (it is never
 *   completed); without it when the text has no single reading: two values back to back, `NaN`,
 *   `Infinity`, `undefined`, prose around the arguments other than a code fence.
 * @example
 * repairJsonText("{'path': 'a.py', 'recursive': True}").text // '{"path": "a.py", "recursive": true}'
 */
export function repairJsonText(text: string, rules: TextRules = ALL_TEXT_RULES): SyntaxRepair {
  if (rules.overEscaped && opensOverEscaped(text)) {
    const decoded = overEscaped(text, rules);
    if (decoded !== undefined) return decoded;
  }
  const reading = readTolerant(text, rules.markup);
  const repaired = repairedText(text, reading);
  const changes = reading.edits.length === 0 ? NONE : summarizeEdits(text, reading.edits);
  const inner = reading.rootString === undefined ? undefined : unwrapObjectText(reading.rootString, rules.markup);
  if (inner === undefined) return { text: repaired, changes };
  const unwrapped: SyntaxChange = { path: '', from: repaired, to: inner.text, rule: 'double-encoded' };
  return { text: inner.text, changes: [...changes, unwrapped, ...inner.changes] };
}

/**
 * `text` with the reading's edits applied, checked to keep every token.
 *
 * @throws {AmbiguousTextError} When the reading has a second one that gives another value.
 */
function repairedText(text: string, reading: Reading): string {
  const repaired = applyEdits(text, reading.edits);
  if (repaired !== text) checkTokensKept(text, repaired, reading.tokens, reading.edits);
  if (reading.stray !== undefined) throw strayBracketError(text, reading.edits, reading.stray);
  return repaired;
}

/**
 * Over-escaped arguments (see `over-escaped.ts`) decoded once and repaired, or `undefined` when
 * the text does not decode (the reader then refuses it, naming the escaped quote).
 *
 * @throws {AmbiguousTextError} When the text with only its quotes unescaped reads too, as another value.
 * @throws {ArgsParseError} When the decoded text is cut off, or has no single reading.
 */
function overEscaped(text: string, rules: TextRules): SyntaxRepair | undefined {
  const decoded = decodeOnce(text);
  if (decoded === undefined) return undefined;
  const inner = { ...rules, overEscaped: false };
  const repaired = repairJsonText(decoded, inner);
  const other = quotesUnescaped(text);
  let second: string | undefined;
  try {
    second = repairJsonText(other, inner).text;
  } catch {
    second = undefined;
  }
  if (second !== undefined && JSON.stringify(JSON.parse(second)) !== JSON.stringify(JSON.parse(repaired.text))) {
    const reason = 'every quote is escaped once too many (\\"), and the other backslashes read two ways: decoded once with the quotes (a \\n a line break) or as written (a backslash and an n)?: refused. Send the arguments as plain JSON, each string in plain double quotes';
    throw new AmbiguousTextError(reason, text, 0, [repaired.text, second]);
  }
  return { text: repaired.text, changes: [{ path: '', from: text, to: decoded, rule: 'over-escaped' }, ...repaired.changes] };
}

/** The object a string's content is the text of (repaired once more), or `undefined`. */
function unwrapObjectText(content: string, markup: boolean): SyntaxRepair | undefined {
  const trimmed = content.trim();
  if (trimmed[0] !== '{' || trimmed[trimmed.length - 1] !== '}') return undefined;
  try {
    // Trimmed, the content starts with `{`: read at all, it reads as an object, never as a root string.
    const reading = readTolerant(content, markup);
    const repaired = repairedText(content, reading);
    return { text: repaired, changes: reading.edits.length === 0 ? NONE : summarizeEdits(content, reading.edits) };
  } catch {
    return undefined;
  }
}

/**
 * The truncation verdict on a text that strict parsing refused: the cut-off error when the text
 * ends where more must follow, else `undefined`.
 */
export function truncationOf(text: string): ArgsParseError | undefined {
  try {
    readTolerant(text, false);
  } catch (error) {
    if (error instanceof ArgsParseError && error.truncated) return error;
  }
  return undefined;
}

/**
 * A strict parser's error on argument text, marked `truncated` (its reason and position kept)
 * when the text was cut off; any other error as it is. The strict scanner's errors always have a
 * position; one without is placed at the end of the text, where a cut-off text ends.
 */
export function markTruncation(text: string, error: unknown): unknown {
  if (!(error instanceof ArgsParseError) || truncationOf(text) === undefined) return error;
  return new ArgsParseError(error.reason, locate(text, error.position ?? text.length), true);
}
