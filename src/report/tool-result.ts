/**
 * `repairToolResult`: an MCP tool result repaired against the tool's `outputSchema`, as arguments
 * are against its `inputSchema`. Clients validate `structuredContent` and reject the whole result
 * on a mismatch; two causes are repairable without a guess: a float64 pipeline writing `5.0` for
 * an integer (its literal is restored, as in arguments), and an `isError` result whose
 * `structuredContent` has another shape than the output schema (it is dropped: the specification
 * makes it optional, and the error text stays in `content`).
 */
import { applyTextEdits, coerceArgs, coerceArgsJsonEdits, TextEdits } from '../coerce/coerce.js';
import type { Change, CoerceOptions, IntegerRange, Refusal } from '../coerce/types.js';
import { ArgsParseError, locate } from '../json/errors.js';
import { parseArgs, previewArgs } from '../json/lossless.js';
import { copyObject, hasOwn, isPlainObject } from '../json/objects.js';
import { topLevelParts, type TopLevelPart } from '../json/top-level.js';
import type { ValidationIssue } from './message.js';
import type { ArgsValidator } from './pipeline.js';

/** Options of `repairToolResult`. */
export interface ToolResultRepairOptions {
  /** As for arguments: which whole values become integer literals (default `"int64"`). */
  readonly integerRange?: IntegerRange;
  /**
   * Judges whether the `structuredContent` of an `isError` result matches the output schema
   * (`validateArgs` from `schema-coerce/validate`, or any function of its shape). Without one,
   * such `structuredContent` is repaired like any other, never dropped.
   */
  readonly validate?: ArgsValidator;
  /** The tool's name, handed to `validate`. */
  readonly toolName?: string;
}

/** What `repairToolResult` did. */
export interface RepairedToolResult<T = unknown> {
  /** The result: the very same reference (or string) when nothing changed. */
  readonly result: T;
  /** Each change, its `path` a JSON Pointer into the result (`/structuredContent/count`). */
  readonly changes: readonly Change[];
  /** Values left as they are, as for arguments (`5.5` where the output schema says integer). */
  readonly refusals: readonly Refusal[];
  /** Why `structuredContent` was dropped: what `validate` found wrong with it. */
  readonly errors: readonly ValidationIssue[];
  /** Why text could not be read as a result (it was left as it is). */
  readonly parseError?: ArgsParseError;
}

const FIELD = 'structuredContent';
/** The longest `from` of a dropped `structuredContent`, `…` included. */
const PREVIEW_CHARS = 200;

/**
 * Repairs a tool result against the tool's `outputSchema`. Integer literals in
 * `structuredContent` are restored exactly as in arguments (`5.0` → `5` where the schema says
 * integer; a fraction is refused, never truncated); an `isError` result whose `structuredContent`
 * does not match the schema (as `validate` judges it) loses `structuredContent`, and keeps its
 * `content`. Everything else is left as it is. Text in, text out: given the result's JSON text,
 * only the spans that change are rewritten, every other byte kept. Pure: never mutates the
 * result or the schema; never throws on data (text that is not JSON comes back unchanged, with
 * `parseError`).
 *
 * @param result - The `result` of a `tools/call` response: an object (values from `parseArgs`
 *   keep their literals) or its JSON text.
 * @param outputSchema - The tool's `outputSchema`; without one, nothing is done.
 * @param options - `integerRange`, `validate`, `toolName`.
 * @returns `{ result, changes, refusals, errors, parseError? }`.
 * @example
 * repairToolResult('{"content":[],"structuredContent":{"count":5.0}}', { properties: { count: { type: 'integer' } } }).result
 * // '{"content":[],"structuredContent":{"count":5}}'
 */
export function repairToolResult<T>(result: T, outputSchema: unknown, options: ToolResultRepairOptions = {}): RepairedToolResult<T> {
  if (outputSchema === undefined || outputSchema === null) return unchanged(result);
  if (typeof result === 'string') return repairText(result, outputSchema, options) as RepairedToolResult<T>;
  let read: { content: unknown; isError: boolean } | undefined;
  try {
    read = isPlainObject(result) && hasOwn(result, FIELD) ? { content: result[FIELD], isError: result['isError'] === true } : undefined;
  } catch (error) {
    return unreadable(result, error);
  }
  if (read === undefined) return unchanged(result);
  const repair = repairContent(read.content, read.isError, outputSchema, options);
  if (!repair.dropped && repair.value === read.content) return reported(result, repair);
  let copy: Record<string, unknown>;
  try {
    copy = copyObject(result as Record<string, unknown>);
  } catch (error) {
    return unreadable(result, error);
  }
  if (repair.dropped) delete copy[FIELD];
  else copy[FIELD] = repair.value;
  return reported(copy as T, repair);
}

/** The repair of `structuredContent` alone: dropped, or its value with paths under `/structuredContent`. */
type ContentRepair =
  | { readonly dropped: true; readonly change: Change; readonly errors: readonly ValidationIssue[] }
  | { readonly dropped: false; readonly value: unknown; readonly changes: readonly Change[]; readonly refusals: readonly Refusal[] };

function repairContent(content: unknown, isError: boolean, schema: unknown, options: ResultRepairSettings): ContentRepair {
  const coerced = coerceArgs(content, schema, coercion(options));
  if (isError && options.validate !== undefined) {
    const judge = { rejectUndeclared: false, ...(options.toolName === undefined ? {} : { toolName: options.toolName }) };
    const verdict = options.validate(coerced.value, schema, judge);
    if (!verdict.ok) {
      const change: Change = { path: `/${FIELD}`, from: preview(content), to: '', rule: 'error-structured-content' };
      return { dropped: true, change, errors: verdict.errors ?? [] };
    }
  }
  const under = (path: string): string => `/${FIELD}${path}`;
  const changes = coerced.changes.map((change) => ({ ...change, path: under(change.path) }));
  // A refusal's message names where the value is, as its path does: in the result.
  const refusals = coerced.refusals.map((refusal) => ({
    ...refusal,
    path: under(refusal.path),
    message: refusal.message.replace(`at ${refusal.path || 'the root'} was`, `at ${under(refusal.path)} was`),
  }));
  return { dropped: false, value: coerced.value, changes, refusals };
}

/** The coercion's options among the settings: `integerRange` and `lenient` (a result is no call: no `toolName` to unwrap). */
function coercion({ integerRange, lenient }: ResultRepairSettings): CoerceOptions {
  return { ...(integerRange === undefined ? {} : { integerRange }), ...(lenient === undefined ? {} : { lenient }) };
}

/** The public report of a repair whose outcome is `result`. */
function reported<T>(result: T, repair: ContentRepair): RepairedToolResult<T> {
  return { result, ...reportOf(repair) };
}

/** What a repair did, as told: its changes, refusals and the validator's errors. */
function reportOf(repair: ContentRepair): Omit<RepairedToolResult, 'result'> {
  return repair.dropped ? { changes: [repair.change], refusals: [], errors: repair.errors } : { changes: repair.changes, refusals: repair.refusals, errors: [] };
}

/** The beginning of a value's JSON text; one that contains itself cannot be written, and says so. */
function preview(value: unknown): string {
  try {
    return previewArgs(value, PREVIEW_CHARS);
  } catch {
    return '(a value that contains itself)';
  }
}

/**
 * A tool result's JSON text repaired as `repairToolResult` repairs it, handed back as the spans of
 * the text it rewrites (applied, they give the string `repairToolResult` returns): the proxy's
 * `--repair-results` splices them into the bytes it read, every other byte going on as it came.
 */
export interface ToolResultEdits extends Omit<RepairedToolResult<string>, 'result'> {
  /** The spans to rewrite, in order; none when nothing changes. */
  readonly edits: TextEdits;
}

/** `repairToolResult`'s options with the coercion's own (`lenient`: the proxy's `--lenient`). */
export interface ResultRepairSettings extends ToolResultRepairOptions, CoerceOptions {}

/**
 * The text form of `repairToolResult`, as edits of `text`: the root's members are found by one
 * scan, and only `structuredContent` is read. Never throws on data, as `repairToolResult`.
 *
 * @param text - The `result` of a `tools/call` response, as JSON text.
 * @param outputSchema - The tool's `outputSchema`; without one, nothing is done.
 * @param options - As `repairToolResult`'s, and `lenient` for the coercion.
 */
export function toolResultEdits(text: string, outputSchema: unknown, options: ResultRepairSettings = {}): ToolResultEdits {
  if (outputSchema === undefined || outputSchema === null) return NO_EDITS;
  let parts: TopLevelPart[];
  try {
    parts = topLevelParts(text);
  } catch (error) {
    if (!(error instanceof ArgsParseError)) throw error;
    return { ...NO_EDITS, parseError: error };
  }
  // An array's elements have no key: only a root object's member is found.
  const content = parts.find((part) => part.key === FIELD);
  if (content === undefined) return NO_EDITS;
  const twice = [FIELD, 'isError'].find((name) => parts.filter((part) => part.key === name).length > 1);
  if (twice !== undefined) return { ...NO_EDITS, refusals: [repeated(twice)] };
  const slice = text.slice(content.start, content.end);
  let value: unknown;
  try {
    value = parseArgs(slice);
  } catch (error) {
    if (!(error instanceof ArgsParseError)) throw error;
    // Valid JSON fails only by repeating a key with two values: at a position, told in the result.
    return { ...NO_EDITS, parseError: new ArgsParseError(error.reason, locate(text, content.start + (error.position ?? 0))) };
  }
  const flag = parts.find((part) => part.key === 'isError');
  const repair = repairContent(value, flag !== undefined && text.startsWith('true', flag.start), outputSchema, options);
  const report = reportOf(repair);
  if (repair.dropped) return { ...report, edits: TextEdits.one(...removal(parts, content), '') };
  if (repair.changes.length === 0) return { ...report, edits: TextEdits.NONE };
  const edits = coerceArgsJsonEdits(slice, outputSchema, coercion(options)).moved((offset) => offset + content.start)!;
  return { ...report, edits };
}

const NO_EDITS: ToolResultEdits = { edits: TextEdits.NONE, changes: [], refusals: [], errors: [] };

/** The text form of `repairToolResult`: `toolResultEdits` applied. */
function repairText(text: string, schema: unknown, options: ToolResultRepairOptions): RepairedToolResult<string> {
  const { edits, ...report } = toolResultEdits(text, schema, options);
  return { ...report, result: edits.length === 0 ? text : applyTextEdits(text, edits) };
}

/**
 * The span to cut to remove `member` from the root object: up to the next member's key, or else
 * from the end of the member before it (there is one: a member is removed only from a result
 * that has `isError`).
 */
function removal(parts: readonly TopLevelPart[], member: TopLevelPart): [number, number] {
  const index = parts.indexOf(member);
  const next = parts[index + 1];
  return next === undefined ? [parts[index - 1]!.end, member.end] : [member.keyStart, next.keyStart];
}

function repeated(name: string): Refusal {
  return {
    path: `/${name}`,
    value: undefined,
    reason: 'ambiguous',
    expected: [],
    message: `the result names "${name}" more than once, and readers disagree on which one counts: it was left as it is`,
  };
}

/** A result whose reading throws (a hostile getter or Proxy): left as it is, and said so. */
function unreadable<T>(result: T, error: unknown): RepairedToolResult<T> {
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the result was left as it is: reading it threw (${reason})`;
  return { ...unchanged(result), refusals: [{ path: '', value: result, reason: 'unreadable', expected: [], message }] };
}

function unchanged<T>(result: T): RepairedToolResult<T> {
  return { result, changes: [], refusals: [], errors: [] };
}
