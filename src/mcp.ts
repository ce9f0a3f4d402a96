/**
 * `schema-coerce/mcp`: one line to repair tool-call arguments in an MCP client or server built on
 * `@modelcontextprotocol/sdk` (an optional peer dependency).
 * @packageDocumentation
 */
export { InvalidToolArgumentsError, withArgCoercion } from './adapters/mcp/client.js';
export { withServerArgCoercion } from './adapters/mcp/server.js';
export { NumberPrecisionError, toWire } from './adapters/mcp/wire.js';
export type { ClientCoercionOptions } from './adapters/mcp/client.js';
export type { CoercionReport, McpCoercionOptions } from './adapters/mcp/options.js';
export type { ServerCoercionOptions } from './adapters/mcp/server.js';
