import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Change, CoerceOptions, RefusalReason } from '../../src/index.js';

/** One row of a fixture table. `input` and `expected` are raw JSON text. */
export interface FixtureCase {
  readonly name: string;
  readonly schema?: unknown;
  readonly input: string;
  readonly expected: string;
  readonly options?: CoerceOptions;
  readonly changes?: readonly Partial<Change>[];
  readonly refusals?: readonly { path: string; reason?: RefusalReason }[];
}

export interface FixtureFile<T = FixtureCase> {
  readonly file: string;
  readonly cases: readonly T[];
}

export const FIXTURES: string = join(import.meta.dirname, '..', '..', 'fixtures');

/** Every `fixtures/<area>/*.json` table, each file an array of cases. */
export function loadFixtures<T = FixtureCase>(area: string): FixtureFile<T>[] {
  const dir = join(FIXTURES, area);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: `${area}/${name}`, cases: JSON.parse(readFileSync(join(dir, name), 'utf8')) as T[] }));
}

/** Freezes a value and everything reachable from it, so any mutation throws in strict mode. */
export function deepFreeze<T>(value: T, seen: Set<unknown> = new Set()): T {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
    Object.freeze(value);
  }
  return value;
}
