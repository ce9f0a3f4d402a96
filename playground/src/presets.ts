/**
 * The playground's presets: real cases from `fixtures/`, each a tool's schema, the text a model
 * sent, and the options that show the case. Read by the page and by its browser test.
 */
import validateArgsTable from '../../fixtures/validate/validate-args.json';
import warpTable from '../../fixtures/warp/coerce-integer-args.json';
import pythonRepr from '../../fixtures/wild/python-repr.json';
import truncation from '../../fixtures/wild/truncation.json';
import { DEFAULT_STATE, type State } from './state.js';

interface Row {
  readonly name: string;
  readonly schema?: unknown;
  readonly input?: unknown;
}

/** One preset: a label, where it comes from, and the page state it loads. */
export interface Preset {
  readonly id: string;
  readonly label: string;
  /** `fixtures/<file>`, and the row's name there. */
  readonly source: string;
  readonly state: State;
}

function fromRow(table: readonly Row[], file: string, name: string, id: string, label: string, options: Partial<State>): Preset {
  const row = table.find((candidate) => candidate.name === name);
  if (row === undefined || typeof row.input !== 'string') throw new Error(`fixtures/${file} has no row ${JSON.stringify(name)}`);
  return {
    id,
    label,
    source: `fixtures/${file}: ${name}`,
    state: { ...DEFAULT_STATE, ...options, schema: JSON.stringify(row.schema, null, 2), args: row.input },
  };
}

export const PRESETS: readonly Preset[] = [
  fromRow(pythonRepr, 'wild/python-repr.json', 'Python repr of a list_files call', 'python-repr', 'A Python repr', { tool: 'list_files', lenient: true }),
  fromRow(truncation, 'wild/truncation.json', 'cut inside an array of commands', 'truncation', 'A truncation', { tool: 'run_commands', lenient: true }),
  fromRow(warpTable, 'warp/coerce-integer-args.json', 'tuple_style_items_coerces_positional_schemas', 'nested-tuple', 'Whole floats in a nested tuple', { tool: 'plot' }),
  fromRow(validateArgsTable, 'validate/validate-args.json', 'a renamed key is rejected, naming expected and sent keys (seed)', 'undeclared-key', 'An undeclared key', {
    tool: 'mcp__demo__search', validate: true, rejectUndeclared: true,
  }),
];
