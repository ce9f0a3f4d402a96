/**
 * `schema-coerce gateway`'s command line: one table of its flags (`GATEWAY_OPTIONS`: the proxy's,
 * its own, its limits and its observability flags), which both the command line and the
 * configuration file (`--config`, whose keys are the same flags) are read with, and the gateway's
 * options made from them. `--config-schema` prints the file's JSON Schema.
 */
import { parseArgs as parseCommandLine } from 'node:util';
import { HEALTH_PATHS } from '../gateway/health.js';
import { LIMIT_OPTIONS, scaleOf } from '../gateway/limits.js';
import { DEFAULT_LIMITS, type GatewayLimits, type GatewayOptions, type GatewayUpstream } from '../gateway/options.js';
import { readScopeRule } from '../gateway/policy.js';
import { readRate, readToolRate } from '../gateway/rate-limit.js';
import { configSchema, readConfigFile, withConfigFile, type FlagValues } from './config-file.js';
import { UsageError } from './errors.js';
import { LISTEN, listenAddress, parsed } from './flags.js';
import { OBSERVE_FLAGS, observeOptions } from './observe-flags.js';
import { AUTH_FLAGS, authOptions } from './auth-flags.js';
import { httpTarget, repairOptions, REPAIR_OPTIONS, splitCommand } from './upstream-flags.js';

/** The gateway's options and where its server is. */
export type GatewayRun = GatewayOptions & { readonly upstream: GatewayUpstream };

/** The gateway's flags: the proxy's, its own, a flag per limit (`LIMIT_OPTIONS`) and the observability flags. Each is a key of the configuration file too. */
const GATEWAY_OPTIONS = {
  ...REPAIR_OPTIONS,
  listen: { type: 'string' },
  path: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'json-response': { type: 'boolean' },
  config: { type: 'string' },
  'config-schema': { type: 'boolean' },
  'allow-tool': { type: 'string', multiple: true },
  'deny-tool': { type: 'string', multiple: true },
  'tool-scope': { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
  'tool-rate-limit': { type: 'string', multiple: true },
  'no-health': { type: 'boolean' },
  ...(Object.fromEntries(LIMIT_OPTIONS.map((option) => [option.name, { type: 'string' }])) as Record<string, { type: 'string' }>),
  ...OBSERVE_FLAGS,
  ...AUTH_FLAGS,
} as const;

type Values = ReturnType<typeof parseCommandLine<{ options: typeof GATEWAY_OPTIONS; strict: true }>>['values'];

/** The largest whole seconds a timer takes (2^31 - 1 ms): a longer one would fire at once. */
export const MAX_SECONDS = 2_147_483;

/** A positive whole number in the file (a count of bytes or of files). */
const WHOLE = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

/**
 * What a gateway's configuration file may hold beyond each flag's type: the forms its command
 * line checks, and each limit a whole number in its unit (from 1, or 0 where that switches it off;
 * seconds within what a timer takes).
 */
const REFINED: Readonly<Record<string, object>> = {
  listen: { type: 'string', pattern: LISTEN, description: 'host:port' },
  metrics: { type: 'string', pattern: LISTEN, description: 'host:port' },
  path: { type: 'string', pattern: '^/', description: 'a path starting with /' },
  'integer-range': { enum: ['int64', 'safe', 'unbounded'] },
  'audit-max-bytes': WHOLE,
  'audit-keep': WHOLE,
  ...Object.fromEntries(LIMIT_OPTIONS.map((option) => [option.name, { type: 'integer', minimum: option.off === true ? 0 : 1, maximum: scaleOf(option) === 1 ? Number.MAX_SAFE_INTEGER : MAX_SECONDS }])),
};

/** The JSON Schema of the gateway's configuration file (`--config-schema` prints it). */
export function gatewayConfigSchema(): Record<string, unknown> {
  return configSchema('schema-coerce gateway --config', GATEWAY_OPTIONS, REFINED);
}

/**
 * Reads the gateway's command line (and its `--config` file, under it).
 *
 * @returns The gateway's run; `'help'` for `--help`; the configuration file's JSON Schema, as
 *   text, for `--config-schema`.
 * @throws {UsageError} Naming the flag, or the file and each of its problems by path.
 */
export async function readGatewayCommandLine(argv: string[]): Promise<GatewayRun | 'help' | { readonly print: string }> {
  const { own, command: given } = splitCommand(argv);
  const { values: flags } = parsed(() => parseCommandLine({ args: own, strict: true, options: GATEWAY_OPTIONS }));
  if (flags.help === true) return 'help';
  if (flags['config-schema'] === true) return { print: `${JSON.stringify(gatewayConfigSchema(), null, 2)}\n` };
  const file = flags.config === undefined ? undefined : await readConfigFile(flags.config, gatewayConfigSchema());
  // An upstream on the command line (a --url or a command) replaces the file's, whichever it names.
  const ownUpstream = flags.url !== undefined || given.length > 0;
  const command = ownUpstream ? given : [...(file?.command ?? [])];
  const fromFile = file === undefined || !ownUpstream ? file : { ...file, values: { ...file.values, url: undefined } };
  return withConfigFile(fromFile, flags as FlagValues, (values) => gatewayRun(values as Values, command));
}

async function gatewayRun(values: Values, command: string[]): Promise<GatewayRun> {
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], values['header-env'] ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give --url <url> or the server command after --, e.g. schema-coerce gateway --listen 127.0.0.1:8808 -- node server.js');
  if (values.listen === undefined) throw new UsageError('--listen <host:port> is required, e.g. --listen 127.0.0.1:8808');
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path ${JSON.stringify(path)} must start with /`);
  const health = values['no-health'] !== true;
  if (health && HEALTH_PATHS.includes(path)) throw new UsageError(`--path ${JSON.stringify(path)} is a health endpoint's: give another path, or --no-health`);
  return {
    upstream: target === undefined ? { kind: 'stdio', command } : { kind: 'url', ...target },
    ...(await repairOptions(values)),
    ...listenAddress('--listen', values.listen),
    ...observeOptions(values),
    ...withScopes(authOptions(values), values['tool-scope']),
    path,
    ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
    ...(values['allowed-origin'] === undefined ? {} : { allowedOrigins: values['allowed-origin'] }),
    jsonResponse: values['json-response'] === true,
    limits: limitsOf(values as FlagValues),
    toolPolicy: { allow: values['allow-tool'] ?? [], deny: values['deny-tool'] ?? [], scoped: checked('--tool-scope', values['tool-scope'], readScopeRule) },
    rateLimits: {
      ...(values['rate-limit'] === undefined ? {} : { caller: checked('--rate-limit', [values['rate-limit']], readRate)[0] }),
      tools: checked('--tool-rate-limit', values['tool-rate-limit'], readToolRate),
    },
    health,
  };
}

/** The auth options, the metadata listing the scopes the tool policy asks for (`--tool-scope`) as supported too. */
function withScopes(options: ReturnType<typeof authOptions>, rules: readonly string[] | undefined): ReturnType<typeof authOptions> {
  const scopes = (rules ?? []).map(readScopeRule).flatMap((rule) => (typeof rule === 'string' ? [] : [rule.scope]));
  return options.auth === undefined || scopes.length === 0 ? options : { ...options, auth: { ...options.auth, scopesSupported: scopes } };
}

/** The values of a repeatable rule flag, each read by `read` (which says why one cannot be). */
function checked(flag: string, rules: readonly string[] | undefined, read: (rule: string) => object | string): string[] {
  for (const rule of rules ?? []) {
    const why = read(rule);
    if (typeof why === 'string') throw new UsageError(`${flag} ${why}`);
  }
  return [...(rules ?? [])];
}

/**
 * The limits the flags set (`LIMIT_OPTIONS`), each a whole number in its unit: from 1, or 0 where
 * that switches it off; seconds at most `MAX_SECONDS`.
 *
 * @throws {UsageError} Naming the flag whose value is not one; when `--headers-timeout` is
 *   longer than `--request-timeout` (the head is part of the request).
 */
export function limitsOf(values: FlagValues): Partial<GatewayLimits> {
  const limits: Partial<Record<keyof GatewayLimits, number>> = {};
  for (const option of LIMIT_OPTIONS) {
    const value = values[option.name];
    if (value === undefined) continue;
    const whole = typeof value === 'string' && /^(?:0|[1-9]\d{0,15})$/.test(value) ? Number(value) : NaN;
    const max = scaleOf(option) === 1 ? Number.MAX_SAFE_INTEGER : MAX_SECONDS;
    if (!(whole >= (option.off === true ? 0 : 1) && whole <= max)) {
      const range = `${option.off === true ? 'a whole number (0: off)' : 'a positive whole number'}${scaleOf(option) === 1 ? '' : ` of seconds, at most ${MAX_SECONDS}`}`;
      throw new UsageError(`--${option.name} must be ${range}, not ${JSON.stringify(value)}`);
    }
    limits[option.key] = whole * scaleOf(option);
  }
  const headers = limits.headersTimeoutMs ?? DEFAULT_LIMITS.headersTimeoutMs;
  const request = limits.requestTimeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
  if (headers > request) throw new UsageError(`--headers-timeout (${headers / 1_000} s) must not be longer than --request-timeout (${request / 1_000} s): the head is part of the request`);
  return limits;
}
