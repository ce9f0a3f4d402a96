/**
 * `schema-coerce/mcp`: one line to repair tool-call arguments in an MCP client or server built on
 * `@modelcontextprotocol/sdk` (an optional peer dependency).
 * @packageDocumentation
 */
export { InvalidToolArgumentsError, NumberPrecisionError, toWire, withArgCoercion, withServerArgCoercion } from './adapters/mcp.js';
export type { ClientCoercionOptions, CoercionReport, McpCoercionOptions, ServerCoercionOptions } from './adapters/mcp.js';
