/**
 * Benchmark rows for syntax repair: the lenient path on valid input with and without the
 * `syntax` rule, and broken calls (a Python repr with a fence, a comment and a trailing comma,
 * ≈1 KB and ≈5 KB) repaired by schema-coerce and by jsonrepair, against native
 * `JSON.parse` + `JSON.stringify` of the repaired text.
 */
import { jsonrepair } from 'jsonrepair';
import { coerceArgsJson } from '../src/index.js';
import { repairJsonText } from '../src/json/tolerant/repair.js';
import { SYNTHETIC_SCHEMA, syntheticWorkloads } from './workloads.js';

/** What run.ts lends a group of rows: timing, targets and the rows measured. */
export interface BenchTools {
  group(name: string, tasks: [task: string, run: () => unknown][]): Promise<void>;
  target(name: string, measured: string, pass: boolean): void;
  rowOf(group: string, task: string): { readonly nsPerOp: number; readonly opsPerSecond: number; readonly ratio: number };
}

/** The Python repr of a JSON value, as models that think in Python write tool arguments. */
function pyRepr(value: unknown): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

/** A broken call of about `bytes` bytes: a fenced Python repr with a comment and a trailing comma. */
function brokenCall(bytes: number): string {
  const medium = JSON.parse(syntheticWorkloads()[1]!.text) as { results: unknown[] };
  let results = medium.results;
  while (pyRepr({ ...medium, results }).length > bytes - 40) results = results.slice(0, -1);
  return '```python\n' + pyRepr({ ...medium, results }).replace(/\}$/, ", # done\n}").replace(', # done', ', // done') + '\n```';
}

/** The lenient path on valid input with the syntax rule off and on, and its target. */
export async function repairOnValidInput({ group, target, rowOf }: BenchTools): Promise<void> {
  for (const { name, schema, text } of syntheticWorkloads().slice(0, 2)) {
    const groupName = `lenient path on valid input, ${name} (${text.length.toLocaleString('en')} B)`;
    await group(groupName, [
      ['coerceArgsJson lenient, syntax rule off (the lenient path before)', () => coerceArgsJson(text, schema, { lenient: { syntax: false } })],
      ['coerceArgsJson lenient, syntax rule on', () => coerceArgsJson(text, schema, { lenient: true })],
    ]);
    const ratio = rowOf(groupName, 'coerceArgsJson lenient, syntax rule on').ratio;
    target(`6. repair mode on valid input within 5% of the lenient path, ${name}`, `${ratio.toFixed(3)}×`, ratio >= 0.95);
  }
}

/** Broken calls of about 1 KB and 5 KB repaired by schema-coerce and by jsonrepair, and their targets. */
export async function repairOfBrokenCalls({ group, target, rowOf }: BenchTools): Promise<void> {
  for (const bytes of [1000, 5000]) {
    const broken = brokenCall(bytes);
    const repaired = repairJsonText(broken).text;
    const groupName = `broken call, ${broken.length.toLocaleString('en')} B (fenced Python repr, comment, trailing comma)`;
    await group(groupName, [
      ['native JSON.parse + JSON.stringify of the repaired text', () => JSON.stringify(JSON.parse(repaired))],
      ['schema-coerce repairJsonText', () => repairJsonText(broken)],
      ['jsonrepair (no truncation detector, no token check)', () => jsonrepair(broken)],
      ['schema-coerce coerceArgsJson lenient (repair, parse, coerce, write)', () => coerceArgsJson(broken, SYNTHETIC_SCHEMA, { lenient: true })],
    ]);
    const ratio = rowOf(groupName, 'schema-coerce repairJsonText').ratio;
    target(`6. repair of a broken ${bytes / 1000} KB call ≥ 1/3 of native parse+stringify`, `${ratio.toFixed(2)}×`, ratio >= 1 / 3);
  }
}
