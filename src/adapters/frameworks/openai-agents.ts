/**
 * `schema-coerce/openai-agents`: tool-call repair for the OpenAI Agents SDK (`@openai/agents-core`,
 * an optional peer dependency). Function tools get an `invoke` that repairs the model's raw
 * arguments text against `tool.parameters` first; MCP servers get `callTool` and `callToolResult`
 * that repair against the server's own `inputSchema`. What the model is shown is unchanged.
 */
import type { CallToolResult, CallToolResultContent, FunctionTool, MCPServer, Tool } from '@openai/agents-core';
import type { PreparedCall } from '../../index.js';
import { prepareFrameworkCall, resolveValidator, type FrameworkCoercionOptions } from './framework-call.js';
import { ToolSchemas } from '../shared/tool-schemas.js';

/**
 * Options of the Agents SDK adapter. `validate` defaults to `false` (repair only) for strict
 * function tools, whose `parameters` mark optional fields required-and-nullable so that
 * validating against them would refuse what the tool's own zod schema accepts; and to `true`
 * (Ajv, which must be installed) for non-strict function tools and MCP tools, which the SDK does
 * not validate at all. `rejectRefused` defaults to `true` for strict tools when `validate` is not
 * given, so a value no safe conversion fixes (`"five"` for a number) is answered with the
 * library's message naming it, not with the SDK's generic "An error occurred while running the
 * tool"; it is off otherwise.
 */
export interface AgentsCoercionOptions extends FrameworkCoercionOptions {}

/** Either tool-level type parameter of the SDK's `FunctionTool`. */
type AnyFunctionTool = FunctionTool<any, any, any>;

/**
 * A copy of a `FunctionTool` whose `invoke` repairs the raw arguments text against
 * `tool.parameters` before calling the original `invoke`; the definition sent to the model is
 * unchanged. When the arguments cannot be used (not JSON, or refused by validation), the tool
 * is not run and its output is the library's model-facing message.
 *
 * @param tool - A function tool, as made by `tool()`.
 * @param options - Coercion, validation and reporting options.
 * @returns The copy; `tool` itself is left as it is.
 * @example
 * const agent = new Agent({ name: 'editor', tools: [coerceFunctionTool(gotoLine)] });
 */
export function coerceFunctionTool<T extends AnyFunctionTool>(tool: T, options: AgentsCoercionOptions = {}): T {
  const original = tool.invoke;
  const invoke: AnyFunctionTool['invoke'] = async (runContext, input, details) => {
    const validator = await resolveValidator(options.validate, !tool.strict);
    // A strict tool repaired only by default: what repair refused is answered with the message.
    const rejectRefused = options.rejectRefused ?? (options.validate === undefined && tool.strict);
    const call = prepareFrameworkCall(input, tool.parameters, tool.name, { ...options, rejectRefused }, validator);
    if (!call.ok) return refusal(call);
    return original.call(tool, runContext, call.json, details);
  };
  const copy = Object.create(Object.getPrototypeOf(tool) as object, Object.getOwnPropertyDescriptors(tool)) as T;
  Object.defineProperty(copy, 'invoke', { value: invoke, writable: true, enumerable: true, configurable: true });
  return copy;
}

/**
 * `coerceFunctionTool` for every function tool of an array; other tools pass through as they
 * are. MCP tools are repaired by wrapping their server with `coerceMcpServer` instead.
 *
 * @param tools - An agent's tools.
 * @param options - Coercion, validation and reporting options.
 * @returns A new array.
 */
export function coerceTools<T extends Tool>(tools: readonly T[], options: AgentsCoercionOptions = {}): T[] {
  return tools.map((tool) => (tool.type === 'function' ? (coerceFunctionTool(tool as AnyFunctionTool, options) as unknown as T) : tool));
}

/**
 * Wraps an Agents SDK `MCPServer` so both of its call paths, `callTool` (content) and
 * `callToolResult` (`{ isError, content }`), repair arguments against the server's own
 * `inputSchema` (from `listTools`, refreshed once when a tool is not known) before they are
 * sent. Arguments that cannot be used are not sent: the answer is an `isError` result whose text
 * is the library's model-facing message. A tool whose schema cannot be found is called as it is.
 *
 * @param server - The server, before or after `connect`.
 * @param options - Coercion, validation and reporting options.
 * @returns A wrapper around the same server (everything else is the server's own).
 * @example
 * const agent = new Agent({ name: 'editor', mcpServers: [coerceMcpServer(new MCPServerStdio({ command: 'my-server' }))] });
 */
export function coerceMcpServer<S extends MCPServer>(server: S, options: AgentsCoercionOptions = {}): S {
  const schemas = new ToolSchemas();
  const listTools: MCPServer['listTools'] = async () => {
    const tools = await server.listTools();
    schemas.store(tools, true);
    return tools;
  };
  /** The arguments to send, or the refusal to answer with. */
  const prepare = async (toolName: string, args: Record<string, unknown> | null): Promise<{ readonly args: Record<string, unknown> | null } | { readonly refused: PreparedCall }> => {
    if (schemas.get(toolName) === undefined) {
      try {
        await listTools();
      } catch {
        // The server cannot list its tools now: the call goes out as it is.
      }
    }
    const schema = schemas.get(toolName);
    if (schema === undefined) {
      options.onCoerce?.({ tool: toolName, schemaFound: false, dispatched: true });
      return { args };
    }
    const call = prepareFrameworkCall(args ?? {}, schema, toolName, options, await resolveValidator(options.validate, true));
    return call.ok ? { args: call.args as Record<string, unknown> } : { refused: call };
  };
  type Rest = readonly [meta?: Record<string, unknown> | null, callOptions?: Parameters<MCPServer['callTool']>[3]];
  const callTool = async (toolName: string, args: Record<string, unknown> | null, ...rest: Rest): Promise<CallToolResultContent> => {
    const prepared = await prepare(toolName, args);
    if ('refused' in prepared) return Object.assign([{ type: 'text' as const, text: refusal(prepared.refused) }], { isError: true });
    return server.callTool(toolName, prepared.args, ...rest);
  };
  const callToolResult = async (toolName: string, args: Record<string, unknown> | null, ...rest: Rest): Promise<CallToolResult> => {
    const prepared = await prepare(toolName, args);
    if ('refused' in prepared) return { isError: true, content: [{ type: 'text', text: refusal(prepared.refused) }] };
    return server.callToolResult!(toolName, prepared.args, ...rest);
  };
  return new Proxy(server, {
    get(target, key) {
      if (key === 'callTool') return callTool;
      if (key === 'callToolResult') return target.callToolResult === undefined ? undefined : callToolResult;
      if (key === 'listTools') return listTools;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function refusal(call: PreparedCall): string {
  return call.message ?? 'Invalid parameters.';
}
