/**
 * `schema-coerce/langchain`: tool-call repair for LangChain.js (`@langchain/core`, an optional peer
 * dependency; `loadCoercedMcpTools` also needs `@langchain/mcp-adapters`).
 * @packageDocumentation
 */
export { coerceTool, coerceTools } from './adapters/langchain.js';
export { loadCoercedMcpTools } from './adapters/langchain-mcp.js';
export type { LangChainCoercionOptions } from './adapters/langchain.js';
export type { LoadCoercedMcpToolsOptions } from './adapters/langchain-mcp.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/framework-call.js';
