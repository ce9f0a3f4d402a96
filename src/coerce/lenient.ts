/**
 * Lenient conversions: a value whose JSON type no applicable schema accepts is converted to
 * one that is, behind a strict format whitelist. Format first, then conversion; every
 * candidate conversion is computed, and when they disagree the value is refused, never guessed.
 */
import { TYPE_BITS } from '../schema/keywords.js';
import { LosslessNumber, isLosslessNumber, parseArgs, stringifyArgs } from '../json/lossless.js';
import { fitsFloat64, isJsonNumberLiteral, toIntegerLiteral, type NotInteger } from '../json/numbers.js';
import type { PlanNode } from '../schema/plan.js';
import type { IntegerRange } from '../json/numbers.js';
import type { Change, ChangeRule, CoerceResult, LenientRules, RefusalReason } from './types.js';

/** Lenient rules with every switch decided. */
export type Rules = Required<LenientRules>;

/** Every rule on, what `lenient: true` means: made once, shared (rules are only read). */
let allRules: Rules | undefined;

/** Resolves the `lenient` option: `false`/absent is `null` (integer restoration only). */
export function resolveRules(lenient: boolean | LenientRules | undefined): Rules | null {
  if (lenient === undefined || lenient === false) return null;
  if (lenient === true) return (allRules ??= resolveRules({})!);
  const given: LenientRules = lenient;
  return {
    strings: given.strings !== false,
    booleans: given.booleans !== false,
    arrays: given.arrays !== false,
    jsonText: given.jsonText !== false,
    nulls: given.nulls !== false,
    numbersToStrings: given.numbersToStrings !== false,
    syntax: given.syntax !== false,
    enumCase: given.enumCase !== false,
    optionalNull: given.optionalNull !== false,
    unwrap: given.unwrap !== false,
    flattenedKey: given.flattenedKey !== false,
  };
}

/**
 * What lenient rules need from the walk that calls them, handed in, so that they import nothing
 * from it: the range, the report at the current path, and a nest function.
 */
export interface LenientContext {
  readonly range: IntegerRange;
  /** Records a change at the current path. */
  change(from: unknown, to: unknown, rule: ChangeRule): void;
  /** Records a refusal at the current path; `values` lists the allowed values when they are known. */
  refuse(value: unknown, node: PlanNode, reason: RefusalReason, values?: readonly string[]): void;
  /** Coerces `value` against `node` on its own, at the current path, reporting nothing here yet. */
  nest(value: unknown, node: PlanNode): CoerceResult;
  /** Adds the changes of a nested coercion whose conversion was taken. */
  adopt(changes: readonly Change[]): void;
}

interface Candidate {
  readonly value: unknown;
  readonly rule: ChangeRule;
  readonly inner?: CoerceResult;
}

const CONTAINERS = TYPE_BITS.array | TYPE_BITS.object;

/**
 * Converts a value that the node does not accept, or refuses it. Called only in lenient mode.
 *
 * @returns The converted value, or the value itself when refused (the refusal is recorded).
 */
export function convertLeniently(value: unknown, node: PlanNode, rules: Rules, context: LenientContext): unknown {
  const mask = node.accept;
  const candidates: Candidate[] = [];
  let failure: NotInteger | undefined;
  /** A string withheld from the one-element array because it holds a list separator. */
  let separated = false;

  if (typeof value === 'string') {
    const trimmed = value.trim();
    const numeric = rules.strings && isJsonNumberLiteral(trimmed);
    // Where fractions are accepted the literal keeps its digits; where only whole numbers are, it
    // must be one, written as an integer.
    if (numeric && (mask & TYPE_BITS.number) === 0 && (mask & TYPE_BITS.integer) !== 0) {
      const literal = toIntegerLiteral(trimmed, context.range);
      if (literal === 'not-whole' || literal === 'out-of-range') failure = literal;
      else candidates.push({ value: new LosslessNumber(literal), rule: 'string-to-integer' });
    }
    if (numeric && (mask & TYPE_BITS.number) !== 0) {
      if (fitsFloat64(trimmed)) {
        const literal = node.integer ? toIntegerLiteral(trimmed, context.range) : trimmed;
        const text = literal === 'not-whole' || literal === 'out-of-range' ? trimmed : literal;
        candidates.push({ value: new LosslessNumber(text), rule: 'string-to-number' });
      } else {
        failure = 'out-of-range';
      }
    }
    if (rules.booleans && (mask & TYPE_BITS.boolean) !== 0) {
      if (value === 'true' || value === 'True' || value === '1') candidates.push({ value: true, rule: 'string-to-boolean' });
      if (value === 'false' || value === 'False' || value === '0') candidates.push({ value: false, rule: 'string-to-boolean' });
    }
    if (rules.nulls && (mask & TYPE_BITS.null) !== 0 && value === 'null') {
      candidates.push({ value: null, rule: 'string-to-null' });
    }
    const parsed = rules.jsonText && (mask & CONTAINERS) !== 0 && (mask & ~(CONTAINERS | TYPE_BITS.null)) === 0
      ? parsedJsonText(trimmed, node, context)
      : undefined;
    if (parsed !== undefined) candidates.push(parsed);
    // Text that opens like an array or object is never wrapped: `["['a']"]` would be a wrong value.
    else if (trimmed[0] !== '[' && trimmed[0] !== '{') separated = wrapInArray(value, node, rules, context, candidates);
  } else if (typeof value === 'number' || isLosslessNumber(value)) {
    const literal = typeof value === 'number' ? String(value) : value.value;
    if (rules.numbersToStrings && (mask & TYPE_BITS.string) !== 0 && isJsonNumberLiteral(literal)) {
      candidates.push({ value: literal, rule: 'number-to-string' });
    }
    if (rules.booleans && (mask & TYPE_BITS.boolean) !== 0) {
      const bit = toIntegerLiteral(literal, 'safe');
      if (bit === '1' || bit === '0') candidates.push({ value: bit === '1', rule: 'number-to-boolean' });
    }
    const whole = (mask & TYPE_BITS.integer) !== 0 ? toIntegerLiteral(literal, context.range) : undefined;
    if (whole === 'not-whole' || whole === 'out-of-range') failure = whole;
    wrapInArray(value, node, rules, context, candidates);
  } else if (typeof value === 'boolean') {
    wrapInArray(value, node, rules, context, candidates);
  }

  return choose(value, node, context, candidates, failure ?? (separated ? 'ambiguous' : undefined));
}

/** Takes the single conversion there is, or refuses when there is none or they disagree. */
function choose(
  value: unknown,
  node: PlanNode,
  context: LenientContext,
  candidates: readonly Candidate[],
  failure: NotInteger | 'ambiguous' | undefined,
): unknown {
  const [first] = candidates;
  if (first === undefined) {
    context.refuse(value, node, failure ?? 'unconvertible');
    return value;
  }
  const text = stringifyArgs(first.value);
  if (candidates.some((candidate) => stringifyArgs(candidate.value) !== text)) {
    context.refuse(value, node, 'ambiguous');
    return value;
  }
  context.change(value, first.value, first.rule);
  if (first.inner !== undefined) context.adopt(first.inner.changes);
  return first.value;
}

/** A string of JSON array or object text, parsed losslessly and coerced, when nothing inside it is refused. */
function parsedJsonText(text: string, node: PlanNode, context: LenientContext): Candidate | undefined {
  if (text[0] !== '[' && text[0] !== '{') return undefined;
  let parsed: unknown;
  try {
    // Python-literal text (`['a', 'b']`, `{'dry': True}`) has one reading too.
    parsed = parseArgs(text, { repair: true });
  } catch {
    return undefined;
  }
  const kind = Array.isArray(parsed) ? TYPE_BITS.array : TYPE_BITS.object;
  if ((node.accept & kind) === 0) return undefined;
  const inner = context.nest(parsed, node);
  return inner.refusals.length === 0 ? { value: inner.value, rule: 'json-text', inner } : undefined;
}

/** A list separator: `,`, `;` or a line break. */
const SEPARATOR = /[,;\n\r]/;

/**
 * A scalar where an array is accepted becomes `[scalar]`, when its element is then not refused.
 * A string holding a list separator is never wrapped (nor split): `"note,task"` may be two values
 * or one with a comma in it, so the model is asked for a real array.
 *
 * @returns True when a string was withheld for its separator.
 */
function wrapInArray(value: unknown, node: PlanNode, rules: Rules, context: LenientContext, candidates: Candidate[]): boolean {
  if (!rules.arrays || (node.accept & TYPE_BITS.array) === 0) return false;
  if (typeof value === 'string' && SEPARATOR.test(value)) return true;
  const inner = context.nest([value], node);
  if (inner.refusals.length === 0) candidates.push({ value: inner.value, rule: 'wrap-in-array', inner });
  return false;
}
