/**
 * schema-coerce: repair LLM tool-call arguments against the tool's own JSON Schema.
 * @packageDocumentation
 */
export { coerceArgs, coerceArgsJson, coerceIntegerArgs, formatToolCall } from './coerce.js';
export { ArgsParseError } from './errors.js';
export { LosslessNumber, isLosslessNumber, parseArgs, stringifyArgs, toPlainNumbers } from './lossless.js';
export { prepareToolCall } from './pipeline.js';
export { findUndeclaredKeys } from './undeclared.js';
export type { TextLocation } from './errors.js';
export type { ValidationIssue } from './message.js';
export type { ArgsValidator, PrepareOptions, PreparedCall } from './pipeline.js';
export type { UndeclaredKey } from './undeclared.js';
export type {
  Change, ChangeRule, CoerceOptions, CoerceResult, IntegerRange, JsonType, LenientRules, Refusal, RefusalReason,
} from './types.js';
