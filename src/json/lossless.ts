/**
 * The lossless layer: JSON text to values whose numbers keep their literal text, and back.
 * Numbers are lossless-json's `LosslessNumber`s (the only import of lossless-json); reading and
 * writing are iterative, so nesting depth costs memory, not stack.
 */
import { LosslessNumber, isLosslessNumber } from 'lossless-json';
import { hasOwn, isPlainObject, setOwn } from './objects.js';
import { ArgsCycleError, ArgsParseError } from './errors.js';
import { decodeString, fail, scanJson, type JsonVisitor } from './scanner.js';
import { walkValues, type Container, type ValueVisitor } from './walk-values.js';
import { repairJsonText, type SyntaxChange } from './tolerant/repair.js';

export { LosslessNumber, isLosslessNumber };

/**
 * Parses JSON text into a value whose numbers are `LosslessNumber`s, so `5`, `5.0`, `1e3` and a
 * 25-digit integer all keep their spelling. Keys named `__proto__` are kept as own data.
 * Duplicate keys with different values are refused (servers disagree on which one wins);
 * identical duplicates collapse to one. Any depth of nesting is read.
 *
 * With `{ repair: true }`, text that is not JSON but has exactly one reading is repaired first
 * (a code fence, a BOM, comments, trailing commas, single and typographic quotes, unquoted keys,
 * Python `True`/`False`/`None`, blank text as `{}`, a string holding an object's text); cut-off
 * text is refused with `truncated: true`, never completed.
 *
 * @param text - JSON text, e.g. a model's tool-call `arguments` string.
 * @param options - `repair`: repair the syntax when strict parsing fails.
 * @returns The parsed value.
 * @throws {ArgsParseError} When `text` is not a string of valid (or, with `repair`, repairable)
 *   JSON; the message names the position.
 * @example
 * parseArgs('{"line":5.0}') // { line: LosslessNumber { value: '5.0' } }
 * parseArgs("{'line': 5.0}", { repair: true }) // the same
 */
export function parseArgs(text: string, options?: ParseArgsOptions): unknown {
  if (typeof text !== 'string') throw new ArgsParseError(`expected a string, got ${describe(text)}`);
  if (options?.repair === true) return parseRepaired(text, () => ALLOW_ALL).value;
  const builder = new Builder(text);
  scanJson(text, builder);
  return builder.root;
}

/** Options of `parseArgs`. */
export interface ParseArgsOptions {
  /** Repair text that is not JSON but has exactly one reading; refuse cut-off text as `truncated`. */
  readonly repair?: boolean;
}

/** A value parsed with syntax repair, the strict JSON text it was read from, and the repairs. */
export interface RepairedParse {
  readonly value: unknown;
  readonly text: string;
  readonly changes: readonly SyntaxChange[];
}

/** Which schema-dependent repairs `parseRepaired` may make. */
export interface AllowedRepairs {
  /** Blank text reads as `{}`. */
  readonly blankAsObject: boolean;
  /** A string holding an object's text reads as that object. */
  readonly unwrapObjectText: boolean;
}

const ALLOW_ALL: AllowedRepairs = { blankAsObject: true, unwrapObjectText: true };

/**
 * Parses `text` strictly, and only when that fails (or it is a string that may hold an object's
 * text) repairs its syntax and parses the repair. Valid JSON costs one parse; `allowed` is asked
 * only when a repair is in question. `strictError`, when a caller has already scanned the text
 * strictly and failed, is that failure: the text is not scanned strictly again.
 *
 * @throws {ArgsParseError} As `repairJsonText`, or the strict error when blank text may not be `{}`.
 */
export function parseRepaired(text: string, allowed: () => AllowedRepairs, strictError?: unknown): RepairedParse {
  if (strictError !== undefined) return repairFailed(text, strictError, allowed);
  let value: unknown;
  try {
    value = parseArgs(text);
  } catch (error) {
    return repairFailed(text, error, allowed);
  }
  if (typeof value === 'string' && allowed().unwrapObjectText) {
    const repaired = repairJsonText(text);
    if (repaired.text !== text) return { value: parseArgs(repaired.text), text: repaired.text, changes: repaired.changes };
  }
  return { value, text, changes: [] };
}

/** Repairs text that strict parsing refused with `error`, or throws that error when no repair applies. */
function repairFailed(text: string, error: unknown, allowed: () => AllowedRepairs): RepairedParse {
  const repaired = repairJsonText(text);
  const blank = repaired.changes.some((change) => change.rule === 'empty-arguments');
  if (repaired.text === text || (blank && !allowed().blankAsObject)) throw error;
  return { value: parseArgs(repaired.text), text: repaired.text, changes: repaired.changes };
}

/** A repeated key whose value is still being read: compared with the first one when complete. */
interface Repeat {
  readonly container: Container;
  readonly previous: unknown;
  readonly key: string;
  readonly at: number;
}

class Builder implements JsonVisitor {
  root: unknown;
  private readonly text: string;
  private readonly stack: Container[] = [];
  private readonly repeats: Repeat[] = [];
  private pendingKey = '';
  private keyAt = 0;

  constructor(text: string) {
    this.text = text;
  }

  open(isArray: boolean): void {
    const container: Container = isArray ? [] : {};
    this.add(container, true);
    this.stack.push(container);
  }

  key(key: string, start: number): void {
    this.pendingKey = key;
    this.keyAt = start;
  }

  string(start: number, end: number): void {
    this.add(decodeString(this.text, start, end));
  }

  number(start: number, end: number): void {
    this.add(new LosslessNumber(this.text.slice(start, end)));
  }

  literal(value: boolean | null): void {
    this.add(value);
  }

  close(): void {
    const container = this.stack.pop()!;
    const repeat = this.repeats[this.repeats.length - 1];
    if (repeat !== undefined && repeat.container === container) {
      this.repeats.pop();
      this.checkRepeat(repeat, container);
    }
  }

  private add(value: unknown, opening = false): void {
    const depth = this.stack.length;
    if (depth === 0) {
      this.root = value;
      return;
    }
    const parent = this.stack[depth - 1]!;
    if (Array.isArray(parent)) {
      parent.push(value);
    } else if (!hasOwn(parent, this.pendingKey)) {
      setOwn(parent, this.pendingKey, value);
    } else {
      const repeat = { container: value as Container, previous: parent[this.pendingKey], key: this.pendingKey, at: this.keyAt };
      if (opening) this.repeats.push(repeat);
      else this.checkRepeat(repeat, value);
    }
  }

  private checkRepeat(repeat: Repeat, value: unknown): void {
    if (!jsonEqual(repeat.previous, value)) fail(this.text, repeat.at, `Duplicate key '${repeat.key}'`);
  }
}

/**
 * Deep equality of parsed JSON values (object key order aside; numbers by their literal text).
 * Iterative, as the parse is: a repeat nested deeper than the stack is compared too.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: [unknown, unknown][] = [[a, b]];
  while (pairs.length > 0) {
    const [x, y] = pairs.pop()!;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pairs.push([x[i], y[i]]);
    } else if (isPlainObject(x)) {
      if (!isPlainObject(y)) return false;
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const key of keys) {
        if (!hasOwn(y, key)) return false;
        pairs.push([x[key], y[key]]);
      }
    } else if (isLosslessNumber(x)) {
      if (!isLosslessNumber(y) || x.value !== y.value) return false;
    } else if (x !== y) {
      return false;
    }
  }
  return true;
}

/**
 * Serialises a value as compact JSON text, writing every `LosslessNumber` exactly as spelled
 * and every `bigint` as its digits. Everything else is written as `JSON.stringify` writes it
 * (`toJSON` is honoured; `undefined`, functions and symbols are left out of objects and are
 * `null` in arrays). Any depth of nesting is written.
 *
 * @param value - The value to write, typically from `parseArgs` or a coercion.
 * @returns The JSON text; `undefined`, functions and symbols at the top level give `"null"`.
 * @throws {ArgsCycleError} When the value contains itself (a cyclic object).
 * @example
 * stringifyArgs(parseArgs('{"a":1.50,"b":12345678901234567890}')) // '{"a":1.50,"b":12345678901234567890}'
 */
export function stringifyArgs(value: unknown): string {
  return writeArgs(value, Infinity);
}

/**
 * The beginning of `stringifyArgs(value)`, at most `maxChars` characters: a longer text is cut at
 * a character boundary (never inside a surrogate pair) and ends with `…`. Only about `maxChars`
 * characters are written, whatever the size or depth of the value, so a preview costs O(maxChars).
 *
 * @param value - The value to preview.
 * @param maxChars - The longest preview, `…` included (at least 1).
 * @throws {ArgsCycleError} When the value contains itself within the characters written.
 * @example
 * previewArgs({ q: 'a'.repeat(100) }, 10) // '{"q":"aaa…'
 */
export function previewArgs(value: unknown, maxChars: number): string {
  const text = writeArgs(value, maxChars);
  if (text.length <= maxChars) return text;
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + '…';
}

/** `stringifyArgs`, stopping once more than `limit` characters are written. */
function writeArgs(value: unknown, limit: number): string {
  const first = scalarText(prepare(value, ''), limit);
  if (first !== undefined) return first ?? 'null';
  let out = '';
  const frames: { container: Container; keys: string[] | null; index: number; wrote: boolean }[] = [];
  const open = new Set<unknown>();
  const enter = (container: Container) => {
    if (open.has(container)) throw new ArgsCycleError();
    open.add(container);
    out += Array.isArray(container) ? '[' : '{';
    frames.push({ container, keys: Array.isArray(container) ? null : Object.keys(container), index: 0, wrote: false });
  };
  enter(prepare(value, '') as Container);
  while (frames.length > 0 && out.length <= limit) {
    const frame = frames[frames.length - 1]!;
    const { container, keys } = frame;
    const length = keys === null ? (container as unknown[]).length : keys.length;
    if (frame.index >= length) {
      out += keys === null ? ']' : '}';
      open.delete(container);
      frames.pop();
      continue;
    }
    const at = frame.index++;
    const key = keys === null ? String(at) : keys[at]!;
    const item = prepare((container as Record<string, unknown>)[key], key);
    const text = scalarText(item, limit);
    if (keys === null) {
      if (at > 0) out += ',';
      if (text === undefined) enter(item as Container);
      else out += text ?? 'null';
    } else if (text !== null) {
      // Reading the output back would flatten the rope being built on every member: keep a flag.
      if (frame.wrote) out += ',';
      frame.wrote = true;
      out += JSON.stringify(key) + ':';
      if (text === undefined) enter(item as Container);
      else out += text;
    }
  }
  return out;
}

/** Applies `toJSON`, as `JSON.stringify` does (a `LosslessNumber` is written as it is). */
function prepare(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return toJSON.call(value, key) as unknown;
  }
  return value;
}

/**
 * The JSON text of a scalar; `undefined` for an array or object to open; `null` for what JSON
 * cannot hold (left out of objects, `null` in arrays).
 */
function scalarText(value: unknown, limit: number): string | null | undefined {
  switch (typeof value) {
    // Past `limit` characters the text is cut: writing no more of a long string keeps a preview bounded.
    case 'string': return JSON.stringify(value.length > limit ? value.slice(0, limit + 1) : value);
    case 'number': return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (isLosslessNumber(value)) return value.value;
      if (value instanceof Number || value instanceof String || value instanceof Boolean) return JSON.stringify(value);
      return undefined;
    default: return null;
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * A copy of `value` with every `LosslessNumber` turned into a plain `number`, for consumers
 * that only understand plain JSON values (validators, `JSON.stringify`). Digits beyond float64
 * precision are lost in the copy, never in `value`; whole numbers stay whole numbers.
 *
 * @param value - A value from `parseArgs` or a coercion.
 * @returns The same reference when it holds no lossless number; otherwise a copy. A cyclic
 *   reference is kept as it is.
 */
export function toPlainNumbers(value: unknown): unknown {
  return mapLosslessNumbers(value, Number);
}

/**
 * A copy of `value` with every `LosslessNumber` replaced by `convert(literal)`; the same
 * reference when it holds none. Iterative, so any depth is copied; cycles are kept as they are.
 */
export function mapLosslessNumbers(value: unknown, convert: (literal: string) => unknown): unknown {
  return walkValues(value, true, new NumberMapper(convert), [], 0);
}

/** The visitor of `mapLosslessNumbers`: every child is visited, every lossless number converted. */
class NumberMapper implements ValueVisitor<true> {
  private readonly convert: (literal: string) => unknown;

  constructor(convert: (literal: string) => unknown) {
    this.convert = convert;
  }

  child(): true {
    return true;
  }

  leaf(value: unknown): unknown {
    return isLosslessNumber(value) ? this.convert(value.value) : value;
  }

  enter(): boolean {
    return true;
  }

  leave(_original: Container, done: Container): unknown {
    return done;
  }

  cycle(): void {}
}
