/** The one-call pipeline: parse, coerce, validate, and the texts to dispatch and to display. */
import { coerceArgs } from '../coerce/coerce.js';
import { describeReadings } from '../coerce/gate.js';
import { ArgsParseError, SchemaCoerceError } from '../json/errors.js';
import { stringifyArgs, toPlainNumbers, type RepairedParse } from '../json/lossless.js';
import { readArgsText } from '../coerce/read-text.js';
import { resolveRules } from '../coerce/lenient.js';
import { describeProblems, invalidParameters, type ValidationIssue } from './message.js';
import type { Change, CoerceOptions, Refusal } from '../coerce/types.js';
import { findUndeclaredKeys, renameUnambiguousKeys, type UndeclaredKey } from './undeclared.js';

/**
 * A validator for `prepareToolCall`: `validateArgs` from `schema-coerce/validate`, or any
 * function of the same shape. It receives the coerced arguments as they are: numbers that came
 * from text are `LosslessNumber`s (`toPlainNumbers(args, { lossy: true })` turns them into plain
 * numbers to judge).
 */
export type ArgsValidator = (
  args: unknown,
  schema: unknown,
  options: { readonly toolName?: string; readonly rejectUndeclared?: boolean },
) => {
  readonly ok: boolean;
  readonly errors?: readonly ValidationIssue[];
  readonly undeclared?: readonly UndeclaredKey[];
  readonly message?: string;
};

/** Options of `prepareToolCall`. */
export interface PrepareOptions extends CoerceOptions {
  /** The tool's name, for the display string and the message. */
  readonly toolName?: string;
  /**
   * Validate the coerced arguments with this validator (e.g. `validateArgs` from
   * `schema-coerce/validate`); `false` or absent: no validation. Anything else, `true` included,
   * is a `TypeError`: the core does not load Ajv itself (the adapters' `validate: true` does).
   */
  readonly validate?: ArgsValidator | false;
  /** Reject keys the schema does not declare, with or without a validator. */
  readonly rejectUndeclared?: boolean;
  /**
   * Rename undeclared keys that match exactly one declared name by normalisation, first. Two keys
   * of one object that match the same name are not renamed, and the call is refused with both.
   */
  readonly renameUnambiguous?: boolean;
  /**
   * Without a validator, fail the call when coercion refused a value (its type is not one the
   * schema accepts there and no safe conversion applies), with the message naming each. For
   * schemas that full validation would judge wrongly (e.g. the Agents SDK's strict tools).
   */
  readonly rejectRefused?: boolean;
}

/** What every prepared call holds, whether it may be dispatched or not. */
interface PreparedCallFields {
  /**
   * The coerced arguments as JavaScript values, safe to hand to `JSON.stringify`, `structuredClone`
   * or an SDK's `callTool`: a plain `number` wherever one holds the number exactly, an `ExactNumber`
   * where none does (an integer beyond ±(2^53−1), `1e400`; see `toPlainNumbers`). `undefined` when
   * the text was not JSON.
   */
  readonly args: unknown;
  /** The JSON text to dispatch, every number as written: the input text itself when nothing changed. */
  readonly json: string;
  /** The text to display, made from the very same `json`: `name(json)`, or `json` without a name. */
  readonly display: string;
  readonly changes: readonly Change[];
  readonly refusals: readonly Refusal[];
  readonly errors: readonly ValidationIssue[];
  readonly undeclared: readonly UndeclaredKey[];
}

/** A call nothing stands in the way of: dispatch its `json`. */
export interface ReadyCall extends PreparedCallFields {
  readonly ok: true;
  readonly message?: undefined;
  readonly parseError?: undefined;
}

/** A call that must not be dispatched: answer the model with its `message`. */
export interface RejectedCall extends PreparedCallFields {
  readonly ok: false;
  /** One plain-text message for the model: what was wrong, and what to send instead. */
  readonly message: string;
  /** Why the text could not be read (not JSON, or cut off: `truncated`), when that is why the call is rejected. */
  readonly parseError?: ArgsParseError;
}

/**
 * A tool call ready to dispatch, or the reason it should not be: test `ok`, and the type
 * narrows (`message` is a string exactly when `ok` is false).
 */
export type PreparedCall = ReadyCall | RejectedCall;

/**
 * Thrown (or handed to a framework as its error) for a tool call whose arguments should not be
 * dispatched; the message is the model-facing one, and `call` holds the errors and undeclared keys.
 */
export class InvalidArgsError extends SchemaCoerceError {
  /** The prepared call: its errors, undeclared keys and message. */
  readonly call: PreparedCall;

  constructor(call: PreparedCall) {
    super(call.message ?? 'invalid tool arguments');
    this.name = 'InvalidArgsError';
    this.call = call;
  }
}

/**
 * Parses (losslessly, if given text), renames unambiguous keys (opt-in), coerces, validates, and
 * produces the text to dispatch and the text to display from the same coerced value, so what a
 * user reads is what the server receives. With no schema, everything passes through unchanged
 * with `ok: true`. Never throws on data: text that is not JSON gives `ok: false` and a message; text
 * cut off before it was complete (at the output-token limit) gives `ok: false` and a message saying
 * so. A `validate` that is neither a function nor `false` is a programming error, and throws.
 * Under the lenient `syntax` rule, text with one reading is repaired first and the repairs lead `changes`.
 *
 * @param argsOrText - The raw arguments text, or arguments already parsed.
 * @param schema - The tool's input JSON Schema; `undefined` or `null` when it is not known.
 * @param options - Coercion options plus `toolName`, `validate`, `rejectUndeclared`, `renameUnambiguous`.
 * @returns `{ ok, args, json, display, changes, refusals, errors, undeclared }`, and when `ok` is
 *   false the model-facing `message` (and `parseError`, when the text could not be read).
 * @throws {TypeError} When `options.validate` is neither a function, `false` nor `undefined` (such
 *   as `true`): a call must never read as validated when nothing was checked.
 * @example
 * import { validateArgs } from 'schema-coerce/validate';
 * const call = prepareToolCall('{"line":"5"}', schema, { lenient: true, validate: validateArgs, toolName: 'goto' });
 * call.ok ? dispatch(call.json) : reply(call.message);
 */
export function prepareToolCall(argsOrText: unknown, schema: unknown, options: PrepareOptions = {}): PreparedCall {
  const { toolName } = options;
  checkValidator(options.validate);
  const text = typeof argsOrText === 'string' ? argsOrText : undefined;
  let parsed: unknown = argsOrText;
  let read: RepairedParse | undefined;
  if (text !== undefined) {
    try {
      read = readArgsText(text, schema, resolveRules(options.lenient)?.syntax === true);
      parsed = read.value;
    } catch (error) {
      if (!(error instanceof ArgsParseError)) throw error;
      if (error.truncated) return cutOff(options, text, error);
      const where = error.line !== undefined ? `at line ${error.line} column ${error.column}: ` : '';
      const message = `${invalidParameters(toolName)}: the arguments are not valid JSON (${where}${error.reason}).\nSend the arguments as one JSON object and call the tool again.`;
      return refused(options, undefined, text, message, error);
    }
  }
  const syntax = read?.changes ?? [];
  if (schema === undefined || schema === null) {
    const json = read?.text ?? writable(parsed);
    if (json === undefined) return unwritable(options, parsed);
    return finish(options, { ok: true, args: parsed, json, changes: syntax, refusals: [], errors: [], undeclared: [] });
  }

  const renamed = options.renameUnambiguous === true ? renameUnambiguousKeys(parsed, schema, options) : { value: parsed, changes: [], conflicts: [] };
  const coerced = coerceArgs(renamed.value, schema, options);
  const args = coerced.value;
  const json = args === parsed && read !== undefined ? read.text : writable(args);
  if (json === undefined) return unwritable(options, args);
  const changes = [...syntax, ...renamed.changes, ...coerced.changes];
  const rejectUndeclared = options.rejectUndeclared === true;

  let errors: readonly ValidationIssue[] = [];
  let undeclared: readonly UndeclaredKey[] = [];
  let message: string | undefined;
  if (typeof options.validate === 'function') {
    const verdict = options.validate(args, schema, { ...(toolName === undefined ? {} : { toolName }), rejectUndeclared });
    if (!verdict.ok) {
      errors = verdict.errors ?? [];
      undeclared = verdict.undeclared ?? [];
      message = verdict.message ?? describeProblems({ toolName, args, schema, errors, undeclared });
    }
    // A value or key with more than one reading was left as sent, valid or not: a validated call
    // fails on it, naming the readings, rather than let the server take one of them by chance.
    const ambiguous = coerced.refusals.filter((refusal) => refusal.readings !== undefined).map(toIssue);
    if (ambiguous.length > 0) {
      errors = [...errors, ...ambiguous];
      message = describeProblems({ toolName, args, schema, errors, undeclared });
    }
  } else {
    if (rejectUndeclared) undeclared = findUndeclaredKeys(args, schema);
    if (options.rejectRefused === true) errors = coerced.refusals.map(toIssue);
    if (undeclared.length > 0 || errors.length > 0) message = describeProblems({ toolName, args, schema, errors, undeclared });
  }
  // Two keys that mean one declared name: which value was meant cannot be known.
  if (message === undefined && renamed.conflicts.length > 0) {
    undeclared = renamed.conflicts;
    message = describeProblems({ toolName, args, schema, errors, undeclared });
  }
  const fields = { args, json, changes, refusals: coerced.refusals, errors, undeclared };
  return message === undefined ? finish(options, { ok: true, ...fields }) : finish(options, { ok: false, ...fields, message });
}

/**
 * A JavaScript caller can hand `validate: true` (the adapters' spelling for "load Ajv"), or a
 * validator's module instead of the function; taken as "no validation", the call would answer
 * `ok: true` for arguments nothing checked. Fail closed: refuse the option itself.
 */
function checkValidator(validate: unknown): void {
  if (validate === undefined || validate === false || typeof validate === 'function') return;
  throw new TypeError(`[schema-coerce] prepareToolCall: validate must be a function (validateArgs from 'schema-coerce/validate') or false, not ${validate === null || typeof validate !== 'object' ? String(validate) : 'an object'}`);
}

/**
 * A refusal as the message describes an error: `must be integer`, `must be one of "a", "b"`, or
 * for a value or key with competing readings, the readings.
 */
function toIssue(refusal: Refusal): ValidationIssue {
  const { path, expected, reason, readings } = refusal;
  if (readings !== undefined) return { path, keyword: 'ambiguous', message: `has more than one reading the schema accepts: ${describeReadings(readings, path)}; send exactly one` };
  if (reason === 'cycle' || reason === 'unreadable' || expected.length === 0) return { path, keyword: 'schema', message: 'cannot be checked' };
  const values = expected.some((entry) => entry.startsWith('"'));
  return values
    ? { path, keyword: 'enum', message: `must be one of ${expected.join(', ')}` }
    : { path, keyword: 'type', message: `must be ${reason === 'not-whole' ? 'a whole number' : expected.join(' or ')}` };
}

/** The JSON text of the arguments, or `undefined` when they contain themselves. */
function writable(args: unknown): string | undefined {
  try {
    return stringifyArgs(args);
  } catch {
    return undefined;
  }
}

function unwritable(options: PrepareOptions, args: unknown): PreparedCall {
  return refused(options, args, '', `${invalidParameters(options.toolName)}: the arguments cannot be written as JSON (they contain themselves).`);
}

/** The answer to arguments cut off before they were complete: never completed, never dispatched. */
function cutOff(options: PrepareOptions, text: string, error: ArgsParseError): PreparedCall {
  const where = error.line === undefined ? '' : ` (they end at line ${error.line} column ${error.column}: ${error.reason})`;
  const message =
    `${invalidParameters(options.toolName)}: the arguments were cut off before they were complete${where}, most likely at the output-token limit.\n` +
    'Nothing was run. Send shorter arguments, or do the work in smaller steps (for example, write a large file in several calls), and call the tool again.';
  return refused(options, undefined, text, message, error);
}

/** A call that does not go on: nothing changed or checked, and the message saying why. */
function refused(options: PrepareOptions, args: unknown, json: string, message: string, parseError?: ArgsParseError): PreparedCall {
  return finish(options, { ok: false, args, json, changes: [], refusals: [], errors: [], undeclared: [], message, ...(parseError === undefined ? {} : { parseError }) });
}

/** A prepared call but its display string, either kind. */
type Undisplayed = Omit<ReadyCall, 'display'> | Omit<RejectedCall, 'display'>;

/** The call as handed out: its display text, and its arguments as plain values (see `PreparedCallFields.args`). */
function finish(options: PrepareOptions, call: Undisplayed): PreparedCall {
  const display = options.toolName === undefined ? call.json : `${options.toolName}(${call.json})`;
  const args = toPlainNumbers(call.args);
  // One spread per kind: TypeScript keeps the union only when each branch is narrowed.
  return call.ok ? { ...call, args, display } : { ...call, args, display };
}
