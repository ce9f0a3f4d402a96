/**
 * The walk: visits a value once against its plan. Pure: it builds new containers only on the
 * path to a change and returns the very same reference when nothing changed. Iterative, so
 * nesting depth is bounded by memory, not by the call stack.
 */
import { copyObject, isPlainObject, setOwn } from '../json/objects.js';
import { ALL_TYPES, TYPE_BITS, typeNames } from '../schema/keywords.js';
import { convertLeniently, type Rules } from './lenient.js';
import { foldEnumCase } from './enum-case.js';
import { LosslessNumber, isLosslessNumber, stringifyArgs } from '../json/lossless.js';
import { isCanonicalInteger, isWholeLiteral, toIntegerLiteral, type IntegerRange } from '../json/numbers.js';
import { WORK_INTEGER, WORK_LENIENT, type PlanNode } from '../schema/plan.js';
import { toPointer } from '../json/pointer.js';
import type { Change, ChangeRule, Refusal, RefusalReason } from './types.js';

/** Depth from which the walk starts watching for cyclic arguments. */
const CYCLE_WATCH_DEPTH = 256;

/** The state of one coercion: options, the report, and the path of the value being decided. */
export class Session {
  readonly range: IntegerRange;
  readonly rules: Rules | null;
  readonly work: number;
  readonly changes: Change[] = [];
  readonly refusals: Refusal[] = [];
  /** Tokens from the root of the arguments to the value being decided. */
  readonly path: (string | number)[];

  constructor(range: IntegerRange, rules: Rules | null, path: (string | number)[] = []) {
    this.range = range;
    this.rules = rules;
    this.work = rules === null ? WORK_INTEGER : WORK_INTEGER | WORK_LENIENT;
    this.path = path;
  }

  /** Records a change at the current path. */
  change(from: unknown, to: unknown, rule: ChangeRule): void {
    this.changes.push({ path: toPointer(this.path), from: textOf(from), to: textOf(to), rule });
  }

  /** Records a refusal at the current path; `values` lists the allowed values when they are known. */
  refuse(value: unknown, node: PlanNode, reason: RefusalReason, values?: readonly string[]): void {
    const expected = values ?? typeNames(node.accept);
    const wanted = values !== undefined ? `expected one of ${values.join(', ')}` : expected.length === 0 ? 'no value is accepted here' : `expected ${expected.join(' or ')}`;
    const message = `${textOf(value)} at ${toPointer(this.path) || 'the root'} was left as it is: ${REASONS[reason]}; ${wanted}`;
    this.refusals.push({ path: toPointer(this.path), value, reason, expected, message });
  }

  /**
   * Walks `value` against `node` in a session of its own that starts at the current path, for
   * conversions that must see whether their inner values settle before they are taken.
   */
  nest(value: unknown, node: PlanNode): Session & { value: unknown } {
    const inner = new Session(this.range, this.rules, [...this.path]) as Session & { value: unknown };
    inner.value = walk(value, node, inner);
    return inner;
  }
}

const REASONS: Record<RefusalReason, string> = {
  'not-whole': 'it is not a whole number',
  'out-of-range': 'it is outside the supported range',
  ambiguous: 'the applicable schemas would convert it to different values',
  unconvertible: 'no safe conversion applies',
  cycle: 'the arguments contain themselves',
  unreadable: 'reading it threw an error',
};

interface Frame {
  readonly source: unknown[] | Record<string, unknown>;
  readonly node: PlanNode;
  readonly keys: string[] | null;
  index: number;
  copy: unknown[] | Record<string, unknown> | null;
}

/**
 * Coerces `value` against `node`, recording changes and refusals in `session`.
 *
 * @returns The coerced value: the same reference when nothing changed.
 */
export function walk(value: unknown, node: PlanNode | null, session: Session): unknown {
  if (node === null || (node.work & session.work) === 0) return value;
  if (!isContainer(value)) return decide(value, node, session);
  checkContainer(value, node, session);
  const frames: Frame[] = [open(value, node)];
  let onStack: Set<unknown> | null = null;
  let result: unknown = value;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { source, keys } = frame;
    const length = keys === null ? (source as unknown[]).length : keys.length;
    if (frame.index < length) {
      const token = keys === null ? frame.index : keys[frame.index]!;
      frame.index++;
      const child = keys === null ? (source as unknown[])[token as number] : (source as Record<string, unknown>)[token];
      const childNode = keys === null ? frame.node.item(token as number) : frame.node.child(token as string);
      if (childNode === null || (childNode.work & session.work) === 0) continue;
      session.path.push(token);
      if (isContainer(child)) {
        if (frames.length >= CYCLE_WATCH_DEPTH && (onStack ??= new Set(frames.map((f) => f.source))).has(child)) {
          session.refuse(child, childNode, 'cycle');
          session.path.pop();
          continue;
        }
        checkContainer(child, childNode, session);
        frames.push(open(child, childNode));
        onStack?.add(child);
        continue;
      }
      const settled = decide(child, childNode, session);
      session.path.pop();
      if (settled !== child) assign(frame, token, settled);
      continue;
    }
    frames.pop();
    onStack?.delete(source);
    const done = frame.copy ?? source;
    if (frames.length === 0) {
      result = done;
    } else {
      const parent = frames[frames.length - 1]!;
      const token = session.path.pop()!;
      if (done !== source) assign(parent, token, done);
    }
  }
  return result;
}

function open(source: unknown[] | Record<string, unknown>, node: PlanNode): Frame {
  return { source, node, keys: Array.isArray(source) ? null : Object.keys(source), index: 0, copy: null };
}

function assign(frame: Frame, token: string | number, value: unknown): void {
  if (frame.copy === null) {
    frame.copy = Array.isArray(frame.source) ? frame.source.slice() : copyObject(frame.source);
  }
  if (Array.isArray(frame.copy)) frame.copy[token as number] = value;
  else setOwn(frame.copy, token as string, value);
}

function isContainer(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) || isPlainObject(value);
}

/** In lenient mode, an array or object that no applicable schema accepts is reported. */
function checkContainer(value: unknown[] | Record<string, unknown>, node: PlanNode, session: Session): void {
  if (session.rules !== null && !accepts(node.accept, value)) session.refuse(value, node, 'unconvertible');
}

/** Decides one non-container value: integer restoration first, then lenient conversion. */
function decide(value: unknown, node: PlanNode, session: Session): unknown {
  if (isLosslessNumber(value) && node.integer) {
    if (isCanonicalInteger(value.value)) return value;
    const literal = toIntegerLiteral(value.value, session.range);
    if (literal !== 'not-whole' && literal !== 'out-of-range') {
      const restored = new LosslessNumber(literal);
      session.change(value, restored, 'integer-literal');
      return restored;
    }
    if ((node.accept & TYPE_BITS.number) !== 0) return value;
    if (literal === 'out-of-range' || session.rules === null) {
      session.refuse(value, node, literal);
      return value;
    }
  } else if (session.rules === null) {
    if (node.integer && typeof value === 'number' && !accepts(node.accept, value)) {
      session.refuse(value, node, Number.isFinite(value) ? 'not-whole' : 'out-of-range');
    }
    return value;
  }
  if (accepts(node.accept, value)) return typeof value === 'string' && session.rules?.enumCase === true ? foldEnumCase(value, node, session) : value;
  return convertLeniently(value, node, session);
}

/** True when a value's JSON type is in `mask`. Values that are not JSON are never judged. */
export function accepts(mask: number, value: unknown): boolean {
  if (mask === ALL_TYPES) return true;
  return (mask & typeBitsOf(value)) !== 0;
}

/** The kind bit of a value: a whole number is `integer`, one with a fraction `number`. */
function typeBitsOf(value: unknown): number {
  switch (typeof value) {
    case 'string': return TYPE_BITS.string;
    case 'boolean': return TYPE_BITS.boolean;
    case 'number': return Number.isInteger(value) ? TYPE_BITS.integer : TYPE_BITS.number;
    case 'bigint': return TYPE_BITS.integer;
    case 'object':
      if (value === null) return TYPE_BITS.null;
      if (Array.isArray(value)) return TYPE_BITS.array;
      if (isLosslessNumber(value)) return isWholeLiteral(value.value) ? TYPE_BITS.integer : TYPE_BITS.number;
      return isPlainObject(value) ? TYPE_BITS.object : ALL_TYPES;
    default: return ALL_TYPES;
  }
}

function textOf(value: unknown): string {
  try {
    return stringifyArgs(value);
  } catch {
    return String(value);
  }
}
