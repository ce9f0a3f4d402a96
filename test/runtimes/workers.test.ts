/**
 * The package in Cloudflare Workers' runtime: `workerd` (the npm package, run locally on
 * 127.0.0.1) serving `worker/worker.ts`, bundled by tsup as a Worker is. `npm run test:workers`.
 * - the MCP server adapter over Streamable HTTP repairs "7" to 7 for a strict tool, called by the
 *   SDK's HTTP client (and the same server unwrapped refuses it);
 * - the core on each request answers every fixture call as Node does, and each request's CPU time
 *   (the workerd process's, read from /proc: an upper bound of the Worker's own) stays within the
 *   10 ms of the Workers free plan.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { prepareToolCall, stringifyArgs } from '../../src/index.js';
import { binary } from './other-runtime.js';
import { loadTables } from './tables.js';
import { freePort } from '../_helpers/ports.js';

const work = mkdtempSync(join(tmpdir(), 'schema-coerce-workerd-'));
let workerd: ChildProcess;
let origin: string;
let log = '';

const config = (port: number) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
);
`;

beforeAll(async () => {
  // As wrangler bundles a Worker: everything in one module, Node built-ins left to the runtime.
  await build({
    config: false, entry: { worker: join(import.meta.dirname, 'worker', 'worker.ts') }, outDir: work, format: ['esm'], platform: 'neutral',
    target: 'es2022', noExternal: [/^(?!node:|module$)/], external: [/^node:/, 'module'], splitting: false, dts: false, silent: true,
    esbuildOptions: (options) => void Object.assign(options, { conditions: ['workerd', 'worker', 'browser', 'import'], mainFields: ['module', 'main'] }),
  });
  const port = await freePort();
  writeFileSync(join(work, 'config.capnp'), config(port));
  // In a process group of its own, killed whole after the tests: a SIGTERM left workerd draining,
  // still running long after the suite had ended.
  workerd = spawn(binary('workerd'), ['serve', join(work, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  workerd.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  workerd.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${origin}/`).then(() => true, () => false);
    if (up) break;
    if (tries > 100 || workerd.exitCode !== null) throw new Error(`workerd did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(() => {
  try {
    if (workerd?.pid !== undefined) process.kill(-workerd.pid, 'SIGKILL');
  } catch {
    // The group has already ended.
  }
  rmSync(work, { recursive: true, force: true });
});

async function callGoto(path: string): Promise<{ isError: boolean; text: string }> {
  const client = new Client({ name: 'workers-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}${path}`)));
  try {
    const result = (await client.callTool({ name: 'goto', arguments: { line: '7', filePath: 'a.go' } })) as { isError?: boolean; content: { text: string }[] };
    return { isError: result.isError === true, text: result.content[0]!.text };
  } finally {
    await client.close();
  }
}

test('the MCP server adapter in a Worker repairs "7" to 7 for a strict tool, over Streamable HTTP', async () => {
  expect(await callGoto('/mcp')).toEqual({ isError: false, text: '{"line":7,"filePath":"a.go"}' });
  expect(await callGoto('/mcp/plain')).toEqual({ isError: true, text: expect.stringContaining('expected number, received string') });
});

/** CPU time the workerd process has used, in ms (every thread's, from /proc, nanosecond counters). */
function cpuMs(pid: number): number {
  const dir = `/proc/${pid}/task`;
  return readdirSync(dir).reduce((sum, task) => sum + Number(readFileSync(`${dir}/${task}/schedstat`, 'utf8').split(' ')[0]), 0) / 1e6;
}

test('the core on each request: Node\'s answers for every fixture call, each within the Workers CPU limit', async () => {
  const calls = loadTables().flatMap(({ file, rows }) =>
    (rows as { name: string; input?: unknown; schema?: unknown; options?: object }[])
      .filter((row) => typeof row.input === 'string' && !file.startsWith('validate/'))
      .map((row) => ({ name: `${file}: ${row.name}`, body: { input: row.input as string, schema: row.schema, options: row.options ?? (file.startsWith('wild/') ? { lenient: true } : {}) } })),
  );
  expect(calls.length).toBeGreaterThan(350);
  const post = async (body: unknown) => (await fetch(`${origin}/prepare`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<unknown>;
  // One round to warm up (the Workers limit is on each request, startup has its own), then five measured.
  for (const { body } of calls) await post(body);
  const perCall = calls.map(() => [] as number[]);
  for (let round = 0; round < 5; round++) {
    for (const [i, { name, body }] of calls.entries()) {
      const before = cpuMs(workerd.pid!);
      const answer = await post(body);
      perCall[i]!.push(cpuMs(workerd.pid!) - before);
      if (round === 0) {
        const call = prepareToolCall(body.input, body.schema, { ...body.options, toolName: 'tool' });
        // stringifyArgs writes an exact number's digits as the Worker's JSON.rawJSON does (Node 20 has none).
        expect(answer, name).toEqual(JSON.parse(stringifyArgs({ ok: call.ok, json: call.json, changes: call.changes, refusals: call.refusals, message: call.message })));
      }
    }
  }
  const medians = perCall.map((times) => times.sort((a, b) => a - b)[2]!).sort((a, b) => a - b);
  const at = (q: number) => medians[Math.min(medians.length - 1, Math.floor(q * medians.length))]!.toFixed(2);
  console.log(`workerd CPU per request over ${calls.length} fixture calls (median of 5 rounds each): median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`);
  expect(medians.at(-1)).toBeLessThan(10);
});
