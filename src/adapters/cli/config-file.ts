/**
 * A subcommand's configuration file (`--config file.json`): one JSON object whose keys are the
 * subcommand's long flags without the dashes (`"max-sessions": 64`, `"allowed-host": ["a"]`,
 * `"lenient": true`), and `command`, the server command. Its JSON Schema is made from the same
 * table the command line is read with, so a flag added to the table is a key of the file with no
 * more work (a stricter schema for its value goes in the subcommand's `refine`). The file is read
 * as the library reads tool arguments (`parseArgs`: strict JSON, a syntax error or a repeated key
 * named by line and column) and checked by the library's own validator (`schema-coerce/validate`,
 * which needs the optional peer `ajv`): every problem is named by its JSON Pointer in the file,
 * in the order of the file's keys. A flag given on the command line wins over the file's key.
 */
import { readFileSync } from 'node:fs';
import { ArgsParseError, MissingPeerError, parseArgs, toPlainNumbers, type ValidationIssue } from '../../index.js';
import { loadValidateArgs } from '../shared/load-validator.js';
import { UsageError } from './errors.js';

/** A flag as the command line's table (`node:util` `parseArgs`) declares it. */
interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
}

/** Values as `parseArgs` of `node:util` gives them for a table: a string, a boolean, or a list of strings. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** The file's key for the server command (what follows `--` on the command line). */
const COMMAND_KEY = 'command';
/** The flags that are no key of a file: the help, and the file's own. */
const NOT_IN_FILE: readonly string[] = ['help', 'config', 'config-schema'];

/**
 * The JSON Schema of a configuration file for the flags of `table` (but `help`, `config` and
 * `config-schema`): a string flag's value a string, a boolean's a boolean, a repeatable flag's an
 * array of strings, unless `refine` gives the flag's schema (a `pattern` with a `description` is
 * named by it: `must be host:port`); `command`, the server command, an array of strings; and
 * `$schema`, for an editor.
 */
export function configSchema(title: string, table: Readonly<Record<string, FlagSpec>>, refine: Readonly<Record<string, object>>): Record<string, unknown> {
  const properties: Record<string, object> = { $schema: { type: 'string' }, [COMMAND_KEY]: { type: 'array', items: { type: 'string' }, minItems: 1 } };
  for (const [name, spec] of Object.entries(table)) {
    if (NOT_IN_FILE.includes(name)) continue;
    properties[name] = refine[name] ?? (spec.multiple === true ? { type: 'array', items: { type: 'string' } } : { type: spec.type });
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title, type: 'object', additionalProperties: false, properties };
}

/** What a configuration file gives: flag values as the command line would (a number as its digits), and the server command. */
export interface ConfigFile {
  readonly path: string;
  readonly values: FlagValues;
  readonly command: readonly string[] | undefined;
}

/**
 * Reads a configuration file and checks it against `schema` (`configSchema`'s).
 *
 * @throws {UsageError} Naming the file and, for each problem, its JSON Pointer: a file that cannot
 *   be read, text that is not JSON (with its position), every key or value the schema refuses;
 *   when `ajv` is not installed.
 */
export async function readConfigFile(path: string, schema: Record<string, unknown>): Promise<ConfigFile> {
  const label = `--config ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${label}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let document: unknown;
  try {
    document = parseArgs(text);
  } catch (error) {
    if (error instanceof ArgsParseError) throw new UsageError(`${label}: ${error.detail}`);
    throw error;
  }
  let validate;
  try {
    validate = await loadValidateArgs();
  } catch (error) {
    if (error instanceof MissingPeerError) throw new UsageError(`${label} ${error.need}`);
    throw error;
  }
  const verdict = validate(document, schema, { rejectUndeclared: true });
  if (!verdict.ok) {
    const properties = schema['properties'] as Record<string, { description?: string }>;
    // In the order of the file's keys, the file itself first.
    const keys = Object.keys(document as object);
    const at = (pointer: string): number => keys.indexOf(pointer.split('/')[1] ?? '');
    const problems = [
      ...(verdict.errors ?? []).filter((issue) => issue.keyword !== 'additionalProperties').map((issue) => ({ path: issue.path, text: described(issue, properties) })),
      ...(verdict.undeclared ?? []).map((key) => ({ path: key.path, text: `is not an option${key.suggestion === undefined ? '' : ` (did you mean ${key.suggestion}?)`}` })),
    ]
      .sort((a, b) => at(a.path) - at(b.path))
      .map((problem) => `${problem.path === '' ? 'the file' : problem.path} ${problem.text}`);
    throw new UsageError(`${label}: ${problems.join('; ')}`);
  }
  const values: FlagValues = {};
  let command: string[] | undefined;
  for (const [key, value] of Object.entries(toPlainNumbers(document) as Record<string, unknown>)) {
    if (key === COMMAND_KEY) command = value as string[];
    else if (key !== '$schema') values[key] = typeof value === 'number' ? String(value) : (value as FlagValues[string]);
  }
  return { path, values, command };
}

/** What is wrong with a value: a pattern named by the `description` of its flag, an enum by its values. */
function described(issue: ValidationIssue, properties: Readonly<Record<string, { description?: string }>>): string {
  const description = issue.keyword === 'pattern' ? properties[issue.path.slice(1)]?.description : undefined;
  if (description !== undefined) return `must be ${description}`;
  const allowed = issue.keyword === 'enum' ? (issue.params?.['allowedValues'] as unknown[] | undefined) : undefined;
  return allowed === undefined ? issue.message : `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
}

/**
 * Runs `read` over the command line's values with the file's under them; a usage error about a
 * flag whose value came from the file is said of the file's key instead (`/rate-limit "fast" must be …`).
 */
export async function withConfigFile<T>(file: ConfigFile | undefined, flags: FlagValues, read: (values: FlagValues) => Promise<T>): Promise<T> {
  if (file === undefined) return read(flags);
  try {
    return await read({ ...file.values, ...flags });
  } catch (error) {
    const flag = error instanceof UsageError ? /^--([a-z][a-z0-9-]*)( |$)/.exec(error.detail) : null;
    if (flag === null || flags[flag[1]!] !== undefined || file.values[flag[1]!] === undefined) throw error;
    throw new UsageError(`--config ${file.path}: /${flag[1]}${(error as UsageError).detail.slice(flag[1]!.length + 2)}`);
  }
}

