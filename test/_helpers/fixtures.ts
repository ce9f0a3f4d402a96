import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Change, CoerceOptions, Reading, RefusalReason } from '../../src/index.js';

/** One row of a fixture table. `input` and `expected` are raw JSON text. */
export interface FixtureCase {
  readonly name: string;
  readonly schema?: unknown;
  readonly input: string;
  readonly expected: string;
  readonly options?: CoerceOptions;
  readonly changes?: readonly Partial<Change>[];
  /** Every refusal the row expects, in order; `[]` when none is. Required: silence is not a pass. */
  readonly refusals: readonly { path: string; reason: RefusalReason; readings?: readonly Reading[] }[];
  /** What `prepareToolCall` with `renameUnambiguous` makes of the row, where that differs: a refusal naming `error`, or other arguments. */
  readonly withRename?: { readonly error: string } | { readonly expected: string; readonly changes: readonly string[] };
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

/**
 * The coercion tables of `area`, each row checked for the fields every row must state: a row
 * without `refusals` (or with a refusal lacking its `reason`) fails loading, naming the row.
 */
export function loadCases(area: string): FixtureFile[] {
  const files = loadFixtures<FixtureCase>(area);
  for (const { file, cases } of files) {
    for (const row of cases) {
      for (const field of ['name', 'input', 'expected', 'refusals'] as const) {
        if (row[field] === undefined) throw new Error(`${file}: row ${JSON.stringify(row.name)} has no "${field}"`);
      }
      if (row.refusals.some((refusal) => typeof refusal.path !== 'string' || typeof refusal.reason !== 'string')) {
        throw new Error(`${file}: row ${JSON.stringify(row.name)} has a refusal without "path" and "reason"`);
      }
    }
  }
  return files;
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
