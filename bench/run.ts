/**
 * `npm run bench`: schema-coerce against its peers, in one run, on this machine. Prints a table
 * per workload (median ns per operation, ops/s, ratio to the group's reference), checks the
 * targets, and writes `bench/results.json` (or the file `BENCH_OUT` names: CI's smoke run writes
 * to a temp file, so it never dirties the tree). `--docs` also rewrites the table in docs/BENCHMARKS.md.
 *
 * Medians, never means: the machines here are small and noisy. Every ratio compares tasks
 * measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import {
  coerceArgs, coerceArgsJson, coerceIntegerArgs, findUndeclaredKeys, formatToolCall, parseArgs, prepareToolCall, toPlainNumbers,
} from '../src/index.js';
import { renameUnambiguousKeys } from '../src/validate.js';
import { compilePlan } from '../src/schema/plan.js';
import { warpCoerceIntegerArgs } from './warp-port.js';
import { corpusWorkloads, syntheticWorkloads, type Workload } from './workloads.js';
import { repairOfBrokenCalls, repairOnValidInput } from './repair.js';
import { hostileSchemas } from './hostile.js';
import { median } from './stats.js';

interface Row {
  readonly group: string;
  readonly task: string;
  readonly reference: boolean;
  readonly nsPerOp: number;
  readonly opsPerSecond: number;
  /** The task's speed over the group's first task's: the median of the per-round ratios. */
  readonly ratio: number;
  /** ns per operation in each round, in round order. */
  readonly samples: readonly number[];
}

interface Target {
  readonly name: string;
  readonly measured: string;
  readonly pass: boolean;
}

/** How long each task is warmed up, interleaved, before a group's timed rounds. */
const WARM_MS = Number(process.env['BENCH_TIME_MS'] ?? 150);
/** How long one timed batch of a task lasts, about: the calls that fill it are counted in the warm-up. */
const BATCH_MS = 8;
/**
 * A group is timed in this many rounds (fewer when its tasks are slow: about `GROUP_MS` in all,
 * at least 5). In each round every task runs one batch, in an order that rotates from round to
 * round; a task's time is its median over the rounds, and a ratio between two tasks the median of
 * their per-round ratios. This machine has phases in which everything runs up to 2× slower, and
 * batches of a few milliseconds taken side by side are taken within one phase.
 */
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 25));
const GROUP_MS = 8_000;
const rows: Row[] = [];
const targets: Target[] = [];
/** Measurements reported without a target. */
const info: { name: string; measured: string }[] = [];

type Gc = (options?: { type: 'minor' | 'major' }) => void;
const gc = (globalThis as { gc?: Gc }).gc;

/**
 * Runs one group. A batch holds as many calls as fill about `BATCH_MS`, so tiny operations are timed fairly.
 *
 * Garbage: the group starts from a full collection (with `--expose-gc`, as `npm run bench` starts
 * it), made before the warm-up, because a forced full collection deoptimizes JavaScript code that
 * embeds an object it frees (V8's "weak objects": repair ran 3–10× slower for its first thousand
 * calls after one, native `JSON.parse` did not); the warm-up then optimizes every task again.
 * Before each batch of several calls only the young generation is collected, which deoptimizes
 * nothing, so no task is charged for the short-lived garbage of the one before it.
 */
async function group(name: string, tasks: [task: string, run: () => unknown][]): Promise<void> {
  const runs = tasks.map(([, run]) => run);
  gc?.();
  // Warm-up, and the calls that fill a batch.
  const perBatch = runs.map(() => 1);
  const perCall = runs.map(() => 0);
  for (let pass = 0; pass < 2; pass++) {
    runs.forEach((run, index) => {
      const began = performance.now();
      let calls = 0;
      do {
        run();
        calls++;
      } while (performance.now() - began < WARM_MS / 2);
      perCall[index] = (performance.now() - began) / calls;
      perBatch[index] = Math.max(1, Math.round(BATCH_MS / perCall[index]!));
    });
  }
  const roundMs = perCall.reduce((sum, ms, index) => sum + ms * perBatch[index]!, 0);
  const rounds = Math.min(ROUNDS, Math.max(Math.min(5, ROUNDS), Math.floor(GROUP_MS / roundMs)));
  const samples = tasks.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let position = 0; position < tasks.length; position++) {
      const index = (position + round) % tasks.length;
      const run = runs[index]!;
      const calls = perBatch[index]!;
      // A batch of one call longer than a batch carries its own garbage: a forced scavenge
      // before it would only promote what the call keeps alive (the deep walks measured 6.4–6.8×
      // for 4× the depth with it, 5.1–5.2× without).
      if (calls > 1) gc?.({ type: 'minor' });
      const began = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) run();
      samples[index]!.push(Number(process.hrtime.bigint() - began) / calls);
    }
    // Let pending I/O and timers run between rounds, as a process that serves calls would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const measured: Row[] = tasks.map(([task], index) => {
    const ns = median(samples[index]!);
    const ratio = median(samples[index]!.map((sample, round) => samples[0]![round]! / sample));
    return { group: name, task, reference: index === 0, nsPerOp: ns, opsPerSecond: 1e9 / ns, ratio, samples: samples[index]! };
  });
  rows.push(...measured);
  printGroup(name, measured);
}

function printGroup(name: string, measured: Row[]): void {
  console.log(`\n${name}`);
  console.table(
    measured.map((row) => ({
      task: row.task,
      'median ns/op': row.nsPerOp < 1000 ? row.nsPerOp.toFixed(1) : Math.round(row.nsPerOp).toLocaleString('en'),
      'ops/s': Math.round(row.opsPerSecond).toLocaleString('en'),
      [`× ${measured[0]!.task}`]: row.ratio.toFixed(2),
    })),
  );
}

function rowOf(groupName: string, task: string): Row {
  const row = rows.find((r) => r.group === groupName && r.task === task);
  if (row === undefined) throw new Error(`no row ${groupName} / ${task}`);
  return row;
}

/** How many times faster `row` ran than `other` (same group): the median of the per-round ratios. */
function speedup(row: Row, other: Row): number {
  return median(row.samples.map((sample, round) => other.samples[round]! / sample));
}

function target(name: string, measured: string, pass: boolean): void {
  targets.push({ name, measured, pass });
}


async function textPath(workloads: Workload[]): Promise<void> {
  for (const { name, schema, text } of workloads) {
    const unchanged = text.replace(/(\d)\.0(?=[,}\]])/g, '$1');
    coerceArgsJson(text, schema); // compile the plan outside the timing
    const groupName = `text path, ${name} (${text.length.toLocaleString('en')} B)`;
    await group(groupName, [
      ['native JSON.parse + JSON.stringify', () => JSON.stringify(JSON.parse(text))],
      ['lossless-json parse + stringify', () => losslessStringify(losslessParse(text))],
      ['schema-coerce coerceArgsJson', () => coerceArgsJson(text, schema)],
      ['schema-coerce coerceArgsJson, nothing to change', () => coerceArgsJson(unchanged, schema)],
      ['schema-coerce coerceArgsJson, lenient', () => coerceArgsJson(text, schema, { lenient: true })],
    ]);
    const ours = rowOf(groupName, 'schema-coerce coerceArgsJson');
    const lossless = rowOf(groupName, 'lossless-json parse + stringify');
    target(`1. coerceArgsJson ≥ native parse+stringify, ${name}`, `${ours.ratio.toFixed(2)}×`, ours.ratio >= 1);
    const overLossless = speedup(ours, lossless);
    target(`1. coerceArgsJson ≥ 3× lossless-json, ${name}`, `${overLossless.toFixed(1)}×`, overLossless >= 3);
    const lenient = rowOf(groupName, 'schema-coerce coerceArgsJson, lenient');
    target(`7. coerceArgsJson lenient ≥ native parse+stringify, ${name}`, `${lenient.ratio.toFixed(2)}×`, lenient.ratio >= 1);
    target(`1. unchanged input returns the input string, ${name}`, String(coerceArgsJson(unchanged, schema) === unchanged), coerceArgsJson(unchanged, schema) === unchanged);
  }
}

async function objectPath(corpus: Workload[]): Promise<void> {
  const ajv = new Ajv2020({ coerceTypes: true, strict: false, logger: false });
  const prepared = corpus.map(({ schema, text }) => {
    const lossless = parseArgs(text) as Record<string, unknown>;
    const warpArgs = parseArgs(text) as Record<string, unknown>;
    let validate: ((data: unknown) => boolean) | undefined;
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = undefined;
    }
    coerceArgs(lossless, schema);
    return { schema, lossless, warpArgs, plain: JSON.parse(text) as unknown, validate };
  });
  const groupName = `object path, all ${corpus.length} corpus tools per operation`;
  await group(groupName, [
    ['Warp port (literal, mutating)', () => { for (const p of prepared) warpCoerceIntegerArgs(p.warpArgs, p.schema); }],
    ['Ajv 2020 validate + coerceTypes', () => { for (const p of prepared) p.validate?.(p.plain); }],
    ['schema-coerce coerceArgs (cached plan)', () => { for (const p of prepared) coerceArgs(p.lossless, p.schema); }],
  ]);
  const ours = rowOf(groupName, 'schema-coerce coerceArgs (cached plan)');
  const ajvRow = rowOf(groupName, 'Ajv 2020 validate + coerceTypes');
  target('2. coerceArgs ≥ 3× the Warp port (corpus)', `${ours.ratio.toFixed(2)}×`, ours.ratio >= 3);
  const overAjv = speedup(ours, ajvRow);
  target('2. coerceArgs ≥ Ajv validate+coerce (corpus)', `${overAjv.toFixed(2)}×`, overAjv >= 1);
}

async function compileTimes(corpus: Workload[]): Promise<void> {
  const ajv = new Ajv2020({ strict: false, logger: false });
  const schemas = corpus.map((w) => w.schema);
  const firstArgs = corpus.map((w) => parseArgs(w.text));
  const largest = corpus.reduce((a, b) => (JSON.stringify(b.schema).length > JSON.stringify(a.schema).length ? b : a));
  const groupName = `compile all ${corpus.length} corpus schemas per operation`;
  await group(groupName, [
    ['Ajv 2020 compile', () => { for (const s of schemas) { try { ajv.compile(s); } catch { /* counted as compiled */ } ajv.removeSchema(s); } }],
    ['schema-coerce plan compile', () => { for (const s of schemas) compilePlan(s); }],
    // A shallow copy is a new cache key, so each run compiles afresh, then coerces once (lazy nodes included).
    ['schema-coerce plan compile + first coercion', () => { schemas.forEach((s, i) => coerceArgs(firstArgs[i], { ...s })); }],
  ]);
  const ajvRow = rowOf(groupName, 'Ajv 2020 compile');
  const withFirst = rowOf(groupName, 'schema-coerce plan compile + first coercion');
  const overAjvCompile = speedup(withFirst, ajvRow);
  target('3. plan compile + first coercion ≤ 1/10 of Ajv compile (corpus)', `${overAjvCompile.toFixed(1)}× faster`, overAjvCompile >= 10);
  const largestName = `compile the largest corpus schema (${JSON.stringify(largest.schema).length.toLocaleString('en')} B, ${largest.name})`;
  await group(largestName, [['schema-coerce plan compile', () => compilePlan(largest.schema)]]);
  const ms = rowOf(largestName, 'schema-coerce plan compile').nsPerOp / 1e6;
  target('3. the largest corpus schema compiles in under 5 ms', `${ms.toFixed(3)} ms`, ms < 5);
}

async function noIntegerPositions(): Promise<void> {
  const schema = { type: 'object', properties: { q: { type: 'string' }, ratio: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } };
  const args = parseArgs('{"q":"cats","ratio":1.0,"tags":["a","b"]}');
  coerceIntegerArgs(args, schema);
  const groupName = 'a schema with no integer positions';
  await group(groupName, [['coerceIntegerArgs, same reference back', () => coerceIntegerArgs(args, schema)]]);
  const ns = rowOf(groupName, 'coerceIntegerArgs, same reference back').nsPerOp;
  target('4. no integer positions: same reference in ≤ 100 ns', `${ns.toFixed(1)} ns`, ns <= 100 && coerceIntegerArgs(args, schema) === args);
}

async function nesting(): Promise<void> {
  const schema = { anyOf: [{ type: 'integer' }, { type: 'array', items: { $ref: '#' } }] };
  const text = (depth: number) => '['.repeat(depth) + '7.0' + ']'.repeat(depth);
  const t100k = text(100_000);
  const t400k = text(400_000);
  const groupName = 'text path, nesting depth';
  await group(groupName, [
    ['100,000 levels', () => coerceArgsJson(t100k, schema)],
    ['400,000 levels', () => coerceArgsJson(t400k, schema)],
  ]);
  // Both depths are past every cache, so the ratio shows the algorithm, not the memory hierarchy.
  const ratio = speedup(rowOf(groupName, '100,000 levels'), rowOf(groupName, '400,000 levels'));
  target('5. 100,000 levels: no overflow, linear time (4× the depth ≤ 6× the time)', `${ratio.toFixed(1)}× the time for 4× the depth`, ratio <= 6);
  for (const kind of ['realistic', 'dense'] as const) {
    const memory = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'memory.ts'), kind], { encoding: 'utf8' });
    const result = JSON.parse(memory.stdout) as { inputBytes: number; peakGrowthBytes: number; rewrites: number };
    const multiple = result.peakGrowthBytes / result.inputBytes;
    const measured = `${multiple.toFixed(2)}× (${(result.peakGrowthBytes / 1e6).toFixed(1)} MB over a ${(result.inputBytes / 1e6).toFixed(1)} MB input, ${result.rewrites.toLocaleString('en')} literals rewritten)`;
    if (kind === 'realistic') target('5. peak memory for a 10 MB input under 3× its size', measured, multiple < 3);
    else info.push({ name: 'stress: peak memory, 10 MB of nothing but rewritten literals', measured });
  }
}

/** Depth scaling of every walk over arguments: 4× the depth within 6× the time, 100,000 levels well under a second. */
async function walkDepths(): Promise<void> {
  const schema = { type: 'object', properties: { a: { $ref: '#' }, thoughtNumber: { type: 'integer' } } };
  const textAt = (depth: number) => '{"a":'.repeat(depth) + '{"thought_number":1.0}' + '}'.repeat(depth);
  // 100,000 and 400,000 levels are both past every cache, so the ratio shows the algorithm.
  const depths = [100_000, 400_000] as const;
  const texts = depths.map(textAt);
  const values = texts.map((text) => parseArgs(text));
  const walks: [string, (value: unknown, text: string) => unknown][] = [
    ['findUndeclaredKeys', (value) => findUndeclaredKeys(value, schema)],
    ['renameUnambiguousKeys', (value) => renameUnambiguousKeys(value, schema)],
    ['prepareToolCall, rejectUndeclared (the model message)', (_value, text) => prepareToolCall(text, schema, { rejectUndeclared: true })],
    ['toPlainNumbers', (value) => toPlainNumbers(value)],
    ['formatToolCall (render)', (value) => formatToolCall('deep', value, schema)],
  ];
  for (const [name, run] of walks) {
    const groupName = `depth scaling, ${name}`;
    await group(groupName, depths.map((depth, i) => [`${depth.toLocaleString('en')} levels`, () => run(values[i], texts[i]!)] as [string, () => unknown]));
    const small = rowOf(groupName, '100,000 levels');
    const scaling = speedup(small, rowOf(groupName, '400,000 levels'));
    target(`6. ${name}: 4× the depth ≤ 6× the time`, `${scaling.toFixed(1)}×`, scaling <= 6);
    target(`6. ${name}: 100,000 levels under 0.5 s`, `${(small.nsPerOp / 1e6).toFixed(1)} ms`, small.nsPerOp < 5e8);
  }
}

function writeResults(): void {
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    warmUpMs: WARM_MS,
    batchMs: BATCH_MS,
    rounds: ROUNDS,
    rows,
    targets,
    info,
  };
  writeFileSync(process.env['BENCH_OUT'] ?? join(import.meta.dirname, 'results.json'), JSON.stringify(results, null, 2) + '\n');
}

/** The docs/BENCHMARKS.md table: the targets and what this run measured. */
function markdown(): string {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; one run of \`npm run bench\`, up to ${ROUNDS} interleaved rounds of batches of about ${BATCH_MS} ms: each time the median over the rounds, each ratio the median of the per-round ratios.`,
    '',
    '| target | measured | |',
    '| --- | --- | --- |',
    ...targets.map((t) => `| ${t.name.replace(/^\d\. /, '')} | ${t.measured} | ${t.pass ? 'pass' : '**fail**'} |`),
    ...info.map((i) => `| ${i.name} | ${i.measured} | (no target) |`),
  ];
  return lines.join('\n');
}

const START = '<!-- bench:start (generated by npm run bench -- --docs) -->';
const END = '<!-- bench:end -->';

/**
 * `BENCH_ONLY`: a comma-separated list of the sections to run (all when unset), to iterate on one
 * quickly. A partial run never rewrites docs/BENCHMARKS.md.
 */
const SECTIONS = ['text', 'object', 'compile', 'integers', 'valid', 'broken', 'nesting', 'depth', 'hostile'] as const;
const ONLY = process.env['BENCH_ONLY']?.split(',').map((name) => name.trim()).filter((name) => name !== '');

function runs(section: (typeof SECTIONS)[number]): boolean {
  return ONLY === undefined || ONLY.includes(section);
}

async function main(): Promise<void> {
  const unknown = ONLY?.filter((name) => !(SECTIONS as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: no section ${unknown.join(', ')} (the sections: ${SECTIONS.join(', ')})`);
  const corpus = corpusWorkloads();
  console.log(`schema-coerce bench: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, up to ${ROUNDS} rounds of ${BATCH_MS} ms batches per task`);
  console.log(corpus.length > 0 ? `corpus: ${corpus.length} tools` : 'corpus: absent, synthetic workloads only');
  if (ONLY !== undefined) console.log(`only: ${ONLY.join(', ')}`);
  if (runs('text')) await textPath(syntheticWorkloads());
  if (corpus.length > 0) {
    if (runs('object')) await objectPath(corpus);
    if (runs('compile')) await compileTimes(corpus);
  }
  if (runs('integers')) await noIntegerPositions();
  const tools = { group, target, rowOf };
  if (runs('valid')) await repairOnValidInput(tools);
  if (runs('broken')) await repairOfBrokenCalls(tools);
  if (runs('nesting')) await nesting();
  if (runs('depth')) await walkDepths();
  if (runs('hostile')) await hostileSchemas(tools);
  console.log('\ntargets');
  console.table(targets.map((t) => ({ target: t.name, measured: t.measured, result: t.pass ? 'pass' : 'FAIL' })));
  if (info.length > 0) console.table(info);
  writeResults();
  if (process.argv.includes('--docs') && ONLY !== undefined) console.log('\n--docs ignored: BENCH_ONLY ran part of the benchmark');
  else if (process.argv.includes('--docs')) {
    const path = join(import.meta.dirname, '..', 'docs', 'BENCHMARKS.md');
    const doc = readFileSync(path, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    if (start !== -1 && end !== -1) writeFileSync(path, doc.slice(0, start + START.length) + '\n' + markdown() + '\n' + doc.slice(end));
  }
}

if (process.argv[2] === 'proxy') await import('./proxy.js');
else if (process.argv[2] === 'gateway') await import(process.argv[3] === 'side-by-side' ? './gateway-side-by-side.js' : './gateway.js');
else if (process.argv[2] === 'cli') await import('./cli.js');
else await main();
