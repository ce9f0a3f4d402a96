/**
 * The main command's run: the arguments text repaired by the text path, which hands back only
 * the spans it rewrites (no object model of the arguments is built), then written out with every
 * other byte as it came. `--report` and `--fail-on-refusal` ask for the verdicts too (each change
 * and refusal, with its path): the text path gives them in the same pass, each decided by the
 * object path's own decision; a text only the object model can judge (a shape rule, a repeated
 * key, syntax repair) gets them from `prepareToolCall`, the library's one pipeline.
 */
import type { Writable } from 'node:stream';
import { ArgsParseError, prepareToolCall, type CoerceOptions, type Refusal } from '../../index.js';
import { coerceArgsJsonEdits } from '../../coerce/coerce.js';
import { coerceTextVerdicts } from '../../coerce/text-verdicts.js';
import type { RepairCommandLine } from './command-line.js';
import { CommandError, UsageError } from './errors.js';
import { readArgs, readSchema } from './inputs.js';
import { VerdictLines } from './verdict-lines.js';
import { EditWriter, writeEdited } from './write-edits.js';

/** The exit status when `--fail-on-refusal` is given and a value was refused. */
const REFUSED_STATUS = 3;

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
  // The edits are put into the output's chunks as the text path finds them, none kept. The
  // verdicts, when asked for, come from the same pass; where only the object path can give them
  // (see `coerceTextVerdicts`), from the pipeline, which reads the text as the text path did.
  const asked = command.report || command.failOnRefusal;
  let writer = new EditWriter(out, text);
  let verdicts = new VerdictLines(command.report);
  // Without `--report`, only the refusals are asked for: the changes are not made into verdicts.
  let edits = asked ? coerceTextVerdicts(text, schema, options, writer, command.report ? verdicts : { refusal: (refusal) => verdicts.refusal(refusal) }) : undefined;
  if (edits === undefined) {
    writer = new EditWriter(out, text);
    try {
      edits = coerceArgsJsonEdits(text, schema, options, undefined, writer);
    } catch (error) {
      if (error instanceof ArgsParseError) throw new UsageError(`${label}: ${error.detail}`);
      throw error;
    }
    if (asked) {
      verdicts = new VerdictLines(command.report);
      const { changes, refusals } = prepareToolCall(text, schema, options);
      for (const change of changes) verdicts.change(change);
      for (const refusal of refusals) verdicts.refusal(refusal);
    }
  }
  if (command.report) verdicts.writeTo(err);
  if (command.failOnRefusal && verdicts.first !== undefined) {
    err.write(`schema-coerce: ${label}: ${refused(verdicts.refused, verdicts.first).replace(/\s+/g, ' ')}\n`);
    return REFUSED_STATUS;
  }
  try {
    await (writer.built ? writer.finish() : writeEdited(out, text, edits));
  } catch (error) {
    throw new CommandError(`stdout: cannot write the output (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'schema-coerce', 1);
  }
  return 0;
}

/** The one line `--fail-on-refusal` ends with: how many values were refused, and the first. */
function refused(count: number, first: Refusal): string {
  const more = count - 1;
  return `${count === 1 ? 'a value was' : `${count} values were`} refused (--fail-on-refusal): ${first.message}${more > 0 ? `; and ${more} more (--report lists each)` : ''}`;
}
