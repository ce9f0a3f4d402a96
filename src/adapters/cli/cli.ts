/**
 * The `schema-coerce` command: a thin shell over the text API. Exit 0 on success, 2 on bad
 * input (usage, unreadable files, text that is not JSON) with one line on stderr and nothing
 * on stdout.
 */
import { readFileSync } from 'node:fs';
import { parseArgs as parseCommandLine } from 'node:util';
import {
  ArgsParseError, parseArgs, prepareToolCall, stringifyArgs, type CoerceOptions,
} from '../../index.js';
import { runProxy } from '../proxy/process.js';
import { stdioUpstream } from '../proxy/stdio-upstream.js';
import { httpUpstream } from '../proxy/http-upstream.js';
import type { Connect } from '../proxy/upstream.js';
import { runGateway } from '../gateway/run.js';
import { checkRange, httpTarget, parsed, repairOptions, REPAIR_OPTIONS, splitCommand, UsageError } from './command-line.js';
import { readGatewayCommandLine } from './gateway-command.js';

export { UsageError } from './command-line.js';

const HELP = `Usage: schema-coerce --schema <file | inline JSON> [options] [args JSON | -]
       schema-coerce proxy [proxy options] -- <server command> [args…]
       schema-coerce proxy [proxy options] --url <http(s) url> [--header 'Name: value']…
       schema-coerce gateway --listen <host:port> [gateway options] (--url <url> … | -- <command>…)

Repairs tool-call arguments against the tool's JSON Schema and prints them on stdout.
Arguments come from the last operand, or from stdin when it is "-" or absent.

Options:
  -s, --schema <file|json>   the tool's input schema: a file path, or inline JSON text
  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading
  -r, --report               write each change and refusal to stderr as a JSON line
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
  -h, --help                 show this help

Gateway options (the proxy's repair as a Streamable HTTP endpoint; the proxy options apply):
      --listen <host:port>   where to listen (loopback unless a host is given; port 0: any)
      --path <path>          the endpoint's path (default /mcp)
      --allowed-host <name>  a Host the gateway answers to (repeatable; default loopback names)
      --allowed-origin <o>   a browser Origin allowed in (repeatable; default loopback origins)
      --json-response        answer POSTs with JSON bodies rather than SSE streams
      --max-body <bytes>     the largest request body (default 4194304; 413 beyond)
      --max-sessions <n>     stdio sessions at once (default 64; one server process each)
      --idle-timeout <s>     a session without a request for this long is ended (default 900)
      --config <file.json>   read these options from a JSON file, keys as the flags without
                             the dashes ("max-body": 1024, "command": [...]); flags win
      --config-schema        print the JSON Schema of that file (for an editor's "$schema")
      --allow-tool <glob>    list and call only the tools this matches (repeatable; * and ?)
      --deny-tool <glob>     never list or call the tools this matches (repeatable)
      --tool-scope <g>=<s>   the tools glob g matches need the caller's token to hold scope s
      --rate-limit <n>/<t>   per caller: n requests per period t (10/s, 100/m, 5/30s); 429 past it
      --tool-rate-limit <g>=<n>/<t>  per caller and tool glob g: n calls per t; isError past it
      --no-health            do not serve /healthz and /readyz

Exit status: 0 done, 2 bad input (the message names the file and position); the proxy exits
with the server's status, or 127 when the server cannot be started.
Example:
  schema-coerce --schema '{"properties":{"line":{"type":"integer"}}}' '{"line":5.0}'
`;

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'proxy') return proxy(argv.slice(1));
  if (argv[0] === 'gateway') return gateway(argv.slice(1));
  const { values, positionals } = readCommandLine(argv);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (values.schema === undefined) throw new UsageError('--schema is required (see --help)');
  if (positionals.length > 1) throw new UsageError(`expected at most one args operand, got ${positionals.length}`);
  const range = checkRange(values['integer-range']);
  const schema = readSchema(values.schema);
  const operand = positionals[0];
  const [label, text] = operand === undefined || operand === '-' ? ['args (stdin)', readStdin()] : ['args', operand];
  // One pass through the pipeline; under --lenient, text with one reading is repaired first.
  const options: CoerceOptions = {
    lenient: values.lenient === true,
    ...(range === undefined ? {} : { integerRange: range }),
    ...(values.tool === undefined ? {} : { toolName: values.tool }),
  };
  const call = prepareToolCall(text, schema, options);
  if (call.parseError !== undefined) throw new UsageError(`${label}: ${call.parseError.detail}`);
  if (!call.ok) throw new UsageError(`${label}: ${call.message ?? 'cannot be written as JSON'}`);
  const output = call.json.trim();
  if (values.report) {
    for (const change of call.changes) process.stderr.write(JSON.stringify({ type: 'change', ...change }) + '\n');
    for (const { value: refused, ...refusal } of call.refusals) {
      process.stderr.write(JSON.stringify({ type: 'refusal', ...refusal, value: stringifyArgs(refused) }) + '\n');
    }
  }
  process.stdout.write(output + '\n');
  return 0;
}

async function proxy(argv: string[]): Promise<number> {
  return subcommand('schema-coerce proxy', () => readProxyCommandLine(argv), (options) => runProxy(options.upstream, options));
}

async function gateway(argv: string[]): Promise<number> {
  return subcommand('schema-coerce gateway', () => readGatewayCommandLine(argv), async (options) => {
    if (!('print' in options)) return runGateway(options.upstream, options);
    process.stdout.write(options.print);
    return 0;
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
  const target = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], command);
  if (target === undefined && command.length === 0) throw new UsageError('give the server command after --, e.g. schema-coerce proxy -- node server.js');
  return { upstream: target === undefined ? stdioUpstream(command) : httpUpstream(target.url, target.headers), ...(await repairOptions(values)) };
}

function readCommandLine(argv: string[]) {
  try {
    return parseCommandLine({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        schema: { type: 'string', short: 's' },
        lenient: { type: 'boolean', short: 'l' },
        report: { type: 'boolean', short: 'r' },
        tool: { type: 'string', short: 't' },
        'integer-range': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A schema operand is inline JSON when it starts like JSON, else a file path. */
function readSchema(operand: string): unknown {
  const inline = /^\s*[{[]|^\s*(?:true|false)\s*$/.test(operand);
  if (inline) return toPlain(parseLabelled(operand, '--schema (inline)'));
  let text: string;
  try {
    text = readFileSync(operand, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--schema ${operand}: cannot read the file (${code})`);
  }
  return toPlain(parseLabelled(text, `--schema ${operand}`));
}

function parseLabelled<T = unknown>(text: string, label: string, parse: (text: string) => T = parseArgs as (text: string) => T): T {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof ArgsParseError) throw new UsageError(`${label}: ${error.detail}`);
    throw error;
  }
}

/** Schemas are read as plain JSON values: lossless numbers become numbers. */
function toPlain(value: unknown): unknown {
  return JSON.parse(stringifyArgs(value));
}

function readStdin(): string {
  if (process.stdin.isTTY) throw new UsageError('no args given: pass them as an operand or on stdin');
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read stdin (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

declare const __VERSION__: string;
const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
