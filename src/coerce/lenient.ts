/**
 * Lenient conversions: a value whose JSON type no applicable schema accepts is converted to
 * one that is, behind a strict format whitelist. Format first, then conversion; every
 * candidate conversion is computed, and when they disagree the value is refused, never guessed.
 */
import { ALL_TYPES, TYPE_BITS } from '../schema/keywords.js';
import { LosslessNumber, isLosslessNumber, parseArgs } from '../json/lossless.js';
import { fitsFloat64, isJsonNumberLiteral, toIntegerLiteral } from '../json/numbers.js';
import type { PointerPath } from '../json/pointer.js';
import { isContainer } from '../json/walk-values.js';
import type { PlanNode } from '../schema/plan.js';
import type { IntegerRange } from '../json/numbers.js';
import { fitOf, judge, settle, textOf, type GateContext, type Proposal } from './gate.js';
import { exactText } from './exact-text.js';
import { holdsSeparator, splitList, trimLayout } from './separators.js';
import type { CoerceResult, LenientRules, RefusalReason } from './types.js';

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
    markup: given.markup !== false,
    overEscaped: given.overEscaped !== false,
    arrayToScalar: given.arrayToScalar !== false,
  };
}

/**
 * What lenient rules need from the walk that calls them, handed in, so that they import nothing
 * from it: the range, the report at the current path (through the gate), and a nest function.
 */
export interface LenientContext extends GateContext {
  readonly range: IntegerRange;
  /** The path of the value being decided. */
  readonly path: PointerPath;
  /** Coerces `value` against `node` on its own, at the current path, reporting nothing here yet. */
  nest(value: unknown, node: PlanNode): CoerceResult;
}

const CONTAINERS = TYPE_BITS.array | TYPE_BITS.object;
const NUMBERS = TYPE_BITS.integer | TYPE_BITS.number;

/**
 * Converts a value that the node does not accept, or refuses it: every reading the rules see is
 * proposed to the gate (`settle`), which takes one only when it is the only one the schema accepts.
 * Called only in lenient mode.
 *
 * @returns The converted value, or the value itself when refused (the refusal is recorded).
 */
export function convertLeniently(value: unknown, node: PlanNode, rules: Rules, context: LenientContext): unknown {
  const mask = node.accept;
  const at = context.path.pointer;
  const proposals: Proposal[] = [];
  const propose: Propose = (converted, rule, inner) => {
    proposals.push({ rule, path: at, value: converted, fit: inner === undefined ? 'whole' : fitOf(inner), ...(inner === undefined ? {} : { inner }) });
  };
  let failure: RefusalReason | undefined;

  if (typeof value === 'string') {
    // Layout at either end (spaces, tabs, line breaks of any script) is never part of a reading.
    const trimmed = trimLayout(value);
    const numeric = rules.strings && isJsonNumberLiteral(trimmed);
    // Where fractions are accepted the literal keeps its digits; where only whole numbers are, it
    // must be one, written as an integer.
    if (numeric && (mask & TYPE_BITS.number) === 0 && (mask & TYPE_BITS.integer) !== 0) {
      const literal = toIntegerLiteral(trimmed, context.range);
      if (literal === 'not-whole' || literal === 'out-of-range') failure = literal;
      else propose(new LosslessNumber(literal), 'string-to-integer');
    }
    if (numeric && (mask & TYPE_BITS.number) !== 0) {
      if (fitsFloat64(trimmed)) {
        const literal = node.integer ? toIntegerLiteral(trimmed, context.range) : trimmed;
        const text = literal === 'not-whole' || literal === 'out-of-range' ? trimmed : literal;
        propose(new LosslessNumber(text), 'string-to-number');
      } else {
        failure = 'out-of-range';
      }
    }
    if (rules.booleans && (mask & TYPE_BITS.boolean) !== 0) {
      if (trimmed === 'true' || trimmed === 'True' || trimmed === '1') propose(true, 'string-to-boolean');
      if (trimmed === 'false' || trimmed === 'False' || trimmed === '0') propose(false, 'string-to-boolean');
    }
    if (rules.nulls && (mask & TYPE_BITS.null) !== 0 && trimmed === 'null') propose(null, 'string-to-null');
    const parsed = rules.jsonText && (mask & CONTAINERS) !== 0 && (mask & ~(CONTAINERS | TYPE_BITS.null)) === 0
      ? parsedJsonText(trimmed, node, context)
      : undefined;
    if (parsed !== undefined) propose(parsed.value, 'json-text', parsed);
    // Text that opens like an array or object is never wrapped: `["['a']"]` would be a wrong value.
    else if (trimmed[0] !== '[' && trimmed[0] !== '{') wrapInArray(value, node, rules, context, propose, trimmed);
  } else if (typeof value === 'number' || isLosslessNumber(value)) {
    const digits = typeof value === 'number' ? String(value) : value.value;
    // Where a number is accepted (an integer), a number of the wrong kind is refused as a number,
    // never written as text. A plain number's literal is unknown: only an exact decimal is its text.
    if (rules.numbersToStrings && (mask & TYPE_BITS.string) !== 0 && (mask & NUMBERS) === 0) {
      const literal = typeof value === 'number' ? exactText(value) : digits;
      if (literal !== undefined && isJsonNumberLiteral(literal)) propose(literal, 'number-to-string');
      // An integer that may have been rounded, or an infinity, is out of range; a fraction no
      // short decimal is exactly (`0.1 + 0.2`), and NaN, have no text.
      else failure = Number.isInteger(value) || Math.abs(value as number) === Infinity ? 'out-of-range' : 'unconvertible';
    }
    if (rules.booleans && (mask & TYPE_BITS.boolean) !== 0) {
      const bit = toIntegerLiteral(digits, 'safe');
      if (bit === '1' || bit === '0') propose(bit === '1', 'number-to-boolean');
    }
    const whole = (mask & TYPE_BITS.integer) !== 0 ? toIntegerLiteral(digits, context.range) : undefined;
    if (whole === 'not-whole' || whole === 'out-of-range') failure = whole;
    wrapInArray(value, node, rules, context, propose);
  } else if (typeof value === 'boolean') {
    wrapInArray(value, node, rules, context, propose);
  }

  return settle(value, node, context, proposals, failure);
}

/** A string of JSON array or object text, parsed losslessly and coerced, when nothing inside it is refused. */
function parsedJsonText(text: string, node: PlanNode, context: LenientContext): CoerceResult | undefined {
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
  return inner.refusals.length === 0 ? inner : undefined;
}

/** The scalars being wrapped (`wrapInArray`), each with the node it is wrapped at, outermost first. */
const wrapping: [PlanNode, unknown][] = [];

/**
 * A scalar where an array is accepted becomes `[scalar]`, when its element is then not refused
 * (and never where no element is: `items: false`).
 * A string holding a list separator between two pieces of text (a comma or semicolon of any
 * script, a tab or a line break: `separators.ts`) is also a list split at it: both readings go to
 * the gate, and the split, which no rule writes, makes the value refused `ambiguous` (`"note,task"`
 * may be two values or one with a comma in it, so the model is asked for a real array).
 */
function wrapInArray(value: unknown, node: PlanNode, rules: Rules, context: LenientContext, propose: Propose, trimmed?: string): void {
  if (!rules.arrays || (node.accept & TYPE_BITS.array) === 0 || node.forbidsItem(0)) return;
  // The value wrapped again where it is being wrapped already (an array of itself, `items: {"$ref": "#"}`): no depth of arrays ends it.
  if (wrapping.some(([at, held]) => at === node && held === value)) return;
  wrapping.push([node, value]);
  let inner: CoerceResult;
  try {
    inner = nestItem(value, node, context);
  } finally {
    wrapping.pop();
  }
  propose(inner.value, 'wrap-in-array', inner);
  if (trimmed !== undefined && holdsSeparator(trimmed)) propose(splitList(trimmed), 'list-split');
}

/**
 * True when a container the node does not accept has a reading a shape rule may propose (see
 * `convertContainer`): a one-element array of a scalar (`arrayToScalar`), or an object where an
 * array is accepted (`arrays`). The walk then settles it as it leaves it, instead of refusing it
 * as it enters.
 */
export function convertsContainer(container: unknown, node: PlanNode, rules: Rules): boolean {
  if (Array.isArray(container)) return rules.arrayToScalar && container.length === 1 && !isContainer(container[0]);
  return rules.arrays && (node.accept & TYPE_BITS.array) !== 0;
}

/**
 * Settles a container the node does not accept and `convertsContainer` let through: a one-element
 * array of a scalar is read as its element (`array-to-scalar`: `[100]` for an integer,
 * `["SKILL.md"]` for a path), an object where an array of objects is accepted as the one item of
 * that array (`wrap-in-array`), when it is a valid item: every key declared by the item schema,
 * every required one given, nothing inside refused (a single-key wrapper, `{"item": {…}}`, is no
 * valid item, and is refused). The reading goes to the gate; without one the container is refused.
 *
 * @returns The reading taken, or the container itself (refused).
 */
export function convertContainer(container: unknown[] | Record<string, unknown>, node: PlanNode, context: LenientContext): unknown {
  const proposals: Proposal[] = [];
  const at = context.path.pointer;
  if (Array.isArray(container)) {
    const inner = context.nest(container[0], node);
    proposals.push({ rule: 'array-to-scalar', path: at, value: inner.value, fit: fitOf(inner), inner });
  } else {
    const inner = context.nest([container], node);
    const item = node.item(0);
    const valid = item !== null && !item.shape().open && Object.keys(container).every((key) => item.declares(key)) && item.required().every((key) => Object.hasOwn(container, key));
    proposals.push({ rule: 'wrap-in-array', path: at, value: inner.value, fit: valid ? fitOf(inner) : 'none', inner });
  }
  return settle(container, node, context, proposals);
}

/**
 * True when a one-element array at `node` may also be read as its element (`arrayToScalar`) though
 * the node accepts arrays: it accepts another type too, besides null (`anyOf: [integer, array of
 * string]`; an untyped node, which takes any value, is no such reading). The walk then asks `settleOneItem` as it enters such an array of a scalar, and the
 * text path hands such an array to the object path.
 */
export function readsItemAlone(node: PlanNode, rules: Rules): boolean {
  return rules.arrayToScalar && node.accept !== ALL_TYPES && (node.accept & TYPE_BITS.array) !== 0 && (node.accept & ~(TYPE_BITS.array | TYPE_BITS.null)) !== 0;
}

/**
 * Settles a one-element array of a scalar that the node accepts as an array but not as sent (its
 * element would be converted or refused; an integer literal restored is the same value): the
 * element read in the array and the element read alone (`array-to-scalar`) both go to the gate.
 * `[100]` under `anyOf: [integer, array of string]` is `["100"]` or `100`: refused `ambiguous`,
 * as `"5"` under `oneOf: [integer, array]` is.
 *
 * Only the refusal is new: where the element is refused in the array, the element alone is not
 * taken instead (the schema takes the array's type; the item is what it refuses).
 *
 * @returns The array as sent when the gate refused it `ambiguous`; `undefined` when the walk goes on into it.
 */
export function settleOneItem(container: readonly unknown[], node: PlanNode, context: LenientContext): { readonly value: unknown } | undefined {
  const inArray = nestItem(container[0], node, context);
  if (inArray.refusals.length === 0 && inArray.changes.every(({ rule }) => rule === 'integer-literal')) return undefined;
  const alone = context.nest(container[0], node);
  const at = context.path.pointer;
  const verdict = judge([
    { rule: inArray.changes[0]?.rule ?? 'as-sent', path: at, value: inArray.value, fit: fitOf(inArray) },
    { rule: 'array-to-scalar', path: at, value: alone.value, fit: fitOf(alone), inner: alone },
  ]);
  // The element alone may have two readings itself, one of them the array's (`"5"` is 5 or [5]): they all compete.
  const split = alone.refusals.find(({ path, reason }) => path === at && reason === 'ambiguous')?.readings;
  const readings = verdict.kind === 'ambiguous' ? verdict.readings : verdict.kind === 'take' && split !== undefined ? [verdict.proposal, ...split] : undefined;
  // Otherwise the array is walked as it is: where its element is refused in it, the element alone is not taken instead.
  if (readings !== undefined) {
    const seen = new Set<string>();
    const named = readings.map((reading) => ('to' in reading ? reading : { rule: reading.rule, path: at, to: textOf(reading.value) }));
    const distinct = named.filter(({ to }) => !seen.has(to) && seen.add(to)).map((reading, i) => (i === 0 ? reading : { ...reading, rule: 'array-to-scalar' as const }));
    context.refuse(container, node, 'ambiguous', undefined, distinct);
    return { value: container };
  }
  return undefined;
}

/**
 * `[value]` coerced at `node` (an array position), its element walked at `/0` below the current
 * path: how a scalar reads as the one item of an array.
 */
function nestItem(value: unknown, node: PlanNode, context: LenientContext): CoerceResult {
  const item = node.item(0);
  context.path.push(0);
  const inner = item === null ? undefined : context.nest(value, item);
  context.path.pop();
  return { value: [inner === undefined ? value : inner.value], changes: inner?.changes ?? [], refusals: inner?.refusals ?? [] };
}

/** Proposes a reading of the value being decided; `inner` is the coercion that made it, when one did. */
type Propose = (converted: unknown, rule: Proposal['rule'], inner?: CoerceResult) => void;
