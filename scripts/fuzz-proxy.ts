/**
 * The long run of the proxy's seeded fuzz (test/_helpers/fuzz-proxy.ts):
 *
 *   npm run fuzz:proxy -- --seed 1 --lines 5000 [--seed 2 …] [--longest 5000000]
 *
 * Each seed sends `--lines` client lines (and a third as many server lines) through the proxy,
 * run in process, in random chunks of 1 B to 64 KB, with a few lines of 2–5 MB; it prints what
 * differs from the promise, and exits 1 when anything does.
 */
import { parseArgs } from 'node:util';
import { fuzzProxy } from '../test/_helpers/fuzz-proxy.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', multiple: true },
    lines: { type: 'string' },
    longest: { type: 'string' },
  },
});
const seeds = (values.seed ?? ['1']).map(Number);
const lines = Number(values.lines ?? '5000');
const longest = Number(values.longest ?? String(5_000_000));
if (seeds.some((seed) => !Number.isInteger(seed)) || !Number.isInteger(lines) || lines < 1 || !Number.isInteger(longest) || longest < 2) {
  process.stderr.write('usage: npm run fuzz:proxy -- --seed N [--seed M …] [--lines 5000] [--longest 5000000]\n');
  process.exit(2);
}
let failed = false;
for (const seed of seeds) {
  const started = Date.now();
  const result = await fuzzProxy({ seed, lines, longest });
  const mb = ((result.clientBytes + result.serverBytes) / 1e6).toFixed(1);
  process.stdout.write(`seed ${seed}: ${lines} client lines, ${mb} MB both ways, ${result.differences.length} differences from the promise (${Date.now() - started} ms)\n`);
  for (const difference of result.differences) process.stdout.write(`  ${difference}\n`);
  failed ||= result.differences.length > 0;
}
process.exit(failed ? 1 : 0);
