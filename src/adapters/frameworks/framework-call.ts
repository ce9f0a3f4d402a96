/**
 * What the agent-framework adapters (OpenAI Agents SDK, LangChain.js, Mastra) share: their
 * options, and one call into `prepareToolCall` with their defaults (lenient on; integers only
 * within ±(2^53−1), since each framework `JSON.parse`s the arguments after the hook).
 */
import { prepareToolCall, type ArgsValidator, type CoerceOptions, type PreparedCall } from '../../index.js';
import { loadValidateArgs } from '../shared/load-validator.js';

/**
 * What one tool call's repair did, for logging: the shape of `schema-coerce/mcp`'s
 * `CoercionReport`, declared here so these subpaths need no MCP SDK types.
 */
export interface FrameworkCoercionReport {
  readonly tool: string;
  /** The tool's schema was known, so the arguments were looked at. */
  readonly schemaFound: boolean;
  /** The call went on to the tool (false when it was answered with the message instead). */
  readonly dispatched: boolean;
  readonly call?: PreparedCall;
}

/** Options of the agent-framework adapters: as in the MCP adapter. */
export interface FrameworkCoercionOptions extends CoerceOptions {
  /**
   * Validate the repaired arguments: `true` for the built-in Ajv validation (`ajv` must then be
   * installed), `false` for repair only, or any validator such as `validateArgs` with options.
   * The default depends on the kind of tool (see each adapter).
   */
  readonly validate?: boolean | ArgsValidator;
  /** Reject keys the tool's schema does not declare. */
  readonly rejectUndeclared?: boolean;
  /** Rename an undeclared key matching exactly one declared name by normalisation. */
  readonly renameUnambiguous?: boolean;
  /**
   * Without a validator, answer with the message (the tool not run) when a value was refused:
   * its type is not one the schema accepts and no safe conversion applies. The default depends
   * on the kind of tool (see each adapter).
   */
  readonly rejectRefused?: boolean;
  /** Called once per tool call with what was done. */
  readonly onCoerce?: (report: FrameworkCoercionReport) => void;
}

/**
 * The validator that `validate` names, `byDefault` standing in when it is not given; Ajv's is
 * loaded on first use.
 */
export async function resolveValidator(validate: boolean | ArgsValidator | undefined, byDefault: boolean): Promise<ArgsValidator | undefined> {
  const chosen = validate ?? byDefault;
  return chosen === true ? loadValidateArgs() : chosen === false ? undefined : chosen;
}

/**
 * Prepares one call with the adapters' defaults and reports it to `onCoerce`.
 *
 * @param args - The raw arguments text, or the arguments already parsed.
 * @param schema - The tool's input JSON Schema.
 * @param toolName - The tool's name, for the message.
 * @param options - The adapter's options.
 * @param validator - The validator resolved from `options.validate`, if any.
 */
export function prepareFrameworkCall(
  args: unknown,
  schema: unknown,
  toolName: string,
  options: FrameworkCoercionOptions,
  validator: ArgsValidator | undefined,
): PreparedCall {
  const { validate: _validate, onCoerce, lenient, integerRange, ...rest } = options;
  const call = prepareToolCall(args, schema, {
    ...rest,
    lenient: lenient ?? true,
    integerRange: integerRange ?? 'safe',
    toolName,
    ...(validator === undefined ? {} : { validate: validator }),
  });
  onCoerce?.({ tool: toolName, schemaFound: true, dispatched: call.ok, call });
  return call;
}
