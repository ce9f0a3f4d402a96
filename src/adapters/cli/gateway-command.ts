/**
 * `schema-coerce gateway`'s command line: one table of its flags (`GATEWAY_OPTIONS`), which both
 * the command line and the configuration file (`--config`, whose keys are the same flags) are read
 * with, and the gateway's options made from them.
 */
import { parseArgs as parseCommandLine } from 'node:util';
import { HEALTH_PATHS } from '../gateway/health.js';
import type { GatewayOptions, GatewayUpstream } from '../gateway/options.js';
import { readScopeRule } from '../gateway/policy.js';
import { readRate, readToolRate } from '../gateway/rate-limit.js';
import { httpTarget, parsed, repairOptions, REPAIR_OPTIONS, splitCommand, UsageError } from './command-line.js';
import { configSchema, readConfigFile, withConfigFile, type FlagValues } from './config-file.js';

/** The gateway's options and where its server is. */
export type GatewayRun = GatewayOptions & { readonly upstream: GatewayUpstream };

/**
 * The gateway's flags: the proxy's and its own. Each is a key of the configuration file too
 * (`whole`: a positive whole number, an integer in the file).
 */
const GATEWAY_OPTIONS = {
  ...REPAIR_OPTIONS,
  config: { type: 'string' },
  'config-schema': { type: 'boolean' },
  listen: { type: 'string' },
  path: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'json-response': { type: 'boolean' },
  'max-body': { type: 'string', whole: true },
  'max-sessions': { type: 'string', whole: true },
  'idle-timeout': { type: 'string', whole: true },
  'allow-tool': { type: 'string', multiple: true },
  'deny-tool': { type: 'string', multiple: true },
  'tool-scope': { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
  'tool-rate-limit': { type: 'string', multiple: true },
  'no-health': { type: 'boolean' },
} as const;

/** The flags that are no key of the configuration file. */
const NOT_IN_FILE: readonly string[] = ['help', 'config', 'config-schema'];

type Values = ReturnType<typeof parseCommandLine<{ options: typeof GATEWAY_OPTIONS; strict: true }>>['values'];

/**
 * Reads the gateway's command line (and its `--config` file, under it).
 *
 * @returns The gateway's run; `'help'` for `--help`; the configuration file's JSON Schema, as
 *   text, for `--config-schema`.
 */
export async function readGatewayCommandLine(argv: string[]): Promise<GatewayRun | 'help' | { readonly print: string }> {
  const { own, command: given } = splitCommand(argv);
  const { values: flags } = parsed(() => parseCommandLine({ args: own, strict: true, options: GATEWAY_OPTIONS }));
  if (flags.help === true) return 'help';
  if (flags['config-schema'] === true) return { print: `${JSON.stringify(configSchema(GATEWAY_OPTIONS, NOT_IN_FILE), null, 2)}\n` };
  const file = flags.config === undefined ? undefined : await readConfigFile(flags.config, GATEWAY_OPTIONS, NOT_IN_FILE);
  // An upstream on the command line (a --url or a command) replaces the file's, whichever it names.
  const ownUpstream = flags.url !== undefined || given.length > 0;
  const command = ownUpstream ? given : [...(file?.command ?? [])];
  const fromFile = file === undefined || !ownUpstream ? file : { ...file, values: { ...file.values, url: undefined } };
  return withConfigFile(fromFile, flags as FlagValues, (values) => gatewayRun(values as Values, command));
}

async function gatewayRun(values: Values, command: string[]): Promise<GatewayRun> {
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give --url <url> or the server command after --, e.g. schema-coerce gateway --listen 127.0.0.1:8808 -- node server.js');
  if (values.listen === undefined) throw new UsageError('--listen <host:port> is required, e.g. --listen 127.0.0.1:8808');
  const listen = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(values.listen);
  if (listen === null || Number(listen[2]) > 65_535) throw new UsageError(`--listen ${JSON.stringify(values.listen)} must be host:port`);
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path ${JSON.stringify(path)} must start with /`);
  const health = values['no-health'] !== true;
  if (health && HEALTH_PATHS.includes(path)) throw new UsageError(`--path ${JSON.stringify(path)} is a health endpoint's: give another path, or --no-health`);
  return {
    upstream: target === undefined ? { kind: 'stdio', command } : { kind: 'url', ...target },
    ...(await repairOptions(values)),
    host: listen[1]!.replace(/^\[|\]$/g, ''),
    port: Number(listen[2]),
    path,
    ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
    ...(values['allowed-origin'] === undefined ? {} : { allowedOrigins: values['allowed-origin'] }),
    jsonResponse: values['json-response'] === true,
    limits: {
      ...count('--max-body', values['max-body'], 'maxBody', 1),
      ...count('--max-sessions', values['max-sessions'], 'maxSessions', 1),
      ...count('--idle-timeout', values['idle-timeout'], 'idleMs', 1_000),
    },
    toolPolicy: { allow: values['allow-tool'] ?? [], deny: values['deny-tool'] ?? [], scoped: checked('--tool-scope', values['tool-scope'], readScopeRule) },
    rateLimits: {
      ...(values['rate-limit'] === undefined ? {} : { caller: checked('--rate-limit', [values['rate-limit']], readRate)[0] }),
      tools: checked('--tool-rate-limit', values['tool-rate-limit'], readToolRate),
    },
    health,
  };
}

/** The values of a repeatable rule flag, each read by `read` (which says why one cannot be). */
function checked(flag: string, rules: readonly string[] | undefined, read: (rule: string) => object | string): string[] {
  for (const rule of rules ?? []) {
    const why = read(rule);
    if (typeof why === 'string') throw new UsageError(`${flag} ${why}`);
  }
  return [...(rules ?? [])];
}

/** A whole number option, positive, times `unit`, as the limit `key`. */
function count(flag: string, value: string | undefined, key: string, unit: number): Record<string, number> {
  if (value === undefined) return {};
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${flag} must be a positive whole number, not ${JSON.stringify(value)}`);
  return { [key]: Number(value) * unit };
}
