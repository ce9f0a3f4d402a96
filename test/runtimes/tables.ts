/**
 * The fixture tables every runtime runs, and Node's outcomes for them from the built `dist/`
 * (the files each runtime loads), so a runtime's rows can be compared with Node's row for row.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runFixtureTables } from './fixture-rows.mjs';

export const ROOT: string = join(import.meta.dirname, '..', '..');

/** One table: `file` relative to `fixtures/`, and its rows. */
export interface Table {
  readonly file: string;
  readonly rows: readonly { readonly name: string }[];
}

/** One row's outcome in one runtime. */
export interface RowOutcome {
  readonly file: string;
  readonly name: string;
  readonly outcome: unknown;
}

/**
 * The areas of `fixtures/` whose rows `fixture-rows.mjs` knows how to run: the coercion tables
 * (text against a schema), rendering and validation. The other areas are read by their own Node
 * tests: `hostile/` holds recipes that build inputs too large to store (each runtime has its own
 * suite for them), and `cli/`, `dispatch/`, `gateway/`, `patterns/`, `plain/`, `proxy/`,
 * `report/` and `results/` hold rows of another kind (a command line, a value to send, a
 * JSON-RPC message, the pattern corpus, a tool result). A new area is added here by choice.
 */
const RUNTIME_AREAS: readonly string[] = ['lenient', 'numbers', 'product', 'reader', 'render', 'schema', 'techspec', 'validate', 'warp', 'wild'];

/** Every table of the runtime areas, in a stable order. */
export function loadTables(): Table[] {
  const dir = join(ROOT, 'fixtures');
  return RUNTIME_AREAS.flatMap((area) =>
    readdirSync(join(dir, area))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({ file: `${area}/${name}`, rows: JSON.parse(readFileSync(join(dir, area, name), 'utf8')) as Table['rows'] })),
  );
}

/** The three entry modules as Node loads them from `dist/`. */
export async function distEntries(): Promise<{ index: unknown; render: unknown; validate: unknown }> {
  const load = (name: string) => import(pathToFileURL(join(ROOT, 'dist', `${name}.js`)).href) as Promise<unknown>;
  const [index, render, validate] = await Promise.all([load('index'), load('render'), load('validate')]);
  return { index, render, validate };
}

/** Node's outcome for every row of `tables`. */
export async function nodeOutcomes(tables: readonly Table[]): Promise<RowOutcome[]> {
  return runFixtureTables(await distEntries(), tables) as RowOutcome[];
}
