#!/usr/bin/env node
// npm run test:oracles -- [--seed N] [--runs N]: the differential oracles at length (Python's
// ast.literal_eval and repr, the json5 package, JSON.parse on every bracket dropped, number
// literals against BigInt arithmetic), 30,000 generated inputs per property by default; npm test
// runs the same tests on a fixed seed with 3,000.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const value = (flag) => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
};
const runs = value('--runs') ?? '30000';
const env = { ...process.env, FC_ORACLE_RUNS: runs, FC_RUNS: runs };
if (value('--seed') !== undefined) env.FC_SEED = value('--seed');
const run = spawnSync('npx', ['vitest', 'run', 'test/oracle-python.test.ts', 'test/oracle-json5.test.ts', 'test/numbers.test.ts', '--testTimeout', '600000'], { stdio: 'inherit', env });
process.exit(run.status ?? 1);
