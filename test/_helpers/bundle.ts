import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'tsup';

/** Under `node_modules`, so that the packages a bundle leaves out resolve from it as from the checkout. */
const CACHE = join(import.meta.dirname, '..', '..', 'node_modules', '.cache');

/**
 * A TypeScript peer (a server a test starts in child processes) as one JavaScript file, this
 * checkout's `src/` within it and every package left out, so each process starts on plain
 * `node`: `node --import tsx` spent about 1.3 s of CPU more on each start, which a file
 * starting nine servers paid nine times. Bundled once per test file; `remove` deletes it.
 *
 * @returns The bundle's path and its remover (register it with `afterAll`).
 */
export async function bundlePeer(entry: string): Promise<{ readonly path: string; readonly remove: () => void }> {
  mkdirSync(CACHE, { recursive: true });
  const outDir = mkdtempSync(join(CACHE, 'schema-coerce-peer-'));
  const name = basename(entry).replace(/\.ts$/, '');
  await build({
    entry: { [name]: entry },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node18',
    bundle: true,
    splitting: false,
    external: [/^[^./]/],
    outExtension: () => ({ js: '.mjs' }),
    dts: false,
    clean: false,
    config: false,
    silent: true,
  });
  return { path: join(outDir, `${name}.mjs`), remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
