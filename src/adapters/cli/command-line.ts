/**
 * What the subcommands' command lines share: the usage error, the repair options of the proxy
 * and the gateway, and the reading of an upstream (`--url` and `--header`, or a command after `--`).
 */
import {
  MissingPeerError, SchemaCoerceError, type ArgsValidator, type IntegerRange,
} from '../../index.js';
import { TargetError, targetHeaders, targetUrl } from '../proxy/http-target.js';
import type { ProxyOptions } from '../proxy/session.js';
import { loadValidateArgs } from '../shared/load-validator.js';

/**
 * A wrong invocation or unreadable input: the CLI prints its `detail` after the name of the
 * command it concerns (`schema-coerce`, `schema-coerce proxy`) and exits 2.
 */
export class UsageError extends SchemaCoerceError {
  /** The command the error concerns, as its messages are prefixed: `schema-coerce proxy`. */
  readonly command: string;

  constructor(detail: string, command = 'schema-coerce') {
    super(detail);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** The options the proxy and the gateway share: the repair, and where the server is. */
export const REPAIR_OPTIONS = {
  lenient: { type: 'boolean', short: 'l' },
  validate: { type: 'boolean' },
  'reject-undeclared': { type: 'boolean' },
  'integer-range': { type: 'string' },
  log: { type: 'string' },
  verbose: { type: 'boolean' },
  'repair-results': { type: 'boolean' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A subcommand's own arguments (before `--`) and the server command (after it). */
export function splitCommand(argv: string[]): { own: string[]; command: string[] } {
  const split = argv.indexOf('--');
  return split === -1 ? { own: argv, command: [] } : { own: argv.slice(0, split), command: argv.slice(split + 1) };
}

/** Runs `parse`, a bad option becoming a usage error. */
export function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The repair options of a subcommand's `values`, the `--validate` validator loaded. */
export async function repairOptions(values: { lenient?: boolean; validate?: boolean; 'reject-undeclared'?: boolean; 'integer-range'?: string; log?: string; verbose?: boolean; 'repair-results'?: boolean }): Promise<ProxyOptions> {
  const range = checkRange(values['integer-range']);
  let validator: ArgsValidator | undefined;
  if (values.validate === true) {
    try {
      validator = await loadValidateArgs();
    } catch (error) {
      if (error instanceof MissingPeerError) throw new UsageError(`--validate ${error.need}`);
      throw error;
    }
  }
  return {
    lenient: values.lenient === true,
    ...(validator === undefined ? {} : { validator }),
    rejectUndeclared: values['reject-undeclared'] === true,
    verbose: values.verbose === true,
    ...(values.log === undefined ? {} : { log: values.log }),
    ...(range === undefined ? {} : { integerRange: range }),
    ...(values['repair-results'] === true ? await resultRepair() : {}),
  };
}

/** `--repair-results`, with the validator that tells an error's mismatching structuredContent when ajv is there (without it such results go on as they came). */
async function resultRepair(): Promise<Pick<ProxyOptions, 'repairResults' | 'resultValidator'>> {
  try {
    return { repairResults: true, resultValidator: await loadValidateArgs() };
  } catch (error) {
    if (error instanceof MissingPeerError) return { repairResults: true };
    throw error;
  }
}

/** A `--url` upstream, with its `--header`s; a server command may not be given too. */
export function httpTarget(url: string, headers: readonly string[], command: readonly string[]): { url: URL; headers: Record<string, string> } {
  if (command.length > 0) throw new UsageError('give either --url or a server command after --, not both');
  try {
    return { url: targetUrl(url), headers: targetHeaders(headers) };
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
}

/** `--integer-range`, checked. */
export function checkRange(range: string | undefined): IntegerRange | undefined {
  if (range !== undefined && !['int64', 'safe', 'unbounded'].includes(range)) {
    throw new UsageError(`--integer-range must be int64, safe or unbounded, not "${range}"`);
  }
  return range as IntegerRange | undefined;
}
