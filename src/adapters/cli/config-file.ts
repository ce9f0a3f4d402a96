/**
 * A subcommand's configuration file (`--config file.json`): one JSON object whose keys are the
 * subcommand's long flags without the dashes, its JSON Schema made from the same table the
 * command line is read with (a flag added to the table is a key of the file), validated with the
 * library's own validator (`schema-coerce/validate`, so `ajv` must be installed). A flag given on
 * the command line wins over the file's key.
 */
import { readFileSync } from 'node:fs';
import { ArgsParseError, MissingPeerError, parseArgs, toPlainNumbers } from '../../index.js';
import { loadValidateArgs } from '../shared/load-validator.js';
import { UsageError } from './command-line.js';

/** A flag as the command line's table (`node:util` `parseArgs`) declares it. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** The value is a positive whole number: in the file, a JSON integer. */
  readonly whole?: boolean;
}

/** Values as `parseArgs` gives them for a table. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** The file's key for the server command (what follows `--` on the command line). */
const COMMAND_KEY = 'command';
/** The largest whole number a flag takes. */
const MAX_WHOLE = 2 ** 53 - 1;

/**
 * The JSON Schema of a configuration file for the flags of `table`, but those in `skip` (`help`,
 * `config`): a flag's value as JSON (a string, `true`/`false`, a whole number), an array of them
 * for a repeatable flag, and `command`, the server command as an array of strings.
 */
export function configSchema(table: Readonly<Record<string, FlagSpec>>, skip: readonly string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = { $schema: { type: 'string' }, [COMMAND_KEY]: { type: 'array', items: { type: 'string' }, minItems: 1 } };
  for (const [name, spec] of Object.entries(table)) {
    if (skip.includes(name)) continue;
    const one = spec.type === 'boolean' ? { type: 'boolean' } : spec.whole === true ? { type: 'integer', minimum: 1, maximum: MAX_WHOLE } : { type: 'string' };
    properties[name] = spec.multiple === true ? { type: 'array', items: one } : one;
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'schema-coerce gateway --config', type: 'object', additionalProperties: false, properties };
}

/** What a configuration file gives: flag values as the command line would, and the server command. */
export interface ConfigFile {
  readonly path: string;
  readonly values: FlagValues;
  readonly command: readonly string[] | undefined;
}

/**
 * Reads and validates a configuration file.
 *
 * @throws {UsageError} Naming the file and, for each problem, its JSON Pointer: a file that cannot
 *   be read, text that is not JSON (with its position), every key or value the schema refuses.
 */
export async function readConfigFile(path: string, table: Readonly<Record<string, FlagSpec>>, skip: readonly string[]): Promise<ConfigFile> {
  const label = `--config ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${label}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  let document: unknown;
  try {
    document = toPlainNumbers(parseArgs(text), { lossy: true });
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
  const verdict = validate(document, configSchema(table, skip), { rejectUndeclared: true });
  if (!verdict.ok) {
    const problems = [
      ...(verdict.undeclared ?? []).map((key) => `${key.path} is not an option${key.suggestion === undefined ? '' : ` (did you mean ${key.suggestion}?)`}`),
      ...(verdict.errors ?? []).filter((error) => error.keyword !== 'additionalProperties').map((error) => `${error.path === '' ? 'the file' : error.path} ${error.message}`),
    ];
    throw new UsageError(`${label}: ${problems.join('; ')}`);
  }
  const values: FlagValues = {};
  for (const [key, value] of Object.entries(document as Record<string, unknown>)) {
    if (key === '$schema' || key === COMMAND_KEY) continue;
    values[key] = typeof value === 'number' ? String(value) : (value as FlagValues[string]);
  }
  return { path, values, command: (document as Record<string, string[] | undefined>)[COMMAND_KEY] };
}

/**
 * Runs `read` over the command line's values with the file's under them; a usage error about a
 * flag whose value came from the file is said of the file's key instead.
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
