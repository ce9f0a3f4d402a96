/**
 * `schema-coerce report <log.jsonl…> [--html report.html]`: what the gateway's audit log and the
 * proxy's `--log` say per tool and parameter (which repairs and refusals, how often, an example
 * of each), as a table on stdout and, with `--html`, as one self-contained page with charts.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs as parseCommandLine } from 'node:util';
import { UsageError } from './errors.js';
import { parsed } from './flags.js';
import { reportHtml } from './report-html.js';
import { readLogs, UnreadableLog, type Skipped } from './report-read.js';
import { reportTable } from './report-text.js';

const COMMAND = 'schema-coerce report';
/** Skipped lines named on stderr at most; past it they are counted. */
const NAMED_SKIPS = 20;

const HELP = `Usage: schema-coerce report [--html <file>] <log.jsonl>…

Reads the gateway's audit log (--audit) and the proxy's or the gateway's --log, and prints per tool
and parameter which repairs and refusals happened, how often (the share of calls, where an audit
log recorded them) and an example of each (where values were recorded).

Options:
      --html <file>   also write the report as one self-contained HTML page with charts
  -h, --help          show this help

A line that is neither an audit line nor a log line is named (file:line) on stderr and skipped.
Exit status: 0 done, 2 bad usage or a file that cannot be read or written.
`;

/**
 * Runs `schema-coerce report` with its own arguments.
 *
 * @returns The exit status.
 * @throws UsageError for a bad command line or a file that cannot be read or written.
 */
export async function runReport(argv: string[], stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  let command: ReturnType<typeof read>;
  try {
    command = parsed(() => read(argv));
  } catch (error) {
    throw new UsageError((error as UsageError).detail, COMMAND);
  }
  const { values, positionals } = command;
  if (values.help === true) {
    stdout.write(HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('give one or more log files (see --help)', COMMAND);
  let named = 0;
  const skipped = (line: Skipped): void => {
    if (named++ < NAMED_SKIPS) stderr.write(`${COMMAND}: ${line.file}:${line.line}: ${line.why}, skipped\n`);
  };
  let report;
  try {
    report = await readLogs(positionals, skipped);
  } catch (error) {
    if (error instanceof UnreadableLog) throw new UsageError(error.message, COMMAND);
    throw error;
  }
  if (named > NAMED_SKIPS) stderr.write(`${COMMAND}: ${named - NAMED_SKIPS} more lines skipped\n`);
  stdout.write(reportTable(report));
  if (values.html !== undefined) {
    try {
      writeFileSync(values.html, reportHtml(report));
    } catch (error) {
      throw new UsageError(`--html ${values.html}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, COMMAND);
    }
  }
  return 0;
}

function read(argv: string[]) {
  return parseCommandLine({ args: argv, strict: true, allowPositionals: true, options: { html: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
}
