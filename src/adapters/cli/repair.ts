/**
 * The main command's run: the arguments text repaired by the text path, which hands back only
 * the spans it rewrites (no object model of the arguments is built), then written out with every
 * other byte as it came. `--report` and `--fail-on-refusal` ask for the verdicts too (each change
 * and refusal, with its path): those come from `prepareToolCall`, the library's one pipeline, so
 * they are the library's own, at the cost of its object model.
 */
import type { Writable } from 'node:stream';
import { ArgsParseError, prepareToolCall, stringifyArgs, type CoerceOptions, type Refusal } from '../../index.js';
import { coerceArgsJsonEdits, type TextEdits } from '../../coerce/coerce.js';
import type { RepairCommandLine } from './command-line.js';
import { CommandError, UsageError } from './errors.js';
import { readArgs, readSchema } from './inputs.js';
import { EditWriter, writeEdited } from './write-edits.js';

/** The exit status when `--fail-on-refusal` is given and a value was refused. */
const REFUSED_STATUS = 3;

/** Report lines are written to stderr this many at a time. */
const LINES_PER_WRITE = 512;

/**
 * Runs the main command: reads the schema and the arguments, repairs them, writes the verdicts
 * (`--report`) to `err` and the repaired arguments to `out`, and resolves to the exit status:
 * 0, or `REFUSED_STATUS` when `--fail-on-refusal` is given and a value was refused (then nothing
 * goes to `out`). Nothing goes to `out` before the whole result is known.
 *
 * @throws {UsageError} When the schema or the arguments cannot be read (exit 2).
 * @throws {CommandError} When `out` cannot be written (exit 1).
 */
export async function runRepair(command: RepairCommandLine, out: Writable = process.stdout, err: Writable = process.stderr): Promise<number> {
  const schema = readSchema(command.schema);
  const { label, text } = await readArgs(command.args);
  const options: CoerceOptions = {
    lenient: command.lenient,
    ...(command.integerRange === undefined ? {} : { integerRange: command.integerRange }),
    ...(command.tool === undefined ? {} : { toolName: command.tool }),
  };
  // The edits are put into the output's chunks as the text path finds them, none kept.
  const writer = new EditWriter(out, text);
  let edits: TextEdits;
  try {
    edits = coerceArgsJsonEdits(text, schema, options, undefined, writer);
  } catch (error) {
    if (error instanceof ArgsParseError) throw new UsageError(`${label}: ${error.detail}`);
    throw error;
  }
  if (command.report || command.failOnRefusal) {
    // The text path read the text, so the pipeline reads it too: its verdicts are for the same value.
    const { changes, refusals } = prepareToolCall(text, schema, options);
    if (command.report) writeLines(err, [...changes.map((change) => JSON.stringify({ type: 'change', ...change })), ...refusals.map(refusalLine)]);
    if (command.failOnRefusal && refusals.length > 0) {
      err.write(`schema-coerce: ${label}: ${refused(refusals).replace(/\s+/g, ' ')}\n`);
      return REFUSED_STATUS;
    }
  }
  try {
    await (writer.built ? writer.finish() : writeEdited(out, text, edits));
  } catch (error) {
    throw new CommandError(`stdout: cannot write the output (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'schema-coerce', 1);
  }
  return 0;
}

/** A refusal as a `--report` line: its value written as JSON text. */
function refusalLine({ value, ...refusal }: Refusal): string {
  return JSON.stringify({ type: 'refusal', ...refusal, value: stringifyArgs(value) });
}

/** The one line `--fail-on-refusal` ends with: how many values were refused, and the first. */
function refused(refusals: readonly Refusal[]): string {
  const more = refusals.length - 1;
  return `${refusals.length === 1 ? 'a value was' : `${refusals.length} values were`} refused (--fail-on-refusal): ${refusals[0]!.message}${more > 0 ? `; and ${more} more (--report lists each)` : ''}`;
}

/** Writes `lines` to `stream`, each followed by a line break, a few hundred per write. */
function writeLines(stream: Writable, lines: readonly string[]): void {
  for (let i = 0; i < lines.length; i += LINES_PER_WRITE) stream.write(lines.slice(i, i + LINES_PER_WRITE).join('\n') + '\n');
}
