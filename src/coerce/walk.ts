/**
 * The walk: visits a value once against its plan. Pure: it builds new containers only on the
 * path to a change and returns the very same reference when nothing changed. Iterative, so
 * nesting depth is bounded by memory, not by the call stack.
 */
import { isContainer, walkValues, type Container, type PathToken, type ValueVisitor } from '../json/walk-values.js';
import { setOwn } from '../json/objects.js';
import { normalizeName } from '../json/strings.js';
import { accepts, TYPE_BITS, typeNames } from '../schema/keywords.js';
import { convertContainer, convertLeniently, convertsContainer, readsItemAlone, settleOneItem, type LenientContext, type Rules } from './lenient.js';
import { declaredHeads, proposesKey, rebuildFlattened, type ReshapeContext } from './flattened-keys.js';
import { describeReadings, previewOf, textOf, type GateContext } from './gate.js';
import { foldEnumCase } from './enum-case.js';
import { engineTokenRefusal, parameterTags, ranTogether } from './string-markup.js';
import { LosslessNumber, isLosslessNumber } from '../json/lossless.js';
import { restoreInteger, type IntegerRange } from '../json/numbers.js';
import { hasWork, WORK_INTEGER, WORK_LENIENT, type PlanNode } from '../schema/plan.js';
import { PointerPath } from '../json/pointer.js';
import type { Change, ChangeRule, CoerceResult, Reading, Refusal, RefusalReason } from './types.js';

/** Depth from which the walk starts watching for cyclic arguments. */
const CYCLE_WATCH_DEPTH = 256;

/**
 * One coercion: its options, its report, and the path of the value being decided. It is the
 * visitor of the one walk, and hands lenient rules the context they need (`LenientContext`).
 */
export class Coercion implements ValueVisitor<PlanNode>, LenientContext, ReshapeContext, GateContext {
  readonly range: IntegerRange;
  readonly rules: Rules | null;
  readonly work: number;
  readonly changes: Change[] = [];
  readonly refusals: Refusal[] = [];
  /** The path from the root of the arguments to the value being decided. */
  readonly path: PointerPath;
  /** Rules that reshape or check objects are on (`optionalNull`, `flattenedKey`, `markup`): the stacks below are kept. */
  private readonly reshaping: boolean;
  /**
   * What the gate made of the container just entered, when a shape rule proposed readings of it
   * (`convertsContainer`): its children are then not walked, and leaving it gives this value.
   */
  private settled: { readonly value: unknown } | undefined;
  /** The node of each container entered and not yet left, innermost last. */
  private readonly containers: PlanNode[] = [];
  /** Per entered container, what its leaving must do to it (`undefined`: nothing). */
  private readonly reshapes: (Reshape | undefined)[] = [];

  constructor(range: IntegerRange, rules: Rules | null, path: PointerPath = new PointerPath()) {
    this.range = range;
    this.rules = rules;
    this.work = rules === null ? WORK_INTEGER : WORK_INTEGER | WORK_LENIENT;
    this.path = path;
    this.reshaping = rules !== null && (rules.optionalNull || rules.flattenedKey || rules.markup);
  }

  /** Records a change at the current path. */
  change(from: unknown, to: unknown, rule: ChangeRule): void {
    this.changes.push({ path: this.path.pointer, from: textOf(from), to: textOf(to), rule });
  }

  /**
   * Records a refusal at the current path; `values` lists the allowed values when they are known,
   * `readings` the readings that competed (reason `ambiguous`, from the gate).
   */
  refuse(value: unknown, node: PlanNode, reason: RefusalReason, values?: readonly string[], readings?: readonly Reading[]): void {
    const expected = values ?? typeNames(node.accept);
    const wanted = values !== undefined ? `expected one of ${values.join(', ')}${moreValues(node, values.length)}` : expected.length === 0 ? 'no value is accepted here' : `expected ${expected.join(' or ')}`;
    const path = this.path.pointer;
    const why = readings === undefined ? REASONS[reason] : `it has more than one reading the schema accepts: ${describeReadings(readings, path)}`;
    const message = `${previewOf(value)} at ${path || 'the root'} was left as it is: ${why}; ${wanted}`;
    this.refusals.push({ path, value, reason, expected, message, ...(readings === undefined ? {} : { readings }) });
  }

  /**
   * Walks `value` against `node` in a coercion of its own that starts at the current path, for
   * conversions that must see whether their inner values are refused before they are taken.
   */
  nest(value: unknown, node: PlanNode): CoerceResult {
    const inner = new Coercion(this.range, this.rules, new PointerPath(this.path.pointer));
    return { value: walk(value, node, inner), changes: inner.changes, refusals: inner.refusals };
  }

  /** Adds the changes (and refusals) of a nested coercion whose reading was taken. */
  adopt(inner: CoerceResult): void {
    this.changes.push(...inner.changes);
    this.refusals.push(...inner.refusals);
  }

  /**
   * The node of a child, when it is at or above a position this coercion has work for. A key that
   * may spell a path (`todoList[0].title`) is not walked here: the gate settles it as its object is
   * left, against its other readings.
   */
  child(parent: PlanNode, token: PathToken): PlanNode | undefined {
    if (this.settled !== undefined) return undefined;
    if (typeof token === 'string' && this.rules !== null && this.rules.flattenedKey && proposesKey(parent, token)) {
      this.reshape().flat = true;
      return undefined;
    }
    const node = parent.at(token);
    return hasWork(node, this.work) ? node : undefined;
  }

  /** Decides one value that is not a container; an optional null that accepts no null is marked for removal. */
  leaf(value: unknown, node: PlanNode): unknown {
    if (value === null && this.removesNull(node)) return value;
    if (typeof value === 'string' && this.rules !== null && this.rules.markup) this.markTags(value);
    return decide(value, node, this);
  }

  /** Rule `markup`: a string of an object that holds parameter tags is checked as its object is left (`absorbed`). */
  private markTags(value: string): void {
    const key = this.path.last();
    if (typeof key !== 'string' || this.containers.length === 0) return;
    const names = parameterTags(value);
    if (names.length > 0) (this.reshape().tagged ??= []).push({ key, value, names });
  }

  /**
   * In lenient mode, an array or object that no applicable schema accepts is reported, unless a
   * shape rule may read it otherwise: the gate settles it here, and its children are not walked
   * (the reading was walked where it lands). So is a one-element array of a scalar that may also be
   * read as its element (`settleOneItem`), when the gate refuses it or takes the element.
   */
  enter(container: Container, node: PlanNode): boolean {
    if (this.rules !== null && !accepts(node.accept, container)) {
      if (convertsContainer(container, node, this.rules)) this.settled = { value: convertContainer(container, node, this) };
      else this.refuse(container, node, 'unconvertible');
    } else if (this.rules !== null && Array.isArray(container) && container.length === 1 && !isContainer(container[0]) && readsItemAlone(node, this.rules)) {
      this.settled = settleOneItem(container, node, this);
    }
    if (this.reshaping) {
      this.containers.push(node);
      this.reshapes.push(undefined);
    }
    return true;
  }

  /**
   * A container left: an object's optional nulls removed and its flattened keys rebuilt, when it
   * has any; a container a shape rule settled as it was entered, replaced by what the gate decided.
   */
  leave(_original: Container, done: Container, node: PlanNode): unknown {
    const left = this.reshaping ? this.reshaped(done, node) : done;
    const settled = this.settled;
    if (settled === undefined) return left;
    this.settled = undefined;
    return settled.value;
  }

  /** An object with its optional nulls removed and its flattened keys rebuilt (the container itself when there are none). */
  private reshaped(done: Container, node: PlanNode): unknown {
    this.containers.pop();
    const reshape = this.reshapes.pop();
    if (reshape === undefined) return done;
    let object = done as Record<string, unknown>;
    if (reshape.tagged !== undefined) this.absorbed(object, reshape.tagged, node);
    if (reshape.removed.length > 0) object = this.removeNulls(object, reshape.removed, node);
    return reshape.flat ? rebuildFlattened(object, node, this) : object;
  }

  /**
   * Rule `markup`: each string of `object` whose parameter tags name a parameter the object
   * declares and does not hold is refused `ambiguous`: the call's parameters ran together into it.
   */
  private absorbed(object: Record<string, unknown>, tagged: readonly Tagged[], node: PlanNode): void {
    for (const { key, value, names } of tagged) {
      const missing = names.filter((name) => name !== key && node.declares(name) && !Object.hasOwn(object, name));
      if (missing.length === 0) continue;
      this.path.push(key);
      this.refusals.push(ranTogether(this.path.pointer, value, missing, typeNames(node.child(key)?.accept ?? 0)));
      this.path.pop();
    }
  }

  /** Arguments that contain themselves are refused where they repeat. */
  cycle(container: Container, node: PlanNode): void {
    this.refuse(container, node, 'cycle');
  }

  /** The reshape of the innermost container entered, made on first need. */
  private reshape(): Reshape {
    const depth = this.reshapes.length - 1;
    return (this.reshapes[depth] ??= { removed: [], flat: false });
  }

  /**
   * Rule `optionalNull`: true for a `null` under an object key that is not required where no
   * applicable schema accepts null; the key is then removed as its object is left.
   */
  private removesNull(node: PlanNode): boolean {
    if (this.rules === null || !this.rules.optionalNull || accepts(node.accept, null)) return false;
    const key = this.path.last();
    const parent = this.containers[this.containers.length - 1];
    if (typeof key !== 'string' || parent === undefined || !parent.dropsNull(key)) return false;
    this.reshape().removed.push(key);
    return true;
  }

  /**
   * `object` without the optional nulls in `removed`, each reported at its path. A null is kept,
   * and decided as any other value, where removing it would hide or drop something: another key
   * names it once normalised (`thought_number` beside `thoughtNumber`), a flattened key starts
   * with it (`args` beside `args.path`), or the object would fall below its `minProperties`.
   */
  private removeNulls(object: Record<string, unknown>, removed: readonly string[], node: PlanNode): Record<string, unknown> {
    const keys = Object.keys(object);
    const marked = new Set(removed);
    const claimed = new Set<string>();
    for (const key of keys) if (!marked.has(key)) for (const name of claimedNames(key, node)) claimed.add(name);
    const gone = keys.length - marked.size < node.minProperties() ? new Set<string>() : new Set(removed.filter((key) => !claimed.has(normalizeName(key))));
    const kept: Record<string, unknown> | null = gone.size > 0 ? {} : null;
    for (const key of keys) {
      if (gone.has(key)) continue;
      if (marked.has(key)) this.keep(key, node);
      if (kept !== null) setOwn(kept, key, object[key]);
    }
    for (const key of removed) {
      if (!gone.has(key)) continue;
      this.path.push(key);
      this.changes.push({ path: this.path.pointer, from: 'null', to: '', rule: 'optional-null' });
      this.path.pop();
    }
    return kept ?? object;
  }

  /**
   * A null marked for removal and kept after all: decided at its key as any other value. No rule
   * converts a null where null is not accepted, so it stays `null` and is refused there.
   */
  private keep(key: string, node: PlanNode): void {
    this.path.push(key);
    decide(null, node.child(key)!, this);
    this.path.pop();
  }
}

/** What leaving one object does to it: the optional nulls to remove, whether it may hold flattened keys, its strings holding parameter tags. */
interface Reshape {
  readonly removed: string[];
  flat: boolean;
  tagged?: Tagged[];
}

/** A string of an object holding parameter tags (`<parameter name="…">`), under `key`. */
interface Tagged {
  readonly key: string;
  readonly value: string;
  readonly names: readonly string[];
}

const REASONS: Record<RefusalReason, string> = {
  'not-whole': 'it is not a whole number',
  'out-of-range': 'it is outside the supported range',
  ambiguous: 'the applicable schemas would convert it to different values',
  unconvertible: 'no safe conversion applies',
  cycle: 'the arguments contain themselves',
  unreadable: 'reading it threw an error',
};

/**
 * Coerces `value` against `node`, recording changes and refusals in `coercion`.
 *
 * @returns The coerced value: the same reference when nothing changed.
 */
export function walk(value: unknown, node: PlanNode | null, coercion: Coercion): unknown {
  if (!hasWork(node, coercion.work)) return value;
  return walkValues(value, node, coercion, coercion.path, CYCLE_WATCH_DEPTH);
}

/**
 * Decides one non-container value: integer restoration first, then lenient conversion. The
 * object path and the text path both decide every scalar here.
 *
 * @returns The value to write: the value itself when it stays.
 */
export function decide(value: unknown, node: PlanNode, coercion: Coercion): unknown {
  if (isLosslessNumber(value) && node.integer) {
    const literal = restoreInteger(value.value, coercion.range);
    if (literal === value.value) return value;
    if (literal !== 'not-whole' && literal !== 'out-of-range') {
      const restored = new LosslessNumber(literal);
      coercion.change(value, restored, 'integer-literal');
      return restored;
    }
    if ((node.accept & TYPE_BITS.number) !== 0) return value;
    if (literal === 'out-of-range' || coercion.rules === null) {
      coercion.refuse(value, node, literal);
      return value;
    }
  } else if (coercion.rules === null) {
    if (node.integer && typeof value === 'number' && !accepts(node.accept, value)) {
      coercion.refuse(value, node, Number.isFinite(value) ? 'not-whole' : 'out-of-range');
    }
    return value;
  }
  if (accepts(node.accept, value)) {
    if (typeof value !== 'string') return value;
    const token = coercion.rules.markup ? engineTokenRefusal(coercion.path.pointer, value, typeNames(node.accept)) : undefined;
    if (token !== undefined) {
      coercion.refusals.push(token);
      return value;
    }
    return coercion.rules.enumCase ? foldEnumCase(value, node, coercion) : value;
  }
  return convertLeniently(value, node, coercion.rules, coercion);
}

/** The names a key may stand for: its normalised spelling and, for a flattened key, each declared first name it starts with. */
function claimedNames(key: string, node: PlanNode): string[] {
  return [key, ...declaredHeads(node, key)].map(normalizeName);
}

/** `, … (N in all)` when the enum here has more members than a refusal lists (see `foldEnumCase`). */
function moreValues(node: PlanNode, listed: number): string {
  const all = node.stringEnum()?.length ?? 0;
  return all > listed ? `, … (${all.toLocaleString('en')} in all)` : '';
}
