/**
 * The `schema-coerce` command: a thin shell over the text API. Exit 0 on success, 2 on bad
 * input (usage, unreadable files, text that is not JSON) with one line on stderr and nothing
 * on stdout.
 */
import { readFileSync } from 'node:fs';
import { parseArgs as parseCommandLine } from 'node:util';
import {
  ArgsParseError, MissingPeerError, parseArgs, prepareToolCall, SchemaCoerceError, stringifyArgs, type ArgsValidator, type CoerceOptions, type IntegerRange,
} from '../index.js';
import { runProxy } from './proxy/process.js';
import { stdioUpstream } from './proxy/stdio-upstream.js';
import { httpUpstream } from './proxy/http-upstream.js';
import { TargetError, targetHeaders, targetUrl } from './proxy/http-target.js';
import type { Connect } from './proxy/upstream.js';
import { loadValidateArgs } from './load-validator.js';

const HELP = `Usage: schema-coerce --schema <file | inline JSON> [options] [args JSON | -]
       schema-coerce proxy [proxy options] -- <server command> [args…]
       schema-coerce proxy [proxy options] --url <http(s) url> [--header 'Name: value']…

Repairs tool-call arguments against the tool's JSON Schema and prints them on stdout.
Arguments come from the last operand, or from stdin when it is "-" or absent.

Options:
  -s, --schema <file|json>   the tool's input schema: a file path, or inline JSON text
  -l, --lenient              also convert by type, fix enum case, repair syntax with one reading
  -r, --report               write each change and refusal to stderr as a JSON line
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
      --url <url>            a Streamable HTTP server instead of a server command
      --header 'Name: value' send this header to the --url server (repeatable)
  -h, --help                 show this help

Exit status: 0 done, 2 bad input (the message names the file and position); the proxy exits
with the server's status, or 127 when the server cannot be started.
Example:
  schema-coerce --schema '{"properties":{"line":{"type":"integer"}}}' '{"line":5.0}'
`;

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

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'proxy') return proxy(argv.slice(1));
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
  let options: ProxyRun | 'help';
  try {
    options = await readProxyCommandLine(argv);
  } catch (error) {
    // Every message about the proxy's command line is the proxy's, as its own messages are.
    if (error instanceof UsageError) throw new UsageError(error.detail, 'schema-coerce proxy');
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  return runProxy(options.upstream, options);
}

type ProxyRun = Parameters<typeof runProxy>[1] & { readonly upstream: Connect };

async function readProxyCommandLine(argv: string[]): Promise<ProxyRun | 'help'> {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  let values;
  try {
    ({ values } = parseCommandLine({
      args: own,
      strict: true,
      options: {
        lenient: { type: 'boolean', short: 'l' },
        validate: { type: 'boolean' },
        'reject-undeclared': { type: 'boolean' },
        'integer-range': { type: 'string' },
        log: { type: 'string' },
        verbose: { type: 'boolean' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  const upstream = values.url === undefined ? undefined : httpTarget(values.url, values.header ?? [], command);
  if (upstream === undefined && command.length === 0) throw new UsageError('give the server command after --, e.g. schema-coerce proxy -- node server.js');
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
    upstream: upstream ?? stdioUpstream(command),
    lenient: values.lenient === true,
    ...(validator === undefined ? {} : { validator }),
    rejectUndeclared: values['reject-undeclared'] === true,
    verbose: values.verbose === true,
    ...(values.log === undefined ? {} : { log: values.log }),
    ...(range === undefined ? {} : { integerRange: range }),
  };
}

/** The proxy's `--url` upstream, with its `--header`s; a server command may not be given too. */
function httpTarget(url: string, headers: readonly string[], command: readonly string[]): Connect {
  if (command.length > 0) throw new UsageError('give either --url or a server command after --, not both');
  try {
    return httpUpstream(targetUrl(url), targetHeaders(headers));
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
}

function checkRange(range: string | undefined): IntegerRange | undefined {
  if (range !== undefined && !['int64', 'safe', 'unbounded'].includes(range)) {
    throw new UsageError(`--integer-range must be int64, safe or unbounded, not "${range}"`);
  }
  return range as IntegerRange | undefined;
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
