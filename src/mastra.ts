/**
 * `schema-coerce/mastra`: tool-call repair for Mastra (`@mastra/core`, an optional peer dependency).
 * @packageDocumentation
 */
export { coerceTool, coerceTools } from './adapters/frameworks/mastra.js';
export type { MastraCoercionOptions } from './adapters/frameworks/mastra.js';
export type { FrameworkCoercionOptions, FrameworkCoercionReport } from './adapters/frameworks/framework-call.js';
