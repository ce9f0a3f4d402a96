import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT: string = join(import.meta.dirname, '..', '..');
export const BIN: string = join(ROOT, 'dist', 'cli.js');

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `schema-coerce` bin with `args` and optional stdin. */
export function runCli(args: readonly string[], input?: string): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input: input ?? '', encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
