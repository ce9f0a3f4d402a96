/**
 * `npm run conformance:mcp`: the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * its server scenarios) against a reference server directly, and through the gateway and the
 * proxy: every scenario that passes directly must pass through them, else this exits 1.
 *
 * The reference server is the MCP project's own, `@modelcontextprotocol/server-everything`, over
 * Streamable HTTP (sessions, SSE, the GET stream). The routes, each with `--lenient`, so the repair
 * is on:
 * - direct: the suite → the server;
 * - gateway: the suite → `schema-coerce gateway --url` → the server;
 * - proxy: the suite → `schema-coerce gateway -- schema-coerce proxy --url` → the server (the
 *   suite speaks HTTP only, so the proxy, a stdio program, is hosted by a gateway: each session of
 *   the suite is a proxy process, which reaches the server over `--url`).
 *
 * The suite's CLI needs Node 22 or later (it imports `fs.globSync`): it runs on this Node when it
 * is one, else on the `node` that `CONFORMANCE_NODE` names (`.ci/run` passes the official Node 22
 * binary). Needs `npm run build`. `-- --scenario <name>` runs one scenario.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'cli.js');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const REFERENCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** Each scenario's outcome on one route: passed or not, with its counts. */
type Outcomes = Map<string, { passed: boolean; line: string }>;

const children: ChildProcess[] = [];

/** A free port on loopback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `command` and resolves with the first match of `ready` in its stderr. */
function start(command: readonly string[], ready: RegExp, env: NodeJS.ProcessEnv = {}): Promise<RegExpExecArray> {
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = ready.exec(stderr);
      if (found !== null) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited (${code}) before it was ready: ${stderr.slice(-500)}`)));
  });
}

/** A gateway in front of `upstream` (its arguments after the repair flags), listening on a free port. */
async function gateway(upstream: readonly string[]): Promise<string> {
  const found = await start([process.execPath, BIN, 'gateway', '--listen', '127.0.0.1:0', '--lenient', ...upstream], /listening on (\S+),/);
  return found[1]!;
}

/** The Node that runs the suite's CLI: this one from 22 on, else `CONFORMANCE_NODE`. */
function suiteNode(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const named = process.env['CONFORMANCE_NODE'];
  if (named === undefined || named === '') throw new Error(`the conformance suite needs Node 22 or later (this is ${process.version}): set CONFORMANCE_NODE to one`);
  return named;
}

/** Runs the suite's server scenarios against `url`; resolves with each scenario's outcome. */
async function runSuite(node: string, url: string, extra: readonly string[]): Promise<Outcomes> {
  const output = mkdtempSync(join(tmpdir(), 'schema-coerce-conformance-'));
  try {
    const child = spawn(node, [SUITE, 'server', '--url', url, '-o', output, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    await new Promise((resolve) => child.once('exit', resolve));
    const outcomes: Outcomes = new Map();
    for (const match of stdout.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gmu)) outcomes.set(match[2]!, { passed: match[1] === '✓', line: `${match[3]} passed, ${match[4]} failed` });
    if (outcomes.size === 0) throw new Error(`the suite reported no scenario for ${url}:\n${stdout.slice(-2000)}`);
    return outcomes;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const node = suiteNode();
  const extra = process.argv.slice(2).filter((arg) => arg !== '--');
  const port = await freePort();
  const direct = `http://localhost:${port}/mcp`;
  await start([process.execPath, REFERENCE, 'streamableHttp'], /listening on port/, { PORT: String(port) });
  const routes: [name: string, url: string][] = [
    ['direct', direct],
    ['gateway', await gateway(['--url', direct])],
    ['proxy', await gateway(['--', process.execPath, BIN, 'proxy', '--lenient', '--url', direct])],
  ];
  const results = new Map<string, Outcomes>();
  // One route at a time: the reference server keeps per-session state, and the machine is shared.
  for (const [name, url] of routes) results.set(name, await runSuite(node, url, extra));
  const baseline = results.get('direct')!;
  const regressions: string[] = [];
  const names = routes.map(([name]) => name);
  console.log(['scenario', ...names].join('\t'));
  for (const [scenario, outcome] of baseline) {
    const row = names.map((name) => {
      const got = results.get(name)!.get(scenario);
      if (outcome.passed && got?.passed !== true) regressions.push(`${scenario}: passes directly (${outcome.line}), not through the ${name} (${got?.line ?? 'not run'})`);
      return got === undefined ? 'not run' : `${got.passed ? 'pass' : 'fail'} (${got.line})`;
    });
    console.log([scenario, ...row].join('\t'));
  }
  const passing = [...baseline.values()].filter((outcome) => outcome.passed).length;
  if (regressions.length > 0) {
    console.error(`conformance:mcp: ${regressions.length} scenario(s) pass directly but not through schema-coerce:\n${regressions.join('\n')}`);
    return 1;
  }
  console.log(`conformance:mcp: ${passing} of ${baseline.size} scenarios pass directly against the reference server, and every one of them passes through the gateway and the proxy`);
  return 0;
}

let status = 1;
try {
  status = await main();
} catch (error) {
  console.error(`conformance:mcp: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
}
process.exit(status);
