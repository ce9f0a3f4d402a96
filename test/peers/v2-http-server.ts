/**
 * The v2 peer (`v2-server.mjs`: SDK v2, both protocol eras, zod-validated tools) over Streamable
 * HTTP: `createMcpHandler` (no session, a fresh instance per request; by default 2025-era traffic
 * is served statelessly too, `legacy: 'reject'` serves the 2026-07-28 revision only), on
 * loopback, recording every POST's raw body and headers. `add_tool` announces
 * `notifications/tools/list_changed` to the open `subscriptions/listen` streams.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { v2Server } from './v2-server.mjs';

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
  const added = new Set<string>();
  const handler: McpHttpHandler = createMcpHandler(() => v2Server(() => handler.notify.toolsChanged(), added), {
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
