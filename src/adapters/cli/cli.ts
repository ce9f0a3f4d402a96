/**
 * The `schema-coerce` command: the main command (`runRepair`, over the text path) and the
 * `proxy` and `gateway` subcommands. Exit 0 on success, 2 on bad input (usage, unreadable files,
 * text that is not JSON) with one line on stderr and nothing on stdout, 3 under
 * `--fail-on-refusal` when a value was refused.
 */
import { parseArgs as parseCommandLine } from 'node:util';
import { MissingPeerError } from '../../index.js';
import { TokenListError } from '../gateway/auth-tokens.js';
import { runProxy } from '../proxy/process.js';
import { stdioUpstream } from '../proxy/stdio-upstream.js';
import { httpUpstream } from '../proxy/http-upstream.js';
import type { Connect } from '../proxy/upstream.js';
import { runGateway } from '../gateway/run.js';
import { limitsHelp } from '../gateway/limits.js';
import { readRepairCommandLine } from './command-line.js';
import { UsageError } from './errors.js';
import { parsed } from './flags.js';
import { readGatewayCommandLine } from './gateway-command.js';
import { OBSERVE_HELP } from './observe-flags.js';
import { AUTH_HELP } from './auth-flags.js';
import { runRepair } from './repair.js';
import { runReport } from './report.js';
import { httpTarget, repairOptions, REPAIR_OPTIONS, splitCommand } from './upstream-flags.js';

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
      --config <file.json>   options from a JSON file, each key a flag without its dashes
                             ("max-sessions": 8, "command": [...]); a flag given here wins
      --config-schema        print the JSON Schema of that file (for an editor's "$schema")
      --allow-tool <glob>    list and call only the tools this matches (repeatable; * and ?)
      --deny-tool <glob>     never list or call the tools this matches (repeatable)
      --tool-scope <g>=<s>   the tools glob g matches need the caller's token to hold scope s
      --rate-limit <n>/<t>   per caller: n requests per period t (10/s, 100/m, 5/30s); 429 past it
      --tool-rate-limit <g>=<n>/<t>  per caller and tool glob g: n calls per t; isError past it
      --no-health            do not serve /healthz and /readyz
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
  return subcommand('schema-coerce gateway', () => readGatewayCommandLine(argv), async (options) => {
    if ('print' in options) {
      process.stdout.write(options.print);
      return 0;
    }
    return runGateway(options.upstream, options).catch((error: unknown) => {
      if (error instanceof TokenListError) throw new UsageError(error.detail, 'schema-coerce gateway');
      throw error instanceof MissingPeerError ? new UsageError(`${error.feature} ${error.need}`, 'schema-coerce gateway') : error;
    });
  });
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

async function readProxyCommandLine(argv: string[]): Promise<ProxyRun | 'help'> {
  const { own, command } = splitCommand(argv);
  const { values } = parsed(() => parseCommandLine({ args: own, strict: true, options: REPAIR_OPTIONS }));
  if (values.help === true) return 'help';
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], values['header-env'] ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give the server command after --, e.g. schema-coerce proxy -- node server.js');
  return { upstream: target === undefined ? stdioUpstream(command) : httpUpstream(target.url, target.headers), ...(await repairOptions(values)) };
}

declare const __VERSION__: string;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
