/**
 * `schema-coerce/langchain`: tool-call repair for LangChain.js (`@langchain/core`, an optional peer
 * dependency; `loadCoercedMcpTools` also needs `@langchain/mcp-adapters`).
 * @packageDocumentation
 */
export { coerceTool, coerceTools } from './adapters/frameworks/langchain.js';
export { loadCoercedMcpTools } from './adapters/frameworks/langchain-mcp.js';
export type { LangChainCoercionOptions } from './adapters/frameworks/langchain.js';
export type { LoadCoercedMcpToolsOptions } from './adapters/frameworks/langchain-mcp.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/frameworks/framework-call.js';
