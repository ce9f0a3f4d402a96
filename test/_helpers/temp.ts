import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder under the system temp folder, removed by `removeTempDirs`. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes every folder `makeTempDir` made in this test file: register it with `afterAll`. A
 * detached process does the removal, so a test file never waits on it: the packaging tests'
 * installed consumers took over two minutes to delete on a loaded machine.
 */
export function removeTempDirs(): void {
  const dirs = made.splice(0);
  if (dirs.length === 0) return;
  const remove = 'for (const dir of process.argv.slice(1)) require("node:fs").rmSync(dir, { recursive: true, force: true })';
  spawn(process.execPath, ['-e', remove, ...dirs], { detached: true, stdio: 'ignore' }).unref();
}
