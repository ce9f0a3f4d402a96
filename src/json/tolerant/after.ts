/**
 * What may follow a complete root value: under the `markup` rule one engine's end tokens, or the
 * closing tag of a wrapper opened before the value, dropped; one closing bracket (`]` or `}`, of
 * either kind) after a root container, with nothing after it, dropped (`stray-bracket`, with the
 * other brackets that could be the extra one); another value, markup that is no whole sequence,
 * prose or anything else refused, naming it.
 */
import type { Edit, SyntaxRule } from './edits.js';
import type { Body } from './envelope.js';
import { engineEndAt, wrapperCloseAt } from './engines.js';
import { skipLayout, type EditSink } from './layout.js';
import { refuseAfter, refuseMarkup } from './markup.js';
import { opensString } from './quoted.js';
import type { StrayReadings } from './readings.js';
import type { Source } from './source.js';

/** The reader's state `readAfter` reads and writes. */
export interface AfterContext extends EditSink {
  readonly source: Source;
  readonly edits: Edit[];
  /** What may follow the root value (see `Body.after`). */
  readonly allowed: Body['after'];
  /** The bracket that closed the root container (-1 when the root is no container). */
  readonly rootClose: number;
  /** The closing brackets that, dropped instead of an extra one, give another value each. */
  readonly shifted: readonly number[];
  stray: StrayReadings | undefined;
  edit(start: number, end: number, to: string, rule: SyntaxRule, index?: number): void;
}

/**
 * Reads what follows the root value from `at` (white space and comments before it skipped) to the
 * body's end, recording what it drops.
 *
 * @throws {ArgsParseError} For anything it does not drop.
 */
export function readAfter(context: AfterContext, at: number): void {
  const { source, allowed } = context;
  const body = source.body;
  const closing = allowed === 'wrapper' ? wrapperCloseAt(body, at) : allowed === 'end-tokens' && engineEndAt(body, at) !== undefined;
  if (closing) {
    context.edit(at, body.length, '', allowed === 'wrapper' ? 'call-wrapper' : 'end-tokens');
    return;
  }
  const code = body.charCodeAt(at);
  if (context.rootClose !== -1 && (code === 0x5d || code === 0x7d)) {
    // Comments after it are recorded first: its edit goes before theirs.
    const before = context.edits.length;
    if (skipLayout(source, at + 1, context) >= body.length) {
      // Of the root's kind, it could close the root, and the root's own bracket, or another, be the extra one.
      if (code === context.rootClose && context.shifted.length !== 0) context.stray = { last: source.offset + at, others: context.shifted };
      context.edit(at, at + 1, '', 'stray-bracket', before);
      return;
    }
    source.fail(at, `Unexpected ${source.describe(at)} after the arguments`);
  }
  refuseAfter(source, at, allowed === 'wrapper');
  if (code === 0x7b || code === 0x5b || opensString(body, at)) source.fail(at, 'a second value follows the first one (two values back to back)');
  refuseMarkup(source, at);
  source.fail(at, `Unexpected ${source.describe(at)} after the arguments`);
}
