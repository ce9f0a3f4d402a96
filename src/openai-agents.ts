/**
 * `schema-coerce/openai-agents`: tool-call repair for the OpenAI Agents SDK (`@openai/agents-core`,
 * an optional peer dependency).
 * @packageDocumentation
 */
export { coerceFunctionTool, coerceMcpServer, coerceTools } from './adapters/openai-agents.js';
export type { AgentsCoercionOptions } from './adapters/openai-agents.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/framework-call.js';
