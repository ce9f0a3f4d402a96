/**
 * Peak memory of the text path on a 10 MB input, run in a child process of its own by
 * `bench/run.ts`: `realistic` is the large synthetic call (long strings) repeated to 10 MB;
 * `dense` is 2.5 million `1.0`s at integer positions, the worst case for the output's pieces.
 * Prints `{ inputBytes, peakGrowthBytes, rewrites }`: how far the process's peak resident size
 * rose while coerceArgsJson ran and its result was alive.
 */
import { coerceArgsJson } from '../src/index.js';
import { SYNTHETIC_SCHEMA, syntheticWorkloads } from './workloads.js';

const kind = process.argv[2] === 'dense' ? 'dense' : 'realistic';
const large = syntheticWorkloads().find((w) => w.name === 'large')!.text;
const [text, schema] =
  kind === 'dense'
    ? ['[' + '1.0,'.repeat(2_500_000) + '1.0]', { type: 'array', items: { type: 'integer' } }]
    : ['[' + Array(9).fill(large).join(',') + ']', { type: 'array', items: SYNTHETIC_SCHEMA }];

coerceArgsJson('[1.0]', schema);
(globalThis as { gc?: () => void }).gc?.();
const before = process.resourceUsage().maxRSS * 1024;
const out = coerceArgsJson(text, schema);
const after = process.resourceUsage().maxRSS * 1024;
const rewrites = (text.length - out.length) / 2;
process.stdout.write(JSON.stringify({ inputBytes: text.length, peakGrowthBytes: after - before, rewrites }) + '\n');
