/**
 * `schema-coerce/mastra`: tool-call repair for Mastra (`@mastra/core`, an optional peer dependency).
 * @packageDocumentation
 */
export { coerceTool, coerceTools } from './adapters/mastra.js';
export type { MastraCoercionOptions } from './adapters/mastra.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/framework-call.js';
