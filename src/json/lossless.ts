/**
 * The lossless layer: JSON text to values whose numbers keep their literal text, and back.
 * Numbers are lossless-json's `LosslessNumber`s (`lossless-number.ts`); reading
 * (here) and writing (`write-args.ts`) are iterative, so nesting depth costs memory, not stack.
 */
import { LosslessNumber, isLosslessNumber } from './lossless-number.js';
import { hasOwn, isPlainObject, setOwn } from './objects.js';
import { ArgsParseError } from './errors.js';
import { decodeString, fail, scanJson, type JsonVisitor } from './scanner.js';
import type { Container } from './walk-values.js';
import { ALL_TEXT_RULES, repairJsonText, type SyntaxChange, type TextRules } from './tolerant/repair.js';

export { ExactNumber, LosslessNumber, isLosslessNumber, plainNumberOf } from './lossless-number.js';
export { previewArgs, stringifyArgs } from './write-args.js';
export { mapLosslessNumbers, toPlainNumbers, type PlainNumbersOptions } from './plain-numbers.js';

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
 * @param rules - The switched syntax rules (`markup`, `overEscaped`): all on by default.
 * @throws {ArgsParseError} As `repairJsonText`, or the strict error when blank text may not be `{}`.
 */
export function parseRepaired(text: string, allowed: () => AllowedRepairs, strictError?: unknown, rules: TextRules = ALL_TEXT_RULES): RepairedParse {
  if (strictError !== undefined) return repairFailed(text, strictError, allowed, rules);
  let value: unknown;
  try {
    value = parseArgs(text);
  } catch (error) {
    return repairFailed(text, error, allowed, rules);
  }
  if (typeof value === 'string' && allowed().unwrapObjectText) {
    const repaired = repairJsonText(text, rules);
    if (repaired.text !== text) return { value: parseArgs(repaired.text), text: repaired.text, changes: repaired.changes };
  }
  return { value, text, changes: [] };
}

/** Repairs text that strict parsing refused with `error`, or throws that error when no repair applies. */
function repairFailed(text: string, error: unknown, allowed: () => AllowedRepairs, rules: TextRules): RepairedParse {
  const repaired = repairJsonText(text, rules);
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

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
