/**
 * `schema-coerce/langchain`: tool-call repair for LangChain.js (`@langchain/core`, an optional peer
 * dependency). A coerced tool is the same tool (name, description, schema: its bound tool JSON is
 * identical) whose `invoke` repairs the arguments first.
 */
import { ToolMessage } from '@langchain/core/messages';
import { ToolInputParsingException, type StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { prepareFrameworkCall, resolveValidator, type FrameworkCoercionOptions } from './framework-call.js';

/**
 * Options of the LangChain adapter. `validate` defaults to `true` (Ajv, which must be installed):
 * LangChain validates every tool's input anyway, and validating first lets the model read the
 * library's message, naming each wrong parameter and what was sent, instead of LangChain's
 * "Received tool input did not match expected schema" (or, in some agents, a stack trace).
 */
export interface LangChainCoercionOptions extends FrameworkCoercionOptions {}

/** A LangChain tool call, as a chat model emits it and `ToolNode` passes it on. */
interface ToolCallInput {
  readonly type: 'tool_call';
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}

/**
 * A copy of a LangChain tool whose `invoke` repairs the arguments against the tool's schema (as
 * JSON Schema, through `@langchain/core`'s own converter) before the tool's own validation.
 * Arguments that cannot be used never reach the tool: invoked with a `ToolCall`, the answer is
 * an error `ToolMessage` whose content is the library's message; invoked with plain arguments,
 * a `ToolInputParsingException` carrying it. Plain string input (string tools) passes as it is.
 *
 * @param tool - A structured tool (`tool()`, `DynamicStructuredTool`, a `StructuredTool` subclass).
 * @param options - Coercion, validation and reporting options.
 * @returns The copy; `tool` itself is left as it is.
 * @example
 * const agent = createReactAgent({ llm, tools: [coerceTool(gotoLine)] });
 */
export function coerceTool<T extends StructuredToolInterface>(tool: T, options: LangChainCoercionOptions = {}): T {
  let schema: unknown;
  try {
    schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    schema = undefined;
  }
  return coerceToolAgainst(tool, schema, options);
}

/**
 * `coerceTool` for each tool of an array.
 *
 * @param tools - LangChain tools.
 * @param options - Coercion, validation and reporting options.
 * @returns A new array of copies.
 */
export function coerceTools<T extends StructuredToolInterface>(tools: readonly T[], options: LangChainCoercionOptions = {}): T[] {
  return tools.map((tool) => coerceTool(tool, options));
}

/**
 * A copy of `tool` whose `invoke` repairs arguments against `schema` (the tool's own, or, for an
 * MCP tool, the server's original `inputSchema`). Without a schema the copy behaves as the tool.
 *
 * @param tool - The tool.
 * @param schema - The JSON Schema to repair against, or `undefined`.
 * @param options - Coercion, validation and reporting options.
 */
export function coerceToolAgainst<T extends StructuredToolInterface>(tool: T, schema: unknown, options: LangChainCoercionOptions): T {
  const invoke = tool.invoke;
  const copy = Object.create(tool) as T;
  const repairing = async (input: unknown, config?: unknown): Promise<unknown> => {
    const toolCall = isToolCall(input) ? input : undefined;
    const args = toolCall === undefined ? input : toolCall.args;
    if (schema === undefined || typeof args === 'string') {
      if (schema === undefined) options.onCoerce?.({ tool: tool.name, schemaFound: false, dispatched: true });
      return invoke.call(copy, input as never, config as never);
    }
    const call = prepareFrameworkCall(args, schema, tool.name, options, await resolveValidator(options.validate, true));
    if (!call.ok) {
      const message = call.message ?? 'Invalid parameters.';
      if (toolCall === undefined) throw new ToolInputParsingException(message, call.json);
      return new ToolMessage({ status: 'error', content: message, name: tool.name, tool_call_id: toolCall.id ?? '' });
    }
    return invoke.call(copy, (toolCall === undefined ? call.args : { ...toolCall, args: call.args }) as never, config as never);
  };
  Object.defineProperty(copy, 'invoke', { value: repairing, writable: true, enumerable: false, configurable: true });
  return copy;
}

function isToolCall(input: unknown): input is ToolCallInput {
  return typeof input === 'object' && input !== null && (input as { type?: unknown }).type === 'tool_call';
}
