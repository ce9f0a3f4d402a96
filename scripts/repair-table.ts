/**
 * Measures what jsonrepair, zod and Ajv do with the argument texts of `fixtures/wild` (what
 * models really send), against schema-coerce's lenient mode, by running the real packages, and
 * renders the README table "What models really send".
 *
 *   npx tsx scripts/repair-table.ts          print the table
 *   npx tsx scripts/repair-table.ts --write  rewrite it in README.md between its markers
 *   npx tsx scripts/repair-table.ts --rows   first list every row's verdicts
 *
 * Each row of the fixtures says what is right: the repaired arguments, or a refusal. A tool
 * answers *right* when it gives those arguments, or refuses where a refusal is right; *refused*
 * when it refuses where one reading exists; *silently wrong* when it gives any other value
 * (a truncated text completed, a Python list wrapped into a one-element array, a big integer
 * rounded). test/readme.test.ts asserts the README holds exactly this table.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';
import { coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';
import type { CoerceOptions } from '../src/index.js';
import { readTolerant } from '../src/json/tolerant/reader.js';
import { scanJson } from '../src/json/scanner.js';
import { truncationOf } from '../src/json/tolerant/repair.js';

interface WildCase {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly input: string;
  readonly expected?: string;
  readonly options?: CoerceOptions;
}

type Verdict = 'right' | 'refused' | 'wrong';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'wild');
const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).sort();

/** What a tool gives: JSON text of the arguments, or `undefined` when it refuses (throws or rejects). */
type Tool = (row: WildCase) => string | undefined;

const ajv = new Ajv({ coerceTypes: 'array', strict: false, allErrors: true });

const TOOLS: readonly { readonly label: string; readonly run: Tool }[] = [
  { label: '`JSON.parse` + zod `fromJSONSchema`', run: (row) => {
    const result = z.fromJSONSchema(row.schema as never).safeParse(JSON.parse(row.input));
    return result.success ? JSON.stringify(result.data) : undefined;
  } },
  { label: '`JSON.parse` + Ajv `coerceTypes: "array"`', run: (row) => {
    const data = JSON.parse(row.input) as unknown;
    return ajv.validate(row.schema, data) ? JSON.stringify(data) : undefined;
  } },
  { label: 'jsonrepair, then lenient coercion', run: (row) => coerced(jsonrepair(row.input), row) },
  { label: 'jsonrepair behind our truncation detector and token check, then lenient coercion', run: (row) => {
    if (truncationOf(row.input) !== undefined) return undefined;
    const repaired = jsonrepair(row.input);
    return sameTokens(inputTokens(row.input), strictTokens(repaired)) ? coerced(repaired, row) : undefined;
  } },
  { label: 'schema-coerce `lenient`', run: (row) => coerceArgsJson(row.input, row.schema, row.options ?? { lenient: true }) },
];

/** The row's coercion on an already repaired text, with syntax repair itself switched off. */
function coerced(text: string, row: WildCase): string {
  const lenient = row.options?.lenient;
  const rules = typeof lenient === 'object' ? lenient : {};
  return coerceArgsJson(text, row.schema, { ...row.options, lenient: { ...rules, syntax: false } });
}

/**
 * The string and number tokens of the input as strict JSON spells them, from the tolerant
 * reading: a token the reader rewrites whole (a quoted string, a key) as it rewrites it.
 */
function inputTokens(text: string): string[] {
  const { tokens, edits } = readTolerant(text);
  const list: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const start = tokens[i]!;
    const end = Math.abs(tokens[i + 1]!);
    list.push(edits.find((edit) => edit.start === start && edit.end === end)?.to ?? text.slice(start, end));
  }
  return list;
}

/** The string and number tokens of strict JSON text, as spelled (throws when it is not JSON). */
function strictTokens(text: string): string[] {
  const list: string[] = [];
  const add = (start: number, end: number): void => void list.push(text.slice(start, end));
  scanJson(text, { open() {}, close() {}, literal() {}, key: (_key, start, end) => add(start, end), string: add, number: add });
  return list;
}

/** The same tokens in the same order: numbers spelled the same, strings of the same value. */
function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i] || (token[0] === '"' && b[i]![0] === '"' && JSON.parse(token) === JSON.parse(b[i]!)));
}

function verdict(tool: Tool, row: WildCase): Verdict {
  let out: string | undefined;
  try {
    out = tool(row);
  } catch {
    out = undefined;
  }
  if (out === undefined) return row.expected === undefined ? 'right' : 'refused';
  if (row.expected === undefined) return 'wrong';
  try {
    return stringifyArgs(parseArgs(out)) === stringifyArgs(parseArgs(row.expected)) ? 'right' : 'wrong';
  } catch {
    return 'wrong';
  }
}

/** The README table, measured now: per fixture file, right / refused / silently wrong for each tool. */
export function repairTable(): string {
  const totals = TOOLS.map(() => ({ right: 0, refused: 0, wrong: 0 }));
  const lines = files.map((file) => {
    const rows = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as WildCase[];
    const cells = TOOLS.map((tool, i) => {
      const count = { right: 0, refused: 0, wrong: 0 };
      for (const row of rows) count[verdict(tool.run, row)]++;
      totals[i]!.right += count.right;
      totals[i]!.refused += count.refused;
      totals[i]!.wrong += count.wrong;
      return `${count.right} / ${count.refused} / ${count.wrong}`;
    });
    return `| ${file.replace('.json', '')} (${rows.length}) | ${cells.join(' | ')} |`;
  });
  const total = totals.map((t) => `**${t.right} / ${t.refused} / ${t.wrong}**`);
  return [
    `| fixtures/wild | ${TOOLS.map((tool) => tool.label).join(' | ')} |`,
    `| --- |${' --- |'.repeat(TOOLS.length)}`,
    ...lines,
    `| all (${files.reduce((n, f) => n + (JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as unknown[]).length, 0)}) | ${total.join(' | ')} |`,
  ].join('\n');
}

export const README: string = join(import.meta.dirname, '..', 'README.md');
export const START: string = '<!-- repair-table:start (generated by scripts/repair-table.ts) -->';
export const END: string = '<!-- repair-table:end -->';

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  if (process.argv.includes('--rows')) {
    for (const file of files) {
      for (const row of JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as WildCase[]) {
        process.stdout.write(`${file} ${row.name}: ${TOOLS.map((tool) => verdict(tool.run, row)).join(' ')}\n`);
      }
    }
  }
  const table = repairTable();
  if (process.argv.includes('--write')) {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (start === -1 || end === -1) throw new Error('README.md has no repair-table markers');
    writeFileSync(README, readme.slice(0, start + START.length) + '\n' + table + '\n' + readme.slice(end));
  } else {
    process.stdout.write(table + '\n');
  }
}
