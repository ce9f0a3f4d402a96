/**
 * `schema-coerce gateway` in front of a stdio server: the SDK's Streamable HTTP client (SSE and
 * JSON answers) → the built gateway → the strict Python server, one process per session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { startGatewayProcess, stopGateways, STRICT_SERVER } from './_helpers/gateway.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await stopGateways();
});

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

describe.each([
  ['SSE', []],
  ['JSON', ['--json-response']],
])('gateway -- python3 strict_server.py, %s answers', (_kind, flags) => {
  test('"7" and 7.0 for an integer arrive as 7; list_changed is followed', async () => {
    const gateway = await startGatewayProcess([...flags, '--lenient', '--', 'python3', STRICT_SERVER]);
    const { client } = await connect(gateway.url);
    const result = await client.callTool({ name: 'get_symbol_info', arguments: { line: '7', column: 7.0, filePath: 'a.ts' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual({ line: 'int:7', column: 'int:7', filePath: 'a.ts' });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.callTool({ name: 'add_tool', arguments: {} });
    await changed;
    const late = await client.callTool({ name: 'late_tool', arguments: { count: 2.0 } });
    expect(JSON.parse(text(late))).toEqual({ count: 'int:2' });
  }, 30_000);
});
