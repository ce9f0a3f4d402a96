/**
 * `npm run bench -- cli`: the built `schema-coerce` command on 5 MB and 50 MB of arguments read
 * from stdin (a file redirected in), each run in a fresh process: its wall time and its peak
 * resident size, the median of three runs each (`BENCH_CLI_RUNS`), and the peak's growth over a
 * run on a 5-byte call, as a multiple of the input's size. Two workloads: `numbers`, nothing but
 * float-ified whole numbers at integer positions (`[1.0,1.0,…]`, every one rewritten: the issue's
 * 50 MB of 13 million numbers, and the most edits a text can hold), and `calls`, the large
 * synthetic call of `bench/workloads.ts` (long strings, a few numbers) repeated to the size (the
 * last megabyte filled with whole numbers).
 * `--fail-on-refusal` runs are timed at every size (the verdicts made in the same pass, the
 * changes not kept), `--report` runs on 5 MB and on the 50 MB of calls (a report holds a line per
 * change: 12.5 million of them, 1 GB, for the 50 MB of numbers). Needs `npm run build`. Prints a
 * table and checks the targets (50 MB in under 10 s and under 3× its size in memory, with and
 * without `--fail-on-refusal`). `BENCH_CLI_SIZES` (MB, comma-separated) changes the sizes.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.js';
import { SYNTHETIC_SCHEMA, syntheticWorkloads } from './workloads.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
/**
 * Prints the process's peak resident size (bytes) and the CPU time it took (user and system, µs)
 * on fd 3 as it exits. The CPU time is what a loaded machine changes least: on this 2-core machine
 * shared by several engineers the wall time of one run moved by 2× from minute to minute.
 */
const PEAK = `data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>{try{const u=process.resourceUsage();writeSync(3,u.maxRSS*1024+' '+(u.userCPUTime+u.systemCPUTime))}catch{}})`;
const RUNS = Number(process.env['BENCH_CLI_RUNS'] ?? 3);
const SIZES = (process.env['BENCH_CLI_SIZES'] ?? '5,50').split(',').map(Number);
const MB = 1_000_000;

interface Run {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peak: number;
  readonly outputBytes: number;
}

/** Runs the CLI with `args`, stdin from `input`, stdout to `output`. */
function run(args: readonly string[], input: string, output: string): Run {
  const stdin = openSync(input, 'r');
  const stdout = openSync(output, 'w');
  const stderr = openSync(`${output}.err`, 'w');
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', PEAK, CLI, ...args], { stdio: [stdin, stdout, stderr, 'pipe'], encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  for (const fd of [stdin, stdout, stderr]) closeSync(fd);
  if (child.status !== 0) throw new Error(`schema-coerce ${args.join(' ')} exited ${child.status}: ${readFileSync(`${output}.err`, 'utf8').slice(0, 500)}`);
  const outputBytes = spawnSync('wc', ['-c', output], { encoding: 'utf8' }).stdout;
  const [peak, cpu] = String(child.output[3]).split(' ').map(Number);
  return { seconds, cpuSeconds: cpu! / 1e6, peak: peak!, outputBytes: Number.parseInt(outputBytes, 10) };
}

/** Writes `bytes` of the workload `kind` to `path` (in pieces: the text is never one string here). */
function generate(kind: 'numbers' | 'calls', bytes: number, path: string): number {
  const file = openSync(path, 'w');
  let written = writeSync(file, '[');
  if (kind === 'numbers') {
    const piece = '1.0,'.repeat(25_000);
    while (written + piece.length < bytes) written += writeSync(file, piece);
    while (written + 4 < bytes) written += writeSync(file, '1.0,');
  } else {
    const call = syntheticWorkloads().find((workload) => workload.name === 'large')!.text;
    while (written + call.length + 1 < bytes) written += writeSync(file, call + ',');
    while (written + 4 < bytes) written += writeSync(file, '1.0,');
  }
  written += writeSync(file, '1.0]');
  closeSync(file);
  return written;
}

const dir = mkdtempSync(join(tmpdir(), 'schema-coerce-bench-cli-'));
const schemas = {
  numbers: join(dir, 'numbers.schema.json'),
  calls: join(dir, 'calls.schema.json'),
};
writeFileSync(schemas.numbers, JSON.stringify({ type: 'array', items: { type: 'integer' } }));
writeFileSync(schemas.calls, JSON.stringify({ type: 'array', items: { anyOf: [SYNTHETIC_SCHEMA, { type: 'integer' }] } }));
const output = join(dir, 'out.json');
const rows: string[] = [];
const failures: string[] = [];
try {
  const tiny = join(dir, 'tiny.json');
  writeFileSync(tiny, '[1.0]');
  const baseline = median(Array.from({ length: RUNS }, () => run(['-s', schemas.numbers], tiny, output).peak));
  console.log(`schema-coerce CLI bench: Node ${process.version}, ${RUNS} runs each; a 5-byte call peaks at ${(baseline / MB).toFixed(1)} MB`);
  for (const size of SIZES) {
    for (const kind of ['numbers', 'calls'] as const) {
      const input = join(dir, `${kind}-${size}.json`);
      const bytes = generate(kind, size * MB, input);
      const variants: [string, string[]][] = [['', []], ['--fail-on-refusal', ['--fail-on-refusal']]];
      if (size <= 5 || kind === 'calls') variants.push(['--report', ['--report']]);
      for (const [label, extra] of variants) {
        const runs = Array.from({ length: RUNS }, () => run(['-s', schemas[kind], ...extra], input, output));
        const seconds = runs.map((r) => r.seconds);
        const cpu = runs.map((r) => r.cpuSeconds);
        const growth = runs.map((r) => (r.peak - baseline) / bytes);
        const row = `| ${kind} | ${(bytes / MB).toFixed(0)} MB | ${label || '(none)'} | ${median(seconds).toFixed(2)} s (${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}) | ${median(cpu).toFixed(2)} s (${Math.min(...cpu).toFixed(2)}–${Math.max(...cpu).toFixed(2)}) | ${(median(runs.map((r) => r.peak)) / MB).toFixed(0)} MB | ${median(growth).toFixed(2)}× (${Math.min(...growth).toFixed(2)}–${Math.max(...growth).toFixed(2)}) | ${(runs[0]!.outputBytes / MB).toFixed(1)} MB |`;
        console.log(row);
        rows.push(row);
        if (size >= 50 && label !== '--report') {
          if (median(seconds) >= 10) failures.push(`${kind} ${size} MB ${label}: ${median(seconds).toFixed(2)} s (target under 10 s; CPU ${median(cpu).toFixed(2)} s)`);
          if (median(growth) >= 3) failures.push(`${kind} ${size} MB ${label}: ${median(growth).toFixed(2)}× its size in memory (target under 3×)`);
        }
      }
      rmSync(input);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(['', '| workload | input | options | wall time, median (range) | CPU time (user + system) | peak RSS | peak growth over a 5-byte call ÷ input | output |', '| --- | --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n'));
console.log(failures.length === 0 ? '\nevery target met' : `\ntargets missed:\n${failures.join('\n')}`);
