import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Vitest global setup: tests of the CLI and of the package run the built `dist/`, built fresh. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js')], { cwd: root, stdio: 'pipe' });
}
