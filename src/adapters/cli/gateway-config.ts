/**
 * `schema-coerce gateway --config <file>`: the gateway's options from a JSON file, one key per
 * option, named as its flag (`"max-sessions": 64`, `"allowed-host": ["a.example"]`,
 * `"lenient": true`); a flag on the command line wins over the file's key. The file is read as
 * the library reads tool arguments (`parseArgs`: strict JSON, a syntax error or a repeated key
 * named by line and column) and checked by the library's own validator (`validateArgs`, which
 * needs the optional peer `ajv`) against a JSON Schema made from the options: every problem is
 * named by its JSON Pointer in the file, an unknown key as not an option.
 *
 * An option added to the command line is a key of the file with no more work; a stricter schema
 * for its value goes in `refine`.
 */
import { readFileSync } from 'node:fs';
import { ArgsParseError, MissingPeerError, parseArgs, SchemaCoerceError, toPlainNumbers, type ValidationIssue } from '../../index.js';
import { LIMIT_OPTIONS, scaleOf } from '../gateway/limits.js';
import { DEFAULT_LIMITS, type GatewayLimits } from '../gateway/options.js';
import { loadValidateArgs } from '../shared/load-validator.js';

/** A config file that cannot be read or is not valid: its `detail` names the file, and each problem by its path. */
export class ConfigError extends SchemaCoerceError {
  constructor(detail: string) {
    super(detail);
    this.name = 'ConfigError';
  }
}

/** The options of a command, as `node:util`'s `parseArgs` takes them. */
type OptionTable = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly multiple?: boolean }>>;

/** What `parseArgs` of `node:util` gives for options: a string, a boolean, or a list of strings. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** `--listen`: a host name, an IPv4 address or a bracketed IPv6 one, a colon, a port. */
export const LISTEN = '^(\\[[0-9a-fA-F:.]+\\]|[^:\\s]+):(\\d{1,5})$';

/** What a gateway's config file may hold beyond each option's type: the forms its command line checks. */
export const CONFIG_REFINED: Readonly<Record<string, object>> = {
  listen: { type: 'string', pattern: LISTEN, description: 'host:port' },
  path: { type: 'string', pattern: '^/', description: 'a path starting with /' },
  'integer-range': { enum: ['int64', 'safe', 'unbounded'] },
};

/** The largest whole seconds a timer takes (2^31 - 1 ms): a longer one would fire at once. */
export const MAX_SECONDS = 2_147_483;

/** The schemas of the limits' values: whole numbers from 1 (0 where it switches the limit off), seconds within what a timer takes. */
function limitSchemas(): Record<string, object> {
  const schemas: Record<string, object> = {};
  for (const option of LIMIT_OPTIONS) {
    schemas[option.name] = { type: 'integer', minimum: option.off === true ? 0 : 1, maximum: scaleOf(option) === 1 ? Number.MAX_SAFE_INTEGER : MAX_SECONDS };
  }
  return schemas;
}

/**
 * The JSON Schema of a config file for the command whose options are `options` (`help` and
 * `config` itself are not keys): each string option a string (a number for a limit), each
 * boolean a boolean, each repeatable option an array of strings; `refine` replaces an option's
 * schema (a `pattern` with a `description` is named by it: `must be host:port`).
 */
export function configSchema(options: OptionTable, refine: Readonly<Record<string, object>>): object {
  const limits = limitSchemas();
  const properties: Record<string, object> = {};
  for (const [name, option] of Object.entries(options)) {
    if (name === 'help' || name === 'config') continue;
    properties[name] = refine[name] ?? limits[name] ?? (option.multiple === true ? { type: 'array', items: { type: 'string' } } : { type: option.type });
  }
  return { type: 'object', properties };
}

/**
 * Reads a config file into option values as the command line gives them (a number as its
 * digits), once it is found valid against `schema`.
 *
 * @throws {ConfigError} When the file cannot be read, is not JSON, or does not match `schema`
 *   (every problem named by its path); when `ajv` is not installed.
 */
export async function readConfig(path: string, schema: object): Promise<OptionValues> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--config ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let config: unknown;
  try {
    config = parseArgs(text);
  } catch (error) {
    if (error instanceof ArgsParseError) throw new ConfigError(`--config ${path}: not JSON at line ${error.line} column ${error.column}: ${error.reason}`);
    throw error;
  }
  let validateArgs;
  try {
    validateArgs = await loadValidateArgs();
  } catch (error) {
    if (error instanceof MissingPeerError) throw new ConfigError(`--config ${error.need}`);
    throw error;
  }
  const verdict = validateArgs(config, schema, { rejectUndeclared: true });
  if (!verdict.ok) {
    const properties = (schema as { properties: Record<string, { description?: string }> }).properties;
    // In the order of the file's keys, the file itself first.
    const keys = Object.keys(config as object);
    const at = (path: string): number => keys.indexOf(path.split('/')[1] ?? '');
    const problems = [
      ...(verdict.errors ?? []).map((issue) => ({ path: issue.path, text: described(issue, properties) })),
      ...(verdict.undeclared ?? []).map((key) => ({ path: key.path, text: 'is not an option' })),
    ]
      .sort((a, b) => at(a.path) - at(b.path))
      .map((problem) => `${problem.path === '' ? '(the file)' : problem.path} ${problem.text}`);
    throw new ConfigError(`--config ${path}: ${problems.join('; ')}`);
  }
  const values: OptionValues = {};
  for (const [name, value] of Object.entries(toPlainNumbers(config) as Record<string, unknown>)) {
    values[name] = typeof value === 'number' ? String(value) : (value as string | boolean | string[]);
  }
  return values;
}

/** What is wrong with a value: a pattern named by the `description` of its option, an enum by its values. */
function described(issue: ValidationIssue, properties: Readonly<Record<string, { description?: string }>>): string {
  const description = issue.keyword === 'pattern' ? properties[issue.path.slice(1)]?.description : undefined;
  if (description !== undefined) return `must be ${description}`;
  const allowed = issue.keyword === 'enum' ? (issue.params?.['allowedValues'] as unknown[] | undefined) : undefined;
  return allowed === undefined ? issue.message : `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
}

/**
 * The limits the options set (`LIMIT_OPTIONS`), each a whole number in its unit: from 1, or 0 where
 * that switches it off; seconds at most `MAX_SECONDS`.
 *
 * @throws {ConfigError} Naming the flag whose value is not one; when `--headers-timeout` is
 *   longer than `--request-timeout` (the head is part of the request).
 */
export function limitsOf(values: OptionValues): Partial<GatewayLimits> {
  const limits: Partial<Record<keyof GatewayLimits, number>> = {};
  for (const option of LIMIT_OPTIONS) {
    const value = values[option.name];
    if (value === undefined) continue;
    const whole = typeof value === 'string' && /^(?:0|[1-9]\d{0,15})$/.test(value) ? Number(value) : NaN;
    const max = scaleOf(option) === 1 ? Number.MAX_SAFE_INTEGER : MAX_SECONDS;
    if (!(whole >= (option.off === true ? 0 : 1) && whole <= max)) {
      const range = `${option.off === true ? 'a whole number (0: off)' : 'a positive whole number'}${scaleOf(option) === 1 ? '' : ` of seconds, at most ${MAX_SECONDS}`}`;
      throw new ConfigError(`--${option.name} must be ${range}, not ${JSON.stringify(value)}`);
    }
    limits[option.key] = whole * scaleOf(option);
  }
  const headers = limits.headersTimeoutMs ?? DEFAULT_LIMITS.headersTimeoutMs;
  const request = limits.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
  if (headers > request) throw new ConfigError(`--headers-timeout (${headers / 1_000} s) must not be longer than --request-timeout (${request / 1_000} s): the head is part of the request`);
  return limits;
}
