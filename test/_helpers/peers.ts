import { spawnSync } from 'node:child_process';

/** True when `command --version` runs: the peer is on PATH. */
function available(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The strict MCP server in `test/peers/strict_server.py` needs a `python3` (standard library only). */
export const HAS_PYTHON: boolean = available('python3');

/**
 * A describe/test name that says, when the peer is missing, why its tests are skipped, so the
 * reporter shows the reason next to the skip instead of a timeout or `spawn python3 ENOENT`.
 */
export function needsPython(name: string): string {
  return HAS_PYTHON ? name : `${name} [skipped: needs python3, which is not on PATH]`;
}

/** The major version of the running Node. */
export const NODE_MAJOR: number = Number(process.versions.node.split('.')[0]);
