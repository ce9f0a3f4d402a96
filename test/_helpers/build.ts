import { join } from 'node:path';
import { build } from 'tsup';

/**
 * Vitest global setup: the CLI, proxy and example tests run the built `dist/` JavaScript, built
 * fresh from `tsup.config.ts` here. Declarations are not rebuilt (they take most of a full build
 * and no test here reads them): `npm run build`, `npm ci` and `npm pack` (the packaging suite)
 * build them, and `clean: false` keeps the last ones.
 */
export default async function setup(): Promise<void> {
  const root = join(import.meta.dirname, '..', '..');
  const cwd = process.cwd();
  process.chdir(root);
  try {
    await build({ dts: false, clean: false, silent: true });
  } finally {
    process.chdir(cwd);
  }
}
