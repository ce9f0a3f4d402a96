#!/usr/bin/env node
// npm run test:props -- [--seed N] [--runs N]: runs the property tests (random schemas and
// arguments, number literals against a BigInt oracle, parsing against JSON.parse), replaying a seed.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const value = (flag) => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
};
const env = { ...process.env };
if (value('--seed') !== undefined) env.FC_SEED = value('--seed');
if (value('--runs') !== undefined) env.FC_RUNS = value('--runs');
const run = spawnSync('npx', ['vitest', 'run', 'test/properties.test.ts', 'test/numbers.test.ts', 'test/parse.test.ts'], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
