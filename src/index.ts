/**
 * schema-coerce: repair LLM tool-call arguments against the tool's own JSON Schema.
 * @packageDocumentation
 */
export { coerceArgs, coerceArgsJson, coerceIntegerArgs, formatToolCall } from './coerce/coerce.js';
export { ArgsCycleError, ArgsParseError, MissingPeerError, NumberPrecisionError, SchemaCoerceError } from './json/errors.js';
export { ExactNumber, LosslessNumber, isLosslessNumber, parseArgs, stringifyArgs, toPlainNumbers } from './json/lossless.js';
export { InvalidArgsError, prepareToolCall } from './report/pipeline.js';
export { findUndeclaredKeys } from './report/undeclared.js';
export type { TextLocation } from './json/errors.js';
export type { PlainNumbersOptions } from './json/lossless.js';
export type { ValidationIssue } from './report/message.js';
export type { ArgsValidator, PrepareOptions, PreparedCall, ReadyCall, RejectedCall } from './report/pipeline.js';
export type { UndeclaredKey } from './report/undeclared.js';
export type {
  Change, ChangeRule, CoerceOptions, CoerceResult, IntegerRange, JsonType, LenientRules, Reading, Refusal, RefusalReason,
} from './coerce/types.js';
