/**
 * `--repair-results` against real clients that validate output (SDK v2 and v1), and a server that
 * writes its results as text, byte for byte (`peers/raw-results-server.mjs`): directly, through
 * the built proxy and through the gateway.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { validateArgs } from '../src/validate.js';
import { captureStream } from './_helpers/gateway.js';
import { connect, proxyCommand, textOf, type AnyClient, type ClientKind } from './_helpers/modern.js';

const RAW_SERVER = [process.execPath, join(import.meta.dirname, 'peers', 'raw-results-server.mjs')];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close().catch(() => undefined);
});

/** A client that has listed the tools, so it validates results against their output schemas. */
async function client(kind: ClientKind, target: string | readonly string[]): Promise<AnyClient> {
  const connected = await connect(kind, target);
  cleanups.push(() => connected.close());
  await connected.listTools();
  return connected;
}

describe('clients that validate output, against a server writing its results as text', () => {
  test('SDK v2: "7" for an integer in structuredContent is refused directly, repaired through proxy --lenient --repair-results', async () => {
    const direct = await client('v2-auto', RAW_SERVER);
    await expect(direct.callTool({ name: 'stats', arguments: { mode: 'string' } })).rejects.toThrow(/Structured content does not match the tool's output schema/);
    const proxied = await client('v2-auto', proxyCommand(['--lenient', '--repair-results'], ['--', ...RAW_SERVER]));
    expect(await proxied.callTool({ name: 'stats', arguments: { mode: 'string' } })).toMatchObject({ structuredContent: { total: 7, mean: 2.5 } });
    expect(await proxied.callTool({ name: 'stats', arguments: { mode: 'float' } })).toMatchObject({ structuredContent: { total: 5, mean: 2.5 } });
    const unrepaired = await client('v2-auto', proxyCommand(['--lenient'], ['--', ...RAW_SERVER]));
    await expect(unrepaired.callTool({ name: 'stats', arguments: { mode: 'string' } })).rejects.toThrow(/Structured content does not match/);
  });

  test('SDK v1: an isError result with a structuredContent of another shape is refused directly; through the proxy and the gateway the error text arrives', async () => {
    const direct = await client('v1', RAW_SERVER);
    await expect(direct.callTool({ name: 'stats', arguments: { mode: 'error' } })).rejects.toThrow(/Structured content does not match the tool's output schema/);
    const proxied = await client('v1', proxyCommand(['--repair-results'], ['--', ...RAW_SERVER]));
    const result = await proxied.callTool({ name: 'stats', arguments: { mode: 'error' } });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe('boom');
    expect(result).not.toHaveProperty('structuredContent');
    const gateway = await startGateway({ kind: 'stdio', command: RAW_SERVER }, { host: '127.0.0.1', port: 0, path: '/mcp', repairResults: true, resultValidator: validateArgs }, captureStream());
    cleanups.push(() => gateway.close());
    const overHttp = await client('v1', gateway.url);
    expect(textOf(await overHttp.callTool({ name: 'stats', arguments: { mode: 'error' } }))).toBe('boom');
  });
});
