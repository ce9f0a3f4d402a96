/**
 * `schema-coerce/ai`: deterministic tool-call repair for the Vercel AI SDK (`ai`, an optional peer
 * dependency).
 * @packageDocumentation
 */
export { coercedJsonSchema, createToolCallRepair, repairToolInput } from './adapters/frameworks/ai.js';
export type { CoercedJsonSchemaOptions, ToolCallRepairOptions } from './adapters/frameworks/ai.js';
