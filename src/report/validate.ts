/**
 * Validation behind `schema-coerce/validate`: schema validation (Ajv, an optional peer dependency, or any provider
 * shaped like the MCP SDK's `jsonSchemaValidator`), undeclared-key rejection, and one message
 * the model can act on.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { isLegacyDialect, isSchemaObject } from '../schema/document.js';
import { compileLinear } from '../schema/patterns.js';
import { toPlainNumbers } from '../json/lossless.js';
import { describeProblems, type ValidationIssue } from './message.js';
import { findUndeclaredKeys, type UndeclaredKey } from './undeclared.js';


/**
 * A validator provider shaped like the MCP TypeScript SDK's `jsonSchemaValidator`, such as its
 * `AjvJsonSchemaValidator` or `CfWorkerJsonSchemaValidator`.
 */
export interface JsonSchemaValidatorProvider {
  getValidator(schema: never): (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
}

/** Which validator judged the arguments. */
export type ValidatorKind = 'ajv-2020' | 'ajv-draft-07' | 'provider' | 'skipped';

/** Options of `validateArgs`. */
export interface ValidateOptions {
  /** Named in the message: `Invalid parameters for tool "…"`. */
  readonly toolName?: string;
  /** Reject keys the schema does not declare (see `findUndeclaredKeys`). Default `true`. */
  readonly rejectUndeclared?: boolean;
  /** Validate with this provider instead of the built-in Ajv. */
  readonly provider?: JsonSchemaValidatorProvider;
}

/** The verdict of `validateArgs`. */
export type ValidationResult =
  | {
      readonly ok: true;
      readonly validator: ValidatorKind;
      /** Why validation was skipped, when `validator` is `"skipped"`. */
      readonly reason?: string;
    }
  | {
      readonly ok: false;
      readonly validator: ValidatorKind;
      readonly reason?: string;
      readonly errors: readonly ValidationIssue[];
      readonly undeclared: readonly UndeclaredKey[];
      /** One plain-text message for the model, naming what it should send. */
      readonly message: string;
    };

type Compiled =
  | { readonly kind: 'ajv-2020' | 'ajv-draft-07'; readonly validate: ValidateFunction }
  | { readonly kind: 'skipped'; readonly reason: string };

/** A pattern Ajv ran whose match against a value cannot be checked (see `Pattern`). */
class PatternUnchecked extends Error {}

/**
 * How Ajv compiles `pattern` and `patternProperties`: by the linear-time matcher the coercion
 * uses (`compileLinear`), so no model-chosen string can make a pattern backtrack without bound
 * (`^(a+)+$` against `"aaaa…a!"`). A pattern that is invalid stops the compile, as Ajv's own would;
 * a match that cannot be checked (a backreference, a text past the step bound) stops the
 * validation, which then fails closed with the reason.
 */
const linearRegExp = Object.assign(
  (source: string, flags: string) => {
    const pattern = compileLinear(source, flags);
    return {
      test(text: string): boolean {
        const matched = pattern.test(text);
        if (matched !== undefined) return matched;
        const shown = source.length > 60 ? `${source.slice(0, 60)}…` : source;
        throw new PatternUnchecked(`the pattern ${JSON.stringify(shown)} cannot be checked in bounded time (${pattern.unsupported ?? 'the text is too long for it'})`);
      },
      toString: () => `/${source}/${flags}`,
    };
  },
  { code: 'schema-coerce linear pattern' },
);

const AJV_OPTIONS = { allErrors: true, strict: false, logger: false, code: { regExp: linearRegExp } } as const;
let ajv2020: Ajv2020 | undefined;
let ajvDraft07: Ajv | undefined;
const compiled = new WeakMap<object, Compiled>();
const provided = new WeakMap<JsonSchemaValidatorProvider, WeakMap<object, ReturnType<JsonSchemaValidatorProvider['getValidator']>>>();

/**
 * Validates tool-call arguments against the tool's JSON Schema and, unless switched off, rejects
 * undeclared keys. Ajv runs with `allErrors: true, strict: false`, in the dialect `$schema` names
 * (2020-12 by default, as MCP specifies; draft-07 when declared). A schema that does not compile
 * is retried once without `$schema` as draft-07; if that fails too, validation is skipped and the
 * result says why, instead of blocking the call: that is the only `ok: true` with
 * `validator: "skipped"`. Validation fails closed: arguments that cannot be checked (nested past
 * what the validator's stack holds, cyclic, or throwing when read) give `ok: false` with the
 * `reason` and a message the model can act on. Compiled validators are cached per schema
 * object. Lossless numbers are validated by value. Never throws.
 *
 * @param args - The arguments (from `parseArgs`, a coercion, or plain values).
 * @param schema - The tool's input JSON Schema.
 * @param options - `toolName`, `rejectUndeclared`, `provider`.
 * @returns `{ ok: true, validator }`, or `{ ok: false, validator, errors, undeclared, message }`.
 * @example
 * const result = validateArgs({ query: 'cats' }, { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, { toolName: 'search' });
 * if (!result.ok) return { isError: true, content: [{ type: 'text', text: result.message }] };
 */
export function validateArgs(args: unknown, schema: unknown, options?: ValidateOptions): ValidationResult {
  try {
    return judge(args, schema, options);
  } catch (error) {
    return refuse(args, schema, options, { kind: 'skipped', ...unchecked(`the arguments could not be read: ${messageOf(error)}`) }, []);
  }
}

function judge(args: unknown, schema: unknown, options: ValidateOptions | undefined): ValidationResult {
  const plain = toPlainNumbers(args, { lossy: true });
  const verdict = options?.provider === undefined ? runAjv(plain, schema) : runProvider(options.provider, plain, schema);
  const undeclared = options?.rejectUndeclared === false ? [] : findUndeclaredKeys(args, schema);
  if (verdict.errors.length === 0 && undeclared.length === 0) {
    return { ok: true, validator: verdict.kind, ...(verdict.reason === undefined ? {} : { reason: verdict.reason }) };
  }
  return refuse(args, schema, options, verdict, undeclared);
}

function refuse(
  args: unknown,
  schema: unknown,
  options: ValidateOptions | undefined,
  verdict: Verdict,
  undeclared: readonly UndeclaredKey[],
): ValidationResult {
  const { kind, errors } = verdict;
  const reason = verdict.reason === undefined ? {} : { reason: verdict.reason };
  const message = describeProblems({ toolName: options?.toolName, args, schema, errors, undeclared });
  return { ok: false, validator: kind, ...reason, errors, undeclared, message };
}

/**
 * The verdict on arguments the validator could not check (it threw on them): they fail, with
 * the reason as the one error, so the model is told to send something checkable.
 */
function unchecked(reason: string, hint = 'send them less deeply nested'): { errors: readonly ValidationIssue[]; reason: string } {
  const message = `could not be checked against the schema (${reason}); ${hint}`;
  return { reason, errors: [{ path: '', keyword: 'unchecked', message }] };
}

interface Verdict {
  readonly kind: ValidatorKind;
  readonly errors: readonly ValidationIssue[];
  readonly reason?: string;
}

function runAjv(plain: unknown, schema: unknown): Verdict {
  const compiledSchema = compile(schema);
  if (compiledSchema.kind === 'skipped') return { kind: 'skipped', errors: [], reason: compiledSchema.reason };
  try {
    const valid = compiledSchema.validate(plain);
    return { kind: compiledSchema.kind, errors: valid ? [] : (compiledSchema.validate.errors ?? []).map(toIssue) };
  } catch (error) {
    if (error instanceof PatternUnchecked) return { kind: compiledSchema.kind, ...unchecked(error.message, 'send a value the pattern can be checked against') };
    // A stack overflow is named in words of our own: each engine spells its message differently.
    const why = error instanceof RangeError ? 'the validator ran out of stack' : `the validator threw: ${messageOf(error)}`;
    return { kind: compiledSchema.kind, ...unchecked(why) };
  }
}

function runProvider(provider: JsonSchemaValidatorProvider, plain: unknown, schema: unknown): Verdict {
  let byProvider = provided.get(provider);
  if (byProvider === undefined) provided.set(provider, (byProvider = new WeakMap()));
  const key = isSchemaObject(schema) ? schema : undefined;
  let validate = key === undefined ? undefined : byProvider.get(key);
  if (validate === undefined) {
    try {
      validate = provider.getValidator(schema as never);
    } catch (error) {
      return { kind: 'skipped', errors: [], reason: `the validator provider could not compile the schema: ${messageOf(error)}` };
    }
    if (key !== undefined) byProvider.set(key, validate);
  }
  try {
    const result = validate(plain);
    if (result.valid) return { kind: 'provider', errors: [] };
    return { kind: 'provider', errors: [{ path: '', keyword: 'schema', message: result.errorMessage ?? 'the arguments are invalid' }] };
  } catch (error) {
    return { kind: 'provider', ...unchecked(`the validator provider threw: ${messageOf(error)}`) };
  }
}

function compile(schema: unknown): Compiled {
  if (typeof schema === 'boolean') return compileWith(schema, '2020');
  if (!isSchemaObject(schema)) return { kind: 'skipped', reason: 'the schema is not a JSON Schema object' };
  let result = compiled.get(schema);
  if (result === undefined) {
    result = compileWithRetry(schema);
    compiled.set(schema, result);
  }
  return result;
}

function compileWithRetry(schema: Record<string, unknown>): Compiled {
  const dialect = isLegacyDialect(schema['$schema']) ? 'draft-07' : '2020';
  try {
    return compileWith(schema, dialect);
  } catch (first) {
    const { $schema: _dropped, ...rest } = schema;
    try {
      return compileWith(rest, 'draft-07');
    } catch (second) {
      return {
        kind: 'skipped',
        reason: `the schema does not compile (${messageOf(first)}), nor as draft-07 without $schema (${messageOf(second)})`,
      };
    }
  }
}

function compileWith(schema: Record<string, unknown> | boolean, dialect: '2020' | 'draft-07'): Compiled {
  const ajv = dialect === '2020' ? (ajv2020 ??= new Ajv2020(AJV_OPTIONS)) : (ajvDraft07 ??= new Ajv(AJV_OPTIONS));
  try {
    return { kind: dialect === '2020' ? 'ajv-2020' : 'ajv-draft-07', validate: ajv.compile(schema) };
  } finally {
    // The compiled function lives on; Ajv's own cache (keyed by schema object and `$id`) must not,
    // or every new schema would stay in memory and two schemas sharing an `$id` would collide.
    if (typeof schema === 'object') ajv.removeSchema(schema);
  }
}

function toIssue(error: ErrorObject): ValidationIssue {
  return { path: error.instancePath, keyword: error.keyword, message: error.message ?? 'is invalid', params: error.params };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
