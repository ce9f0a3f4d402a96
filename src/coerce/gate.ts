/**
 * The gate: the one place a change is decided. A rule that would change a value's text or
 * structure does not decide alone: it proposes every reading it sees (its own, the value as sent
 * where that is valid, the readings of the rules it competes with), and the gate takes a reading
 * only when every reading the schema accepts is that same one. Otherwise the value stays as sent
 * and is refused `ambiguous`, with the readings named. A new rule plugs in with one call:
 * `settle(value, node, context, proposals)` for a value, or `judge(proposals)` where the rule
 * places the result itself (a key, a wrapper).
 */
import { previewArgs, stringifyArgs } from '../json/lossless.js';
import type { PlanNode } from '../schema/plan.js';
import type { ChangeRule, CoerceResult, Reading, Refusal, RefusalReason } from './types.js';

/**
 * How far the schema takes a reading: `whole` (it and everything in it), `shape` (its structure,
 * while a value it moved is refused where it lands: a rebuilt `{"depth": "deep"}` under an
 * integer `depth`), or `none`.
 */
export type Fit = 'whole' | 'shape' | 'none';

/** One reading proposed to the gate. */
export interface Proposal {
  /** Who would write it (see `Reading.rule`): `as-sent` is no change, `list-split` is never written. */
  readonly rule: Reading['rule'];
  /** JSON Pointer to where the value would be. */
  readonly path: string;
  /** The value it gives, coerced at its position. */
  readonly value: unknown;
  readonly fit: Fit;
  /** The coercion that made `value`: its changes (and, for a `shape` fit, refusals) are adopted when it is taken. */
  readonly inner?: CoerceResult;
}

/** What the gate decided: the one reading to take, more than one (named), or none the schema takes. */
export type Verdict =
  | { readonly kind: 'take'; readonly proposal: Proposal }
  | { readonly kind: 'ambiguous'; readonly readings: readonly Reading[] }
  | { readonly kind: 'none' };

const NONE: Verdict = { kind: 'none' };

/**
 * Decides between readings: the readings the schema takes whole come first, and only when there
 * are none, those whose shape it takes. Within that tier, one reading (one place and one value)
 * is taken, unless it is one no rule writes (`list-split`); two or more are `ambiguous`.
 */
export function judge(proposals: readonly Proposal[]): Verdict {
  for (const fit of ['whole', 'shape'] as const) {
    const fitting = proposals.filter((proposal) => proposal.fit === fit);
    if (fitting.length === 0) continue;
    const readings = distinct(fitting);
    const writable = fitting.find((proposal) => proposal.rule !== 'list-split');
    if (readings.length === 1 && writable !== undefined) return { kind: 'take', proposal: writable };
    return { kind: 'ambiguous', readings };
  }
  return NONE;
}

/** The readings of `proposals`, each place and value once, in order. */
function distinct(proposals: readonly Proposal[]): Reading[] {
  const seen = new Map<string, Reading>();
  for (const { rule, path, value } of proposals) {
    const to = textOf(value);
    const at = `${path}\u0000${to}`;
    if (!seen.has(at)) seen.set(at, { rule, path, to });
  }
  return [...seen.values()];
}

/** What `settle` needs from the walk: the report at the current path. */
export interface GateContext {
  /** Records a change at the current path. */
  change(from: unknown, to: unknown, rule: ChangeRule): void;
  /** Records a refusal at the current path; `readings` names the competing readings of an `ambiguous` one. */
  refuse(value: unknown, node: PlanNode, reason: RefusalReason, values?: readonly string[], readings?: readonly Reading[]): void;
  /** Adds what the coercion of a reading taken made inside it. */
  adopt(inner: CoerceResult): void;
}

/**
 * Settles a value at the current path: takes the one reading the schema accepts (recording its
 * change), or refuses the value with `failure` when no reading fits (`unconvertible` by default),
 * or `ambiguous` with the readings when more than one does.
 *
 * @returns The value to write: the reading taken, or `value` itself.
 */
export function settle(value: unknown, node: PlanNode, context: GateContext, proposals: readonly Proposal[], failure: RefusalReason = 'unconvertible'): unknown {
  const verdict = judge(proposals);
  if (verdict.kind === 'none') {
    context.refuse(value, node, failure);
    return value;
  }
  if (verdict.kind === 'ambiguous') {
    context.refuse(value, node, 'ambiguous', undefined, verdict.readings);
    return value;
  }
  const { rule, value: taken, inner } = verdict.proposal;
  if (rule === 'as-sent') return value;
  // `judge` never takes a `list-split`: it is a reading no rule writes.
  context.change(value, taken, rule as ChangeRule);
  if (inner !== undefined) context.adopt(inner);
  return taken;
}

/** The fit of a value a rule made by coercing it at its position: `whole` when nothing in it was refused. */
export function fitOf(inner: CoerceResult): Fit {
  return inner.refusals.length === 0 ? 'whole' : 'none';
}

/** Longest preview of one reading's value in a message. */
const MAX_READING_CHARS = 80;

/**
 * The readings as a message names them: `5 (string-to-integer), [5] (wrap-in-array)`, and for a
 * reading elsewhere than `at`, its place too: `/file/path = "a.ts" (flattened-key)`.
 */
export function describeReadings(readings: readonly Reading[], at: string): string {
  return readings
    .map(({ rule, path, to }) => {
      const shown = to.length <= MAX_READING_CHARS ? to : `${to.slice(0, MAX_READING_CHARS - 1)}…`;
      return `${path === at ? '' : `${path || 'the root'} = `}${shown} (${rule})`;
    })
    .join(', ');
}

/** A refusal of a key whose readings compete: the value stays under the key as sent. */
export function keyRefusal(path: string, value: unknown, readings: readonly Reading[]): Refusal {
  const message = `${previewOf(value)} at ${path} was left as it is: its key has more than one reading the schema accepts: ${describeReadings(readings, path)}; send the value under the key you mean, nested as the schema declares it`;
  return { path, value, reason: 'ambiguous', expected: [], message, readings };
}

/** The JSON text of a value, or `String(value)` when it has none (it contains itself). */
export function textOf(value: unknown): string {
  try {
    return stringifyArgs(value);
  } catch {
    return String(value);
  }
}

/** Longest preview of a refused value in its message: the value itself is kept whole in the refusal. */
const MAX_PREVIEW_CHARS = 200;

/** A refused value as its message shows it: bounded, so refusals at every level of a deep value stay linear. */
export function previewOf(value: unknown): string {
  try {
    return previewArgs(value, MAX_PREVIEW_CHARS);
  } catch {
    return String(value);
  }
}
