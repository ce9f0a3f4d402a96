/** The public coercion functions of the package root. */
import { resolveRules, type Rules } from './lenient.js';
import { stringifyArgs } from '../json/lossless.js';
import type { IntegerRange } from '../json/numbers.js';
import { hasWork, planFor, planOrNull, type PlanNode } from '../schema/plan.js';
import { rewriteLiterals } from './text-path.js';
import { TextEdits, type TextEditsBuilder } from './text-edits.js';
import { ArgsParseError } from '../json/errors.js';
import { skipSpace } from '../json/scanner.js';
import { markTruncation } from '../json/tolerant/repair.js';
import { readArgsText } from './read-text.js';
import type { CoerceOptions, CoerceResult, Refusal } from './types.js';
import { envelopeRefusal, unwrapReadings } from './unwrap.js';
import { judge } from './gate.js';
import { Coercion, walk } from './walk.js';

export { TextEdits, TextEditsBuilder, applyTextEdits } from './text-edits.js';

const NOTHING: readonly never[] = Object.freeze([]);

/**
 * Coerces tool-call arguments against the tool's JSON Schema and reports what it did.
 *
 * By default only integer restoration runs: a number at a position where an applicable schema
 * declares `"integer"` and whose value is whole is rewritten to its integer literal (`5.0` → `5`).
 * With `lenient`, values of the wrong JSON type are converted where that is unambiguous.
 * Pure: never mutates `args` or `schema`, never throws on any value of either; a value it
 * cannot act on stays as it is and is listed in `refusals`, and so are arguments or a schema
 * whose reading throws (a hostile getter or Proxy). An error of the library's own is thrown as
 * it is, never reported as theirs.
 *
 * @param args - Arguments, typically from `parseArgs` so numbers keep their literal text.
 * @param schema - The tool's input JSON Schema. Anything that is not an object schema is a no-op.
 * @param options - `integerRange`, `lenient`, and `toolName` (for the lenient `unwrap` rule).
 * @returns `{ value, changes, refusals }`; `value` is `args` itself when nothing changed.
 * @example
 * const { value, changes } = coerceArgs(parseArgs('{"line":5.0}'), { properties: { line: { type: 'integer' } } })
 * stringifyArgs(value) // '{"line":5}'
 * changes // [{ path: '/line', from: '5.0', to: '5', rule: 'integer-literal' }]
 */
export function coerceArgs(args: unknown, schema: unknown, options?: CoerceOptions): CoerceResult {
  const coercion = new Coercion(rangeOf(options?.integerRange), resolveRules(options?.lenient));
  try {
    const plan = planFor(schema);
    if (!hasWork(plan, coercion.work)) return { value: args, changes: NOTHING, refusals: NOTHING };
    const verdict = coercion.rules?.unwrap === true ? judge(unwrapReadings(args, plan, options?.toolName)) : undefined;
    const unwrapped = verdict?.kind === 'take' ? (verdict.proposal as ReturnType<typeof unwrapReadings>[number]) : undefined;
    if (unwrapped !== undefined) coercion.changes.push({ path: '', from: unwrapped.keys.map((key) => JSON.stringify(key)).join(','), to: '', rule: 'unwrap' });
    const envelope = coercion.rules?.unwrap === true && unwrapped === undefined ? envelopeRefusal(args, plan, options?.toolName) : undefined;
    if (envelope !== undefined) coercion.refusals.push(envelope);
    const value = walk(unwrapped === undefined ? args : unwrapped.value, plan, coercion);
    return { value, changes: coercion.changes, refusals: coercion.refusals };
  } catch (error) {
    // Only a hostile getter or Proxy in the arguments or the schema is theirs to answer for: any
    // other error is this library's own, thrown as it is.
    if (!readingThrows(args) && !readingThrows(schema)) throw error;
    return { value: args, changes: NOTHING, refusals: [unreadable(args, error)] };
  }
}

/**
 * A function that coerces a value against a plan node on its own, as `coerceArgs` with `options`
 * would there: how the gate judges a reading's value where no walk is under way (the
 * `renameUnambiguous` step of `prepareToolCall`).
 */
export function valueCoercer(options?: CoerceOptions): (value: unknown, node: PlanNode) => CoerceResult {
  const coercion = new Coercion(rangeOf(options?.integerRange), resolveRules(options?.lenient));
  return (value, node) => coercion.nest(value, node);
}

/**
 * Restores integer literals wherever the schema says `"integer"` and returns the arguments
 * alone: the very same reference when nothing changed.
 *
 * @param args - Arguments, typically from `parseArgs`; plain numbers and bigints stay as they are.
 * @param schema - The tool's input JSON Schema.
 * @param options - `integerRange` (`lenient` is ignored here: the result keeps the input's type).
 * @returns The arguments with integer literals restored.
 * @example
 * coerceIntegerArgs(parseArgs('{"line":5.0,"t":1.0}'), schema) // line: 5, t: 1.0 (a number field)
 */
export function coerceIntegerArgs<T>(args: T, schema: unknown, options?: CoerceOptions): T {
  const range = options?.integerRange;
  return coerceArgs(args, schema, range === undefined ? undefined : { integerRange: range }).value as T;
}

/**
 * Text in, text out. One pass over the text rewrites only the tokens that change (the number
 * tokens at integer positions, and with `lenient` the scalars lenient rules convert, each written
 * as compact JSON) and copies every other byte as it is, white space included. When nothing
 * changes, the input string itself comes back. An object that repeats a key, and arguments a
 * lenient shape rule may reshape (an optional null, a flattened key, a wrapper), are read by the
 * object model instead, and then written back as compact JSON when it changes them. Under the lenient `syntax` rule,
 * text that is not JSON but has exactly one reading is repaired first (and a string holding the
 * arguments object is unwrapped); cut-off text is refused as `truncated`, never completed.
 *
 * @param text - The raw arguments JSON, e.g. an OpenAI-style `arguments` string.
 * @param schema - The tool's input JSON Schema.
 * @param options - `integerRange`, `lenient`, and `toolName` (for the lenient `unwrap` rule).
 * @returns The coerced JSON text.
 * @throws {ArgsParseError} When `text` is not JSON (or not repairable); `truncated: true` when it
 *   was cut off (it is never completed). Nothing partial is returned. A schema whose reading
 *   throws leaves the text as it is; an error of the library's own is thrown as it is.
 * @example
 * coerceArgsJson('{"line":5.0,"column":1.0,"filePath":"server.go"}', schema)
 * // '{"line":5,"column":1,"filePath":"server.go"}'
 */
export function coerceArgsJson(text: string, schema: unknown, options?: CoerceOptions): string {
  return coerceText(text, schema, options, false, resolveRules(options?.lenient)) as string;
}

/**
 * `coerceArgsJson`, its output handed back as the spans of `text` it rewrites, in order (applied,
 * they give the string `coerceArgsJson` returns; none when nothing changes):
 * the proxy writes everything between them as the bytes it read, without a copy of the text.
 * Where the object model or syntax repair writes the output, one edit spans the whole text; an
 * object repeating a key with equal values (refused when they differ, as `coerceArgsJson` does)
 * has each occurrence rewritten alike, so its bytes stay as they came there too.
 *
 * @param rules - `options.lenient` resolved, when the caller holds it already (the proxy, call
 *   after call: resolving an object of rules makes a new one each time).
 * @param builder - Where the one-pass text path puts its spans as it finds them (the CLI writes
 *   them out as they come, none kept): what comes back is then `builder.build()`. Where the text
 *   goes another way (a repeated key, a shape rule, syntax repair) what was pushed is void,
 *   `build()` is not called, and the edits come back as without a builder.
 * @throws {ArgsParseError} As `coerceArgsJson` does.
 */
export function coerceArgsJsonEdits(text: string, schema: unknown, options?: CoerceOptions, rules: Rules | null = resolveRules(options?.lenient), builder?: TextEditsBuilder): TextEdits {
  return coerceText(text, schema, options, builder ?? true, rules) as TextEdits;
}

/** The text path: the output string, or with `asEdits` the spans it rewrites (see `rewriteLiterals`). */
function coerceText(text: string, schema: unknown, options: CoerceOptions | undefined, asEdits: boolean | TextEditsBuilder, rules: Rules | null): string | TextEdits {
  if (typeof text !== 'string') throw new ArgsParseError(`expected a string, got ${text === null ? 'null' : typeof text}`);
  const syntax = rules !== null && rules.syntax;
  // A root string may be double-encoded arguments, a root `null` no arguments: under `syntax` the
  // repairing reader decides.
  let strictError: ArgsParseError | undefined;
  const first = text.charCodeAt(skipSpace(text, 0));
  if (!syntax || (first !== 0x22 && first !== 0x6e)) {
    let rewritten: string | TextEdits | undefined;
    try {
      rewritten = rewriteLiterals(text, planOrNull(schema), rangeOf(options?.integerRange), rules, asEdits);
    } catch (error) {
      if (!(error instanceof ArgsParseError)) {
        // Reading the schema threw (a hostile getter or Proxy): the text stays as it is, if it is
        // JSON. Any other error is this library's own, thrown as it is.
        if (!readingThrows(schema)) throw error;
        readArgsText(text, undefined, false);
        return asEdits ? TextEdits.NONE : text;
      }
      if (!syntax) throw markTruncation(text, error);
      strictError = error;
    }
    if (rewritten !== undefined) return rewritten;
  }
  const read = readArgsText(text, schema, syntax ? rules : false, strictError);
  if (asEdits && read.text === text) {
    // Valid JSON (text the strict reading refused never reads as itself) whose repeated keys the
    // read found equal: the spans each occurrence rewrites.
    const edits = rewriteLiterals(text, planOrNull(schema), rangeOf(options?.integerRange), rules, true, true);
    if (edits !== undefined) return edits;
  }
  const { value } = coerceArgs(read.value, schema, options);
  const output = value === read.value ? read.text : stringifyArgs(value);
  if (!asEdits) return output;
  return output === text ? TextEdits.NONE : TextEdits.one(0, text.length, output);
}

/**
 * The display string of a tool call, made by the very same coercion as dispatch, so what a
 * user reads is what the server receives. Without a schema the arguments show as they are.
 *
 * @param name - The tool's name.
 * @param args - The arguments (from `parseArgs`, or plain values).
 * @param schema - The tool's input JSON Schema, if known.
 * @param options - The same options dispatch uses.
 * @returns E.g. `get_symbol_info({"line":5,"column":1,"filePath":"server.go"})`.
 */
export function formatToolCall(name: string, args: unknown, schema?: unknown, options?: CoerceOptions): string {
  if (args === undefined) return `${name}()`;
  // With no schema, `coerceArgs` has nothing to do and gives `args` back.
  const shown = coerceArgs(args, schema, options).value;
  try {
    return `${name}(${stringifyArgs(shown)})`;
  } catch {
    return `${name}(${String(shown)})`;
  }
}

/** `options.integerRange` resolved: `int64` unless `safe` or `unbounded` is given. */
export function rangeOf(range: unknown): IntegerRange {
  return range === 'safe' || range === 'unbounded' ? range : 'int64';
}

/**
 * True when reading `value` whole throws: a getter or Proxy trap somewhere in it does. Every own
 * enumerable property is read, as the plan and the walk read them; an object met twice is read
 * once (a schema may share or contain its own parts).
 */
function readingThrows(value: unknown): boolean {
  const seen = new Set<unknown>();
  try {
    JSON.stringify(value, (_key, part: unknown) => (typeof part !== 'object' || seen.has(part) ? null : (seen.add(part), part)));
    return false;
  } catch {
    return true;
  }
}

function unreadable(args: unknown, error: unknown): Refusal {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    path: '',
    value: args,
    reason: 'unreadable',
    expected: [],
    message: `the arguments were left as they are: reading them or the schema threw (${reason})`,
  };
}
