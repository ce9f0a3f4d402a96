/**
 * The main command's command line, `schema-coerce --schema <schema> [options] [args]`: its
 * options read, and a first word that is no JSON taken for the subcommand it was meant to be.
 */
import { parseArgs as parseCommandLine } from 'node:util';
import type { IntegerRange } from '../../index.js';
import { editDistance } from '../../json/strings.js';
import { UsageError } from './errors.js';

/** The subcommands, as the first word of a command line names them. */
const SUBCOMMANDS = ['proxy', 'gateway'] as const;

/** The main command's options, as `--help` lists them. */
export interface RepairCommandLine {
  readonly schema: string;
  readonly args: string | undefined;
  readonly lenient: boolean;
  readonly report: boolean;
  readonly failOnRefusal: boolean;
  readonly tool: string | undefined;
  readonly integerRange: IntegerRange | undefined;
}

/**
 * Reads the main command's command line (`argv` without a subcommand): the options, or `help`
 * or `version` when one was asked for.
 *
 * @throws {UsageError} On an unknown option, a missing `--schema`, more than one operand, or a
 *   first word that is not JSON and was meant as a subcommand (naming the nearest one).
 */
export function readRepairCommandLine(argv: readonly string[]): RepairCommandLine | 'help' | 'version' {
  checkCommandWord(argv);
  const { values, positionals } = options(argv);
  if (values.help === true) return 'help';
  if (values.version === true) return 'version';
  if (values.schema === undefined) throw new UsageError('--schema is required (see --help)');
  if (positionals.length > 1) throw new UsageError(`expected at most one args operand, got ${positionals.length}`);
  return {
    schema: values.schema,
    args: positionals[0],
    lenient: values.lenient === true,
    report: values.report === true,
    failOnRefusal: values['fail-on-refusal'] === true,
    tool: values.tool,
    integerRange: checkRange(values['integer-range']),
  };
}

/** An `--integer-range` value, checked. */
export function checkRange(range: string | undefined): IntegerRange | undefined {
  if (range !== undefined && !['int64', 'safe', 'unbounded'].includes(range)) {
    throw new UsageError(`--integer-range must be int64, safe or unbounded, not "${range}"`);
  }
  return range as IntegerRange | undefined;
}

/**
 * A first word that is not JSON (a lower-case name: `gatway`, `serve`) cannot be arguments, so
 * it was meant as a subcommand: refused, naming the nearest one, before its options are read
 * as the main command's. A word far from every subcommand, beside `--schema`, is left to be
 * read as the arguments it may be meant as (and refused there as text that is not JSON).
 */
function checkCommandWord(argv: readonly string[]): void {
  const word = argv[0];
  if (word === undefined || !/^[a-z][a-z0-9_-]*$/.test(word) || ['true', 'false', 'null'].includes(word)) return;
  const [nearest, distance] = nearestCommand(word);
  const close = distance <= Math.max(1, Math.floor(word.length / 3));
  if (!close && argv.some((arg) => /^(?:--schema(?:=|$)|-[lrhv]*s)/.test(arg))) return;
  const hint = close ? `did you mean "${nearest}"?` : `the nearest is "${nearest}"`;
  throw new UsageError(`unknown command "${word}" (${hint}); the commands are ${SUBCOMMANDS.join(' and ')}, or --schema <schema> [args] to repair arguments (see --help)`);
}

/** The subcommand nearest to `word` by edit distance (the first of equals), and how far it is. */
function nearestCommand(word: string): [string, number] {
  let best: [string, number] = [SUBCOMMANDS[0], Infinity];
  for (const name of SUBCOMMANDS) {
    const distance = editDistance(word, name);
    if (distance < best[1]) best = [name, distance];
  }
  return best;
}

function options(argv: readonly string[]) {
  try {
    return parseCommandLine({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        schema: { type: 'string', short: 's' },
        lenient: { type: 'boolean', short: 'l' },
        report: { type: 'boolean', short: 'r' },
        'fail-on-refusal': { type: 'boolean' },
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
