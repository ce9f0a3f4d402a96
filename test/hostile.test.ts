import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadFixtures } from './_helpers/fixtures.js';

interface HostileCase {
  readonly name: string;
  readonly recipe: string;
  readonly params?: Record<string, unknown>;
  readonly expected: unknown;
  /** Generous bounds in CPU milliseconds: they catch hangs and blow-ups, not slowness (the bench measures speed). */
  readonly bounds: { readonly ms: number; readonly mb: number };
}

const CHILD = join(import.meta.dirname, '_helpers', 'hostile-child.ts');

describe.each(loadFixtures<HostileCase>('hostile'))('$file', ({ cases }) => {
  test.each(cases)('$name', ({ recipe, params, expected, bounds }) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', CHILD, recipe, JSON.stringify(params ?? {})], {
      encoding: 'utf8',
      timeout: bounds.ms * 3 + 5000,
      maxBuffer: 1 << 24,
    });
    expect(run.signal, `killed: ${run.stderr}`).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    const { result, ms, mb } = JSON.parse(run.stdout) as { result: unknown; ms: number; mb: number };
    expect(result).toEqual(expected);
    expect(ms).toBeLessThan(bounds.ms);
    expect(mb).toBeLessThan(bounds.mb);
  }, 60_000);
});
