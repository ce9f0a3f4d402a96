/**
 * `schema-coerce/ai`: deterministic tool-call repair for the Vercel AI SDK (`ai`, an optional peer
 * dependency). When a model's tool call fails the SDK's parsing or validation, the raw input text
 * is coerced against the tool's JSON Schema, losslessly, and the repaired call is handed back; no
 * second model call is made. Tools built from a bare JSON Schema (MCP tools) are not validated by
 * the SDK, so nothing fails and no repair is asked for: `coercedJsonSchema` coerces those inputs.
 */
import { jsonSchema, type Schema, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { coerceArgsJson, InvalidArgsError, prepareToolCall, toPlainNumbers, type ArgsValidator, type CoerceOptions } from '../../index.js';
import { loadValidateArgs } from '../shared/load-validator.js';

/** Options of `createToolCallRepair`: coercion options (lenient is on unless set to false). */
export interface ToolCallRepairOptions extends CoerceOptions {
  /** Called with each repair made: the tool, and the input before and after. */
  readonly onRepair?: (repair: { readonly toolName: string; readonly input: string; readonly repaired: string }) => void;
}

/**
 * Creates an `experimental_repairToolCall` function. It works for tools with zod schemas and for
 * `jsonSchema`-wrapped tools (MCP tools among them) alike, since it asks the SDK for the tool's
 * JSON Schema. A call to an unknown tool, input that is not JSON, or input that coercion leaves
 * as it is gives `null`: the SDK then reports the original error.
 *
 * @param options - Coercion options; `lenient` defaults to `true` here.
 * @returns The repair function.
 * @example
 * await generateText({ model, tools, experimental_repairToolCall: createToolCallRepair() });
 */
export function createToolCallRepair<TOOLS extends ToolSet = ToolSet>(options: ToolCallRepairOptions = {}): ToolCallRepairFunction<TOOLS> {
  return async ({ toolCall, inputSchema, error }) => {
    if ((error as { name?: string }).name === 'AI_NoSuchToolError') return null;
    let schema: unknown;
    try {
      schema = await inputSchema({ toolName: toolCall.toolName });
    } catch {
      return null;
    }
    const repaired = repairToolInput(toolCall.input, schema, { ...options, toolName: toolCall.toolName });
    if (repaired === undefined) return null;
    options.onRepair?.({ toolName: toolCall.toolName, input: toolCall.input, repaired });
    return { ...toolCall, input: repaired };
  };
}

/**
 * The repaired input text of one tool call, or `undefined` when it is not JSON or coercion
 * changes nothing. Lenient unless `options.lenient` is `false`.
 *
 * @param input - The tool call's raw input (JSON text).
 * @param schema - The tool's input JSON Schema.
 * @param options - Coercion options.
 */
export function repairToolInput(input: string, schema: unknown, options: CoerceOptions = {}): string | undefined {
  try {
    const repaired = coerceArgsJson(input, schema, { ...options, lenient: options.lenient ?? true });
    return repaired === input ? undefined : repaired;
  } catch {
    return undefined;
  }
}

/** Options of `coercedJsonSchema`. */
export interface CoercedJsonSchemaOptions extends CoerceOptions {
  /**
   * Also validate: `true` for the built-in Ajv validation (`ajv` must be installed; it is loaded
   * on first use), or any validator such as `validateArgs`. A failure becomes a tool error.
   */
  readonly validate?: boolean | ArgsValidator;
}

/**
 * `jsonSchema(schema)` for the AI SDK, with a `validate` step that coerces the tool's input
 * against the schema (lenient unless set otherwise), so a tool built from an MCP server's
 * `inputSchema` receives `5` where the model sent `"5"`. With `validate: true`, input that still
 * does not match is reported to the SDK as an `InvalidArgsError` carrying the model-facing message.
 * Runs `prepareToolCall`, the same pipeline as every other adapter.
 *
 * @param schema - The tool's input JSON Schema.
 * @param options - Coercion options and `validate`.
 * @returns An AI SDK `Schema`, for a tool's `inputSchema`.
 * @example
 * tool({ description, inputSchema: coercedJsonSchema(mcpTool.inputSchema), execute })
 */
export function coercedJsonSchema<T = unknown>(schema: Record<string, unknown>, options: CoercedJsonSchemaOptions = {}): Schema<T> {
  const { validate, ...coerceOptions } = options;
  return jsonSchema<T>(schema, {
    validate: async (input) => {
      const validator = validate === true ? await loadValidateArgs() : validate === false ? undefined : validate;
      const call = prepareToolCall(input, schema, {
        ...coerceOptions,
        lenient: coerceOptions.lenient ?? true,
        // Validators here have always been handed plain numbers (they judge by value), and reject undeclared keys by default.
        ...(validator === undefined ? {} : { validate: (args, s, o) => validator(toPlainNumbers(args, { lossy: true }), s, o), rejectUndeclared: true }),
      });
      if (!call.ok) return { success: false, error: new InvalidArgsError(call) };
      return { success: true, value: call.args as T };
    },
  });
}
