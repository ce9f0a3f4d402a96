/** What the MCP client and server wrappers share: their options, their report, and preparing a call. */
import { loadValidateArgs } from '../shared/load-validator.js';
import { prepareToolCall, type ArgsValidator, type CoerceOptions, type PreparedCall } from '../../index.js';
import type { RepairedToolResult } from './results.js';

/** What one tool call's repair did, for logging. */
export interface CoercionReport {
  readonly tool: string;
  /** The tool's schema was known, so the arguments were looked at. */
  readonly schemaFound: boolean;
  /** The call went on to the server (false when it was answered with an error instead). */
  readonly dispatched: boolean;
  readonly call?: PreparedCall;
  /**
   * With the client wrapper's `results` option: what the repair of the tool's result against its
   * `outputSchema` did (a report of its own, when the result arrives).
   */
  readonly result?: RepairedToolResult;
}

/** Options shared by the client and the server wrappers. */
export interface McpCoercionOptions extends CoerceOptions {
  /**
   * Validate the repaired arguments: `true` for the built-in Ajv validation (`ajv` must then be
   * installed; it is loaded on first use), or any validator such as `validateArgs` with options.
   */
  readonly validate?: boolean | ArgsValidator;
  /** Reject keys the tool's schema does not declare. */
  readonly rejectUndeclared?: boolean;
  /** Rename an undeclared key matching exactly one declared name by normalisation. */
  readonly renameUnambiguous?: boolean;
  /** Called once per tool call with what was done to its arguments (and, with the client's `results`, once more for its result). */
  readonly onCoerce?: (report: CoercionReport) => void;
}

/** Prepares one call: coercion, then validation (the built-in validator is loaded on first use). */
export async function prepare(args: unknown, schema: unknown, toolName: string, options: McpCoercionOptions): Promise<PreparedCall> {
  const { validate, ...rest } = options;
  const validator = validate === true ? await loadValidateArgs() : validate === false ? undefined : validate;
  return prepareToolCall(args, schema, { ...rest, toolName, ...(validator === undefined ? {} : { validate: validator }) });
}


