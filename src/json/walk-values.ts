/**
 * The one walk over argument values. Every pass that visits arguments (coercion, undeclared
 * keys, renaming, `toPlainNumbers`) is this loop with its own visitor:
 * - iterative, so nesting depth costs memory, not stack;
 * - one shared path stack: a token is pushed on the way down and popped on the way up, never
 *   copied per level, so the walk is linear in depth;
 * - one copy-on-write rule: a container is copied the first time one of its children is
 *   replaced, and only containers on the path to a replacement are copied, so a walk that
 *   replaces nothing returns the very same reference.
 */
import { copyObject, isPlainObject, setOwn } from './objects.js';

/** An array or plain object: what the walk descends into. */
export type Container = unknown[] | Record<string, unknown>;

/** One step of a path: an array index or an object key. */
export type PathToken = string | number;

/** The path a walk keeps: a token pushed on the way down, popped on the way up (an array will do). */
export interface PathStack {
  push(token: PathToken): unknown;
  pop(): PathToken | undefined;
}

/**
 * What a walk does at each value. `S` is the state a value is visited in (a plan node, or
 * nothing); `child` derives a child's state from its parent's.
 */
export interface ValueVisitor<S> {
  /** The state of the child at `token` of a container in state `parent`; `undefined` leaves that child alone. */
  child(parent: S, token: PathToken): S | undefined;
  /** A value that is not a container; returns its replacement (the value itself to keep it). */
  leaf(value: unknown, state: S): unknown;
  /** A container about to be entered; `false` leaves it as it is, unvisited. */
  enter(container: Container, state: S): boolean;
  /** A container that was entered is left: `done` is it, or its copy when a child was replaced; returns its replacement. */
  leave(original: Container, done: Container, state: S): unknown;
  /** A container that is one of its own ancestors: it is left as it is, unvisited. */
  cycle(container: Container, state: S): void;
}

interface Frame<S> {
  readonly source: Container;
  readonly state: S;
  readonly keys: string[] | null;
  index: number;
  copy: Container | null;
}

/**
 * Walks `value` in `state` with `visitor`, children in key order, parents entered before their
 * children. `path` holds the tokens from the root to the value being visited while the visitor
 * runs (start it empty, or at the path of `value` in a larger value; it is left as it was given).
 * Ancestors are checked for cycles from `cycleWatchDepth` open containers on (0: always).
 *
 * @returns The walked value: the same reference when nothing was replaced.
 */
export function walkValues<S>(value: unknown, state: S, visitor: ValueVisitor<S>, path: PathStack, cycleWatchDepth: number): unknown {
  if (!isContainer(value)) return visitor.leaf(value, state);
  if (!visitor.enter(value, state)) return value;
  const frames: Frame<S>[] = [open(value, state)];
  let onStack: Set<unknown> | null = null;
  for (;;) {
    const frame = frames[frames.length - 1]!;
    const { source, keys } = frame;
    const length = keys === null ? (source as unknown[]).length : keys.length;
    if (frame.index < length) {
      const token: PathToken = keys === null ? frame.index : keys[frame.index]!;
      frame.index++;
      const childState = visitor.child(frame.state, token);
      if (childState === undefined) continue;
      const child = (source as Record<PathToken, unknown>)[token];
      path.push(token);
      if (isContainer(child)) {
        if (frames.length >= cycleWatchDepth && (onStack ??= new Set(frames.map((f) => f.source))).has(child)) {
          visitor.cycle(child, childState);
        } else if (visitor.enter(child, childState)) {
          frames.push(open(child, childState));
          onStack?.add(child);
          continue;
        }
        path.pop();
        continue;
      }
      const replaced = visitor.leaf(child, childState);
      path.pop();
      // Object.is: a NaN that stays is no change (NaN !== NaN), so the same reference comes back.
      if (!Object.is(replaced, child)) replaceChild(frame, token, replaced);
      continue;
    }
    frames.pop();
    onStack?.delete(source);
    const done = visitor.leave(source, frame.copy ?? source, frame.state);
    if (frames.length === 0) return done;
    const token = path.pop()!;
    if (done !== source) replaceChild(frames[frames.length - 1]!, token, done);
  }
}

/** True for what the walk descends into: arrays and plain objects. */
export function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || isPlainObject(value);
}

function open<S>(source: Container, state: S): Frame<S> {
  return { source, state, keys: Array.isArray(source) ? null : Object.keys(source), index: 0, copy: null };
}

/** The copy-on-write step: copies the frame's container once, then sets the child in the copy. */
function replaceChild<S>(frame: Frame<S>, token: PathToken, value: unknown): void {
  const copy = (frame.copy ??= Array.isArray(frame.source) ? frame.source.slice() : copyObject(frame.source));
  if (Array.isArray(copy)) copy[token as number] = value;
  else setOwn(copy, token as string, value);
}
