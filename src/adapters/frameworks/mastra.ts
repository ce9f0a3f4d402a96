/**
 * `schema-coerce/mastra`: tool-call repair for Mastra (`@mastra/core`, an optional peer
 * dependency). Mastra validates a tool's input before `execute`, so the repair goes into the
 * tool's `inputSchema`: a Standard Schema that repairs first and then defers to the original.
 */
import { standardSchemaToJSONSchema, toStandardSchema } from '@mastra/core/schema';
import { createTool } from '@mastra/core/tools';
import type { ArgsValidator } from '../../index.js';
import { prepareFrameworkCall, type FrameworkCoercionOptions } from './framework-call.js';
import { loadValidateArgsSync } from '../shared/load-validator.js';

/**
 * Options of the Mastra adapter. `validate` defaults to `false`: Mastra validates every tool's
 * input itself, and its own error object (naming each wrong field) stays what the model reads.
 * With `validate: true` (Ajv, loaded synchronously, must be installed) or a validator, arguments
 * it refuses fail Mastra's validation with the library's message as the issue. `onCoerce` is
 * called for every validation Mastra asks for (it retries a failed one with variations).
 */
export interface MastraCoercionOptions extends FrameworkCoercionOptions {}

/** What `coerceTool` needs of a Mastra tool. */
interface MastraToolLike {
  readonly id: string;
  readonly inputSchema?: unknown;
}

type StandardSchema = ReturnType<typeof toStandardSchema>;
type ValidateResult = ReturnType<StandardSchema['~standard']['validate']>;

/**
 * A copy of a Mastra tool (made by `createTool`, from the tool's own fields) whose `inputSchema`
 * repairs the input against the tool's JSON Schema, then hands it to the original validation;
 * the JSON Schema shown to the model is the original's. Validation stays synchronous, as Mastra
 * requires. A tool without an `inputSchema` is returned as it is.
 *
 * @param tool - A Mastra tool.
 * @param options - Coercion, validation and reporting options.
 * @returns The copy; `tool` itself is left as it is.
 * @example
 * const agent = new Agent({ id: 'editor', name: 'editor', instructions, model, tools: { goto: coerceTool(goto) } });
 */
export function coerceTool<T extends MastraToolLike>(tool: T, options: MastraCoercionOptions = {}): T {
  if (tool.inputSchema === undefined) return tool;
  const original = toStandardSchema(tool.inputSchema as Parameters<typeof toStandardSchema>[0]);
  const validator: ArgsValidator | undefined = options.validate === true ? loadValidateArgsSync() : options.validate === false ? undefined : options.validate;
  let schema: unknown;
  const validate = (value: unknown): ValidateResult => {
    schema ??= standardSchemaToJSONSchema(original, { io: 'input' });
    const call = prepareFrameworkCall(value, schema, tool.id, options, validator);
    if (!call.ok) return { issues: [{ message: call.message ?? 'Invalid parameters.' }] };
    return original['~standard'].validate(call.args);
  };
  const inputSchema: StandardSchema = { '~standard': { ...original['~standard'], vendor: 'schema-coerce', validate } };
  return createTool({ ...(tool as object), inputSchema } as Parameters<typeof createTool>[0]) as unknown as T;
}

/**
 * `coerceTool` for every tool of a record, such as `await mcpClient.listTools()`.
 *
 * @param tools - Mastra tools by name.
 * @param options - Coercion, validation and reporting options.
 * @returns A new record of copies.
 */
export function coerceTools<R extends Record<string, MastraToolLike>>(tools: R, options: MastraCoercionOptions = {}): R {
  return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, coerceTool(tool, options)])) as R;
}
