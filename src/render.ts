/**
 * `schema-coerce/render`: a tool's input schema made fit to show a model, so it can send the
 * exact parameter names instead of guessing them.
 * @packageDocumentation
 */
export { normalizeSchemaForModel, renderSchemaForModel } from './report/render.js';
export type { RenderOptions } from './report/render.js';
