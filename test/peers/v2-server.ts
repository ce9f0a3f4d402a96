/**
 * An MCP server built with SDK v2 (`@modelcontextprotocol/server` 2.4.0) serving both protocol
 * eras from one factory: the 2026-07-28 revision (no handshake, a `_meta` envelope on every
 * request, `server/discover`, `subscriptions/listen`) and the 2025 ones. Over Streamable HTTP it
 * is `createMcpHandler` (stateless: no session, a fresh instance per request), over stdio
 * `serveStdio` (run this file: `node --import tsx test/peers/v2-server.ts`). Its tools validate
 * with zod, as most servers do, so `"7"` or `7.5` for an integer is refused:
 * `echo` (count: integer, tags: string[]) answers its arguments as text; `add_tool` registers
 * `late` and announces `notifications/tools/list_changed` (on HTTP, to the open
 * `subscriptions/listen` streams); `stats` has an `outputSchema` (total: integer).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

const echo = (args: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

/** Tools added after the start (by `add_tool`), so every fresh instance of the factory has them too. */
const added = new Set<string>();

/** The server's tools, on a fresh instance; `changed` is told when `add_tool` adds one (over HTTP, where an instance serves one request). */
export function v2Server(changed?: () => void): McpServer {
  const server = new McpServer({ name: 'v2-peer', version: '2.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('echo', {
    description: 'Echoes its arguments.',
    inputSchema: z.object({ count: z.number().int(), tags: z.array(z.string()).optional() }),
  }, async (args) => echo(args));
  server.registerTool('stats', {
    description: 'Counts.',
    inputSchema: z.object({ n: z.number().int() }),
    outputSchema: z.object({ total: z.number().int() }),
  }, async ({ n }) => ({ ...echo({ total: n }), structuredContent: { total: n } }));
  const late = (): void => void server.registerTool('late', { description: 'Added later.', inputSchema: z.object({ n: z.number().int() }) }, async (args) => echo(args));
  server.registerTool('add_tool', { description: 'Adds the tool late.', inputSchema: z.object({}) }, async () => {
    added.add('late');
    // On stdio the instance lives as long as the connection: registering announces the change.
    setTimeout(changed ?? late, 20);
    return echo({ added: 'late' });
  });
  if (added.has('late')) late();
  return server;
}

/** A running HTTP server and what it saw. */
export interface V2HttpPeer {
  readonly url: string;
  /** Every POST: its raw body and its headers, in order. */
  readonly posts: { body: Buffer; headers: IncomingHttpHeaders }[];
  readonly handler: McpHttpHandler;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts `createMcpHandler` on 127.0.0.1 and a free port; `legacy: 'reject'` serves the modern era only. */
export async function startV2HttpPeer(options: { legacy?: 'stateless' | 'reject'; responseMode?: 'auto' | 'sse' | 'json' } = {}): Promise<V2HttpPeer> {
  const posts: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  const handler: McpHttpHandler = createMcpHandler(() => v2Server(() => handler.notify.toolsChanged()), {
    legacy: options.legacy ?? 'stateless',
    responseMode: options.responseMode ?? 'auto',
    keepAliveMs: 0,
  });
  const node = toNodeHandler(handler);
  const http = createServer((request, response) => {
    void (async () => {
      const like = request as NodeIncomingMessageLike;
      if (request.method !== 'POST') return node(like, response);
      const body = await bodyOf(request);
      posts.push({ body, headers: request.headers });
      return node(like, response, JSON.parse(body.toString('utf8')));
    })().catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    posts,
    handler,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(() => v2Server());
}
