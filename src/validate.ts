/**
 * `schema-coerce/validate`: schema validation (Ajv, an optional peer dependency, or any provider
 * shaped like the MCP SDK's `jsonSchemaValidator`), undeclared-key rejection, and one message
 * the model can act on.
 * @packageDocumentation
 */
export { validateArgs } from './report/validate.js';
export { findUndeclaredKeys, renameUnambiguousKeys } from './report/undeclared.js';
export type { JsonSchemaValidatorProvider, ValidateOptions, ValidationResult, ValidatorKind } from './report/validate.js';
export type { KeyRenames, UndeclaredKey } from './report/undeclared.js';
export type { ValidationIssue } from './report/message.js';
