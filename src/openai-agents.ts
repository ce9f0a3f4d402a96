/**
 * `schema-coerce/openai-agents`: tool-call repair for the OpenAI Agents SDK (`@openai/agents-core`,
 * an optional peer dependency).
 * @packageDocumentation
 */
export { coerceFunctionTool, coerceMcpServer, coerceTools } from './adapters/frameworks/openai-agents.js';
export type { AgentsCoercionOptions } from './adapters/frameworks/openai-agents.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/frameworks/framework-call.js';
