/**
 * The gateway's stdio sessions: one server process per client session, ended by DELETE, by the
 * idle timeout and by shutdown (which first finishes the calls in flight), with a cap on
 * sessions; progress, undeclared-key rejections and a server that dies, through the SDK client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { GatewayLimits } from '../src/adapters/gateway/options.js';
import { startGateway, type Gateway } from '../src/adapters/gateway/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { Writable } from 'node:stream';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeTempDirs);

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

async function gateway(limits: Partial<GatewayLimits> = {}, options: { rejectUndeclared?: boolean; env?: string } = {}): Promise<Gateway> {
  const command = options.env === undefined ? [process.execPath, SERVER] : ['env', `LOG_FILE=${options.env}`, process.execPath, SERVER];
  const started = await startGateway({ kind: 'stdio', command }, { host: '127.0.0.1', port: 0, path: '/mcp', rejectUndeclared: options.rejectUndeclared ?? false, limits }, quiet());
  cleanups.push(() => started.close());
  return started;
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'gateway-sessions-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}

describe('gateway stdio sessions', () => {
  test('each session has its own server process; DELETE ends it', async () => {
    const started = await gateway();
    const first = await connect(started.url);
    const second = await connect(started.url);
    const pids = [Number(text(await first.client.callTool({ name: 'pid', arguments: {} }))), Number(text(await second.client.callTool({ name: 'pid', arguments: {} })))];
    expect(pids[0]).not.toBe(pids[1]);
    expect(pids.every(alive)).toBe(true);
    const ended = first.transport.sessionId!;
    await first.transport.terminateSession();
    expect(await until(() => !alive(pids[0]!))).toBe(true);
    expect(alive(pids[1]!)).toBe(true);
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'pid', arguments: {} } };
    const after = await fetch(started.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': ended }, body: JSON.stringify(call) });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
  }, 30_000);

  test('an idle session is ended, and its id is then unknown', async () => {
    // 1.5 s: on a loaded 2-core machine, the client's first call came over 300 ms after its
    // initialize, and found its session already ended.
    const started = await gateway({ idleMs: 1_500 });
    const { client } = await connect(started.url);
    const pid = Number(text(await client.callTool({ name: 'pid', arguments: {} })));
    expect(await until(() => !alive(pid), 10_000)).toBe(true);
    await expect(client.callTool({ name: 'pid', arguments: {} })).rejects.toMatchObject({ code: 404 });
  }, 30_000);

  test('past the cap a new session is refused with 503, and taken once one ends', async () => {
    const started = await gateway({ maxSessions: 1 });
    const first = await connect(started.url);
    await expect(connect(started.url)).rejects.toMatchObject({ code: 503 });
    await first.transport.terminateSession();
    const { client } = await connect(started.url);
    expect(text(await client.callTool({ name: 'echo', arguments: { n: 1 } }))).toBe('n:1');
  }, 30_000);

  test('shutdown finishes the call in flight, then ends every server', async () => {
    const started = await gateway();
    const { client } = await connect(started.url);
    const pid = Number(text(await client.callTool({ name: 'pid', arguments: {} })));
    const slow = client.callTool({ name: 'slow', arguments: { ms: 800 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = started.close();
    expect(text(await slow)).toBe('slept:800');
    await closed;
    expect(await until(() => !alive(pid))).toBe(true);
    await expect(fetch(started.url, { method: 'POST' })).rejects.toThrow();
  }, 30_000);

  test('progress reaches the client while its call runs; 7.0 arrives as 7', async () => {
    const started = await gateway();
    const { client } = await connect(started.url);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'slow', arguments: { ms: 50.0 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    expect(text(result)).toBe('slept:50');
    expect(progress).toEqual([1]);
    expect(text(await client.callTool({ name: 'echo', arguments: { n: 7.0 } }))).toBe('n:7');
  }, 30_000);

  test('--reject-undeclared answers isError with the model-facing message, and the call never reaches the server', async () => {
    const log = join(makeTempDir('schema-coerce-gateway-'), 'received.jsonl');
    const started = await gateway({}, { rejectUndeclared: true, env: log });
    const { client } = await connect(started.url);
    const result = await client.callTool({ name: 'echo', arguments: { n: 1, colour: 'red' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/colour/);
    expect(readFileSync(log, 'utf8')).not.toContain('colour');
  }, 30_000);
});
