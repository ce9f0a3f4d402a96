/**
 * What the proxy's and the gateway's command lines share: the repair flags, and where the server
 * is (`--url` and `--header`, or a command after `--`).
 */
import { MissingPeerError, type ArgsValidator } from '../../index.js';
import { TargetError, targetHeaders, targetUrl } from '../proxy/http-target.js';
import type { ProxyOptions } from '../proxy/session.js';
import { loadValidateArgs } from '../shared/load-validator.js';
import { checkRange } from './command-line.js';
import { UsageError } from './errors.js';

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
  'header-env': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A subcommand's own arguments (before `--`) and the server command (after it). */
export function splitCommand(argv: string[]): { own: string[]; command: string[] } {
  const split = argv.indexOf('--');
  return split === -1 ? { own: argv, command: [] } : { own: argv.slice(0, split), command: argv.slice(split + 1) };
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

/** `--repair-results`, with the validator that tells an error's mismatching structuredContent when ajv is there (without it such structuredContent is repaired like any other, never dropped). */
async function resultRepair(): Promise<Pick<ProxyOptions, 'repairResults' | 'resultValidator'>> {
  try {
    return { repairResults: true, resultValidator: await loadValidateArgs() };
  } catch (error) {
    if (error instanceof MissingPeerError) return { repairResults: true };
    throw error;
  }
}

/** A `--url` upstream, with its `--header`s and `--header-env`s; a server command may not be given too. */
export function httpTarget(url: string, headers: readonly string[], fromEnv: readonly string[], command: readonly string[]): { url: URL; headers: Record<string, string> } {
  if (command.length > 0) throw new UsageError('give either --url or a server command after --, not both');
  try {
    return { url: targetUrl(url), headers: targetHeaders(headers, fromEnv) };
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
}
