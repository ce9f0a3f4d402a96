/**
 * The `schema-coerce` command: the main command (`runRepair`, over the text path) and the
 * `proxy` and `gateway` subcommands. Exit 0 on success, 2 on bad input (usage, unreadable files,
 * text that is not JSON) with one line on stderr and nothing on stdout, 3 under
 * `--fail-on-refusal` when a value was refused.
 */
import { parseArgs as parseCommandLine } from 'node:util';
import { MissingPeerError, type ArgsValidator } from '../../index.js';
import { TokenListError } from '../gateway/auth-tokens.js';
import { runProxy } from '../proxy/process.js';
import { stdioUpstream } from '../proxy/stdio-upstream.js';
import { httpUpstream } from '../proxy/http-upstream.js';
import { TargetError, targetHeaders, targetUrl } from '../proxy/http-target.js';
import type { Connect } from '../proxy/upstream.js';
import type { ProxyOptions } from '../proxy/session.js';
import { runGateway } from '../gateway/run.js';
import type { GatewayOptions, GatewayUpstream } from '../gateway/options.js';
import { LIMIT_OPTIONS, limitsHelp } from '../gateway/limits.js';
import { loadValidateArgs } from '../shared/load-validator.js';
import { checkRange, readRepairCommandLine } from './command-line.js';
import { UsageError } from './errors.js';
import { listenAddress, parsed } from './flags.js';
import { OBSERVE_FLAGS, OBSERVE_HELP, observeOptions } from './observe-flags.js';
import { AUTH_FLAGS, AUTH_HELP, authOptions } from './auth-flags.js';
import { runRepair } from './repair.js';
import { runReport } from './report.js';
import { CONFIG_REFINED, ConfigError, configSchema, limitsOf, readConfig, type OptionValues } from './gateway-config.js';

const HELP = `Usage: schema-coerce --schema <file | inline JSON> [options] [args JSON | -]
       schema-coerce proxy [proxy options] -- <server command> [args…]
       schema-coerce proxy [proxy options] --url <http(s) url> [--header 'Name: value']…
       schema-coerce gateway --listen <host:port> [gateway options] (--url <url> … | -- <command>…)
       schema-coerce report [--html <file>] <log.jsonl>…   (what the audit log and --log say; --help)

Repairs tool-call arguments against the tool's JSON Schema and prints them on stdout: only
the values that change are rewritten, every other byte is printed as it came.
Arguments come from the last operand, or from stdin when it is "-" or absent.

Options:
  -s, --schema <file|json>   the tool's input schema: a file path, or inline JSON text
  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading
  -r, --report               write each change and refusal to stderr as a JSON line
      --fail-on-refusal      exit 3, with one line on stderr and nothing on stdout, when a
                             value was refused (not whole, or no safe conversion applies)
  -t, --tool <name>          the tool's name, for messages and, in lenient mode, to unwrap
                             {"name": <it>, "arguments": {…}}
      --integer-range <r>    int64 (default), safe or unbounded
  -h, --help                 show this help
  -v, --version              show the version

Proxy options (repair every tool call a client sends to a stdio MCP server):
  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading
      --validate             answer calls that fail the schema with an isError result
      --reject-undeclared    answer calls with undeclared keys with an isError result
      --integer-range <r>    int64 (default), safe or unbounded
      --log <file>           append one JSON line per change, refusal and rejection
      --verbose              write the same lines to stderr
      --repair-results       repair tool results against the tool's outputSchema (integers; an
                             isError result's mismatching structuredContent dropped, with ajv)
      --url <url>            a Streamable HTTP server instead of a server command
      --header 'Name: value' send this header to the --url server (repeatable)
      --header-env 'Name: VAR'  send this header with the value of the environment variable VAR
                             (repeatable; a secret kept out of the command line)
  -h, --help                 show this help

Gateway options (the proxy's repair as a Streamable HTTP endpoint; the proxy options apply):
      --listen <host:port>   where to listen (loopback unless a host is given; port 0: any)
      --path <path>          the endpoint's path (default /mcp)
      --allowed-host <name>  a Host the gateway answers to (repeatable; default loopback names)
      --allowed-origin <o>   a browser Origin allowed in (repeatable; default loopback origins)
      --json-response        answer POSTs with JSON bodies rather than SSE streams
      --config <file>        options from a JSON file, each key an option's name ("max-sessions": 8);
                             a flag given here wins over the file's key
${OBSERVE_HELP}
${AUTH_HELP}
Gateway limits (each also a config-file key of the same name):
${limitsHelp()}

Exit status: 0 done, 2 bad input (the message names the file and position), 3 a value refused
under --fail-on-refusal; the proxy exits with the server's status, or 127 when the server
cannot be started.
Example:
  schema-coerce --schema '{"properties":{"line":{"type":"integer"}}}' '{"line":5.0}'
`;

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'proxy') return proxy(argv.slice(1));
  if (argv[0] === 'gateway') return gateway(argv.slice(1));
  if (argv[0] === 'report') return runReport(argv.slice(1));
  const command = readRepairCommandLine(argv);
  if (command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  return runRepair(command);
}

async function proxy(argv: string[]): Promise<number> {
  return subcommand('schema-coerce proxy', () => readProxyCommandLine(argv), (options) => runProxy(options.upstream, options));
}

async function gateway(argv: string[]): Promise<number> {
  return subcommand('schema-coerce gateway', () => readGatewayCommandLine(argv), (options) =>
    runGateway(options.upstream, options).catch((error: unknown) => {
      if (error instanceof TokenListError) throw new UsageError(error.detail, 'schema-coerce gateway');
      throw error instanceof MissingPeerError ? new UsageError(`${error.feature} ${error.need}`, 'schema-coerce gateway') : error;
    }));
}

/**
 * Reads a subcommand's command line with `read` and runs it, or prints the help; every message
 * about its command line is that command's, as its own messages are.
 */
async function subcommand<T>(command: string, read: () => Promise<T | 'help'>, run: (options: T) => Promise<number>): Promise<number> {
  let options: T | 'help';
  try {
    options = await read();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.detail, command);
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  return run(options);
}

type ProxyRun = Parameters<typeof runProxy>[1] & { readonly upstream: Connect };
type GatewayRun = GatewayOptions & { readonly upstream: GatewayUpstream };

/** The options the proxy and the gateway share: the repair, and where the server is. */
const REPAIR_OPTIONS = {
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

/** The gateway's options: the shared ones and its own. */
const GATEWAY_OPTIONS = {
  ...REPAIR_OPTIONS,
  listen: { type: 'string' },
  path: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'json-response': { type: 'boolean' },
  config: { type: 'string' },
  ...(Object.fromEntries(LIMIT_OPTIONS.map((option) => [option.name, { type: 'string' }])) as Record<string, { type: 'string' }>),
  ...OBSERVE_FLAGS,
  ...AUTH_FLAGS,
} as const;

/** A subcommand's own arguments (before `--`) and the server command (after it). */
function splitCommand(argv: string[]): { own: string[]; command: string[] } {
  const split = argv.indexOf('--');
  return split === -1 ? { own: argv, command: [] } : { own: argv.slice(0, split), command: argv.slice(split + 1) };
}

async function readProxyCommandLine(argv: string[]): Promise<ProxyRun | 'help'> {
  const { own, command } = splitCommand(argv);
  const { values } = parsed(() => parseCommandLine({ args: own, strict: true, options: REPAIR_OPTIONS }));
  if (values.help === true) return 'help';
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], values['header-env'] ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give the server command after --, e.g. schema-coerce proxy -- node server.js');
  return { upstream: target === undefined ? stdioUpstream(command) : httpUpstream(target.url, target.headers), ...(await repairOptions(values)) };
}

async function readGatewayCommandLine(argv: string[]): Promise<GatewayRun | 'help'> {
  const { own, command } = splitCommand(argv);
  const { values: given } = parsed(() => parseCommandLine({ args: own, strict: true, options: GATEWAY_OPTIONS }));
  if (given.help === true) return 'help';
  let values = given;
  let limits: GatewayOptions['limits'];
  try {
    if (given.config !== undefined) values = { ...(await readConfig(given.config, configSchema(GATEWAY_OPTIONS, CONFIG_REFINED))), ...given } as typeof given;
    limits = limitsOf(values as OptionValues);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.detail);
    throw error;
  }
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], values['header-env'] ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give --url <url> or the server command after --, e.g. schema-coerce gateway --listen 127.0.0.1:8808 -- node server.js');
  if (values.listen === undefined) throw new UsageError('--listen <host:port> is required, e.g. --listen 127.0.0.1:8808');
  const path = values.path ?? '/mcp';
  if (!path.startsWith('/')) throw new UsageError(`--path ${JSON.stringify(path)} must start with /`);
  return {
    upstream: target === undefined ? { kind: 'stdio', command } : { kind: 'url', ...target },
    ...(await repairOptions(values)),
    ...listenAddress('--listen', values.listen),
    ...observeOptions(values),
    ...authOptions(values),
    path,
    ...(values['allowed-host'] === undefined ? {} : { allowedHosts: values['allowed-host'] }),
    ...(values['allowed-origin'] === undefined ? {} : { allowedOrigins: values['allowed-origin'] }),
    jsonResponse: values['json-response'] === true,
    limits,
  };
}

/** The repair options of a subcommand's `values`, the `--validate` validator loaded. */
async function repairOptions(values: { lenient?: boolean; validate?: boolean; 'reject-undeclared'?: boolean; 'integer-range'?: string; log?: string; verbose?: boolean; 'repair-results'?: boolean }): Promise<ProxyOptions> {
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

/** A `--url` upstream, with its `--header`s; a server command may not be given too. */
function httpTarget(url: string, headers: readonly string[], fromEnv: readonly string[], command: readonly string[]): { url: URL; headers: Record<string, string> } {
  if (command.length > 0) throw new UsageError('give either --url or a server command after --, not both');
  try {
    return { url: targetUrl(url), headers: targetHeaders(headers, fromEnv) };
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
}

declare const __VERSION__: string;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
