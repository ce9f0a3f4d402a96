/** The heap's growth over some work, measured between full collections. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * Runs `work`, and returns how far the used heap grew, in bytes, from a full collection before it
 * to one after it: what `work` left reachable (through `keep`, the caller holds it meanwhile).
 */
export function heapGrowth(work: () => unknown): number {
  collect();
  const before = process.memoryUsage().heapUsed;
  const kept = work();
  collect();
  const grown = process.memoryUsage().heapUsed - before;
  keep(kept);
  return grown;
}

/** Holds a value until here, so the collection after the work cannot free it. */
function keep(value: unknown): void {
  if (value === Symbol.for('never')) throw new Error('unreachable');
}
