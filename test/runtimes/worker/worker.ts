/**
 * A Cloudflare Worker (run in workerd by `workers.test.ts`), two routes:
 * - `/mcp`: an MCP server over Streamable HTTP (the SDK's web-standard transport, stateless: a
 *   server per request, as a Worker without Durable Objects runs one), wrapped by
 *   `withServerArgCoercion`, with one strict tool whose `line` is a zod integer (`/mcp/plain`: the
 *   same server unwrapped);
 * - `/prepare`: the core on each request: `{ input, schema, options }` in, `prepareToolCall`'s
 *   dispatch text, changes and refusals out.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { prepareToolCall, type PrepareOptions } from 'schema-coerce';
import { withServerArgCoercion } from 'schema-coerce/mcp';
import { z } from 'zod';

async function mcp(request: Request, coerced: boolean): Promise<Response> {
  const plain = new McpServer({ name: 'worker', version: '1.0.0' });
  const server = coerced ? withServerArgCoercion(plain) : plain;
  server.registerTool(
    'goto',
    { description: 'Opens a file at a line.', inputSchema: { line: z.number().int(), filePath: z.string() } },
    async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

async function prepare(request: Request): Promise<Response> {
  const { input, schema, options } = (await request.json()) as { input: string; schema: unknown; options?: PrepareOptions };
  const call = prepareToolCall(input, schema, { ...options, toolName: 'tool' });
  return Response.json({ ok: call.ok, json: call.json, changes: call.changes, refusals: call.refusals, message: call.message });
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/mcp') return mcp(request, true);
    if (pathname === '/mcp/plain') return mcp(request, false);
    if (pathname === '/prepare' && request.method === 'POST') return prepare(request);
    return new Response('not found', { status: 404 });
  },
};
