/**
 * `schema-coerce/mcp`: one line to repair tool-call arguments in an MCP client or server built on
 * the MCP TypeScript SDK, v1 (`@modelcontextprotocol/sdk`) or v2 (`@modelcontextprotocol/client`,
 * `@modelcontextprotocol/server`), both optional peer dependencies, neither imported here; and
 * `repairToolResult`, for tool results against their `outputSchema`.
 * @packageDocumentation
 */
export { InvalidToolArgumentsError, withArgCoercion } from './adapters/mcp/client.js';
export { withServerArgCoercion } from './adapters/mcp/server.js';
export { NumberPrecisionError, toWire } from './adapters/mcp/wire.js';
export { repairToolResult } from './report/tool-result.js';
export type { ClientCoercionOptions } from './adapters/mcp/client.js';
export type { CoercionReport, McpCoercionOptions } from './adapters/mcp/options.js';
export type { McpClient, McpHighLevelServer, McpLowLevelServer, McpTransport } from './adapters/mcp/sdk-types.js';
export type { ServerCoercionOptions } from './adapters/mcp/server.js';
export type { RepairedToolResult, ToolResultRepairOptions } from './report/tool-result.js';
