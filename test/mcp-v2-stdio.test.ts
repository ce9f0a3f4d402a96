/**
 * The MCP wrappers with SDK v2 over stdio, servers in child processes: the v2 server of
 * test/peers/v2-tools.ts behind `serveStdio` (both eras; bundled once, so each process starts on
 * plain `node`) for both wrappers, in the 2025 era and in the 2026-07-28 revision, negotiated
 * (the v2 client probes a sibling process with `server/discover` first) and pinned; a v2 client
 * against the strict Python server (a 2025 server: the negotiating client falls back to
 * `initialize`), which reads the integers the wire carries exactly; and an SDK v1 client against
 * the v2 server.
 */
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { parseArgs } from '../src/index.js';
import { NumberPrecisionError, withArgCoercion, type CoercionReport } from '../src/mcp.js';
import { bundlePeer } from './_helpers/bundle.js';
import { ERAS, hasRawJSON, text, type Mode } from './_helpers/mcp-eras.js';
import { HAS_PYTHON, needsPython } from './_helpers/peers.js';

const PEERS = join(import.meta.dirname, 'peers');
/** `peers/v2-stdio-server.ts` as plain JavaScript: each test starts one or two of it. */
let bundle: Awaited<ReturnType<typeof bundlePeer>> | undefined;
beforeAll(async () => {
  bundle = await bundlePeer(join(PEERS, 'v2-stdio-server.ts'));
});
afterAll(() => bundle?.remove());
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});

/** The v2 server peer's command line; wrapped by `withServerArgCoercion` with `options` when given. */
function v2Server(options?: object) {
  const env = { ...(process.env as Record<string, string>), ...(options === undefined ? {} : { SCHEMA_COERCE_SERVER_OPTIONS: JSON.stringify(options) }) };
  return { command: process.execPath, args: [bundle!.path], env, stderr: 'pipe' as const };
}

async function connect(server: ReturnType<typeof v2Server>, mode: Mode, wrap?: (client: Client) => Client): Promise<Client> {
  const plain = new Client({ name: 'v2-stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const client = wrap === undefined ? plain : wrap(plain);
  await client.connect(new StdioClientTransport(server));
  clients.push(client);
  return client;
}

describe.each(ERAS)('SDK v2 over stdio: %s', (_label, mode, era) => {
  test('withArgCoercion: "5" for an integer reaches the server as 5', async () => {
    const reports: CoercionReport[] = [];
    const client = await connect(v2Server(), mode, (c) => withArgCoercion(c, { lenient: true, onCoerce: (report) => reports.push(report) }));
    expect(client.getProtocolEra()).toBe(era);
    expect(text(await client.callTool({ name: 'goto', arguments: { line: '5', filePath: 'a.go' } }))).toBe('{"line":5,"filePath":"a.go"}');
    expect(reports[0]!.call!.changes).toEqual([{ path: '/line', from: '"5"', to: '5', rule: 'string-to-integer' }]);
  }, 60_000);

  // Unwrapped, zod refuses the same call: test/mcp-v2.test.ts shows it in each era.
  test('withServerArgCoercion: the server repairs "5"', async () => {
    const client = await connect(v2Server({}), mode);
    expect(client.getProtocolEra()).toBe(era);
    expect(text(await client.callTool({ name: 'search', arguments: { q: 'cats', limit: '10' } }))).toBe('{"q":"cats","limit":10}');
  }, 60_000);
});

describe.skipIf(!HAS_PYTHON)(needsPython('SDK v2 against the strict Python server (2025 era only)'), () => {
  const strict = { command: 'python3', args: [join(PEERS, 'strict_server.py')], stderr: 'pipe' as const };

  test.each(['legacy', 'auto'] as const)('mode %s: whole floats reach it as integers, and one beyond 2^53 exactly or not at all', async (mode) => {
    const plain = new Client({ name: 'v2-stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    const client = withArgCoercion(plain);
    await client.connect(new StdioClientTransport(strict));
    clients.push(client);
    expect(client.getProtocolEra()).toBe('legacy');
    const args = parseArgs('{"line":5.0,"column":1.0,"filePath":"server.go"}') as Record<string, unknown>;
    expect(text(await client.callTool({ name: 'get_symbol_info', arguments: args }))).toBe('{"column": "int:1", "filePath": "server.go", "line": "int:5"}');
    const big = parseArgs('{"line":9007199254740993,"filePath":"a.go"}') as Record<string, unknown>;
    if (hasRawJSON) {
      expect(text(await client.callTool({ name: 'get_symbol_info', arguments: big }))).toBe('{"filePath": "a.go", "line": "int:9007199254740993"}');
    } else {
      await expect(client.callTool({ name: 'get_symbol_info', arguments: big })).rejects.toThrow(NumberPrecisionError);
    }
  }, 60_000);
});

test('an SDK v1 client, wrapped, and the v2 server over stdio', async () => {
  const client = withArgCoercion(new ClientV1({ name: 'v1', version: '1.0.0' }), { lenient: true });
  await client.connect(new StdioV1(v2Server()));
  clients.push(client);
  expect(text(await client.callTool({ name: 'goto', arguments: { line: '9', filePath: 'a.go' } }))).toBe('{"line":9,"filePath":"a.go"}');
}, 60_000);
