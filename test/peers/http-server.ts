/**
 * A Streamable HTTP MCP server built with the SDK, on loopback, for the proxy's remote tests:
 * stateful (one session id per initialize), answering POSTs with SSE streams or, with `json`,
 * JSON bodies, with a GET stream for the server's own messages. It records every POST body as
 * raw bytes and every DELETE, and can require one header. Tools validate with zod, as most
 * servers do: `echo` (count: integer, tags: string[], flag: boolean), `add_tool` (registers
 * `late`, which makes the server announce `notifications/tools/list_changed` on the GET stream).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A running server and what it saw. */
export interface HttpPeer {
  readonly url: string;
  /** The raw bytes of every POST body, in order. */
  readonly bodies: Buffer[];
  /** The headers of every POST, in the same order. */
  readonly heads: IncomingHttpHeaders[];
  /** The session id of every DELETE. */
  readonly deletes: string[];
  close(): Promise<void>;
}

const echo = (args: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'http-peer', version: '1.0.0' });
  server.registerTool('echo', {
    description: 'Echoes its arguments.',
    inputSchema: { count: z.number().int(), tags: z.array(z.string()).optional(), flag: z.boolean().optional() },
  }, async (args) => echo(args));
  server.registerTool('add_tool', { description: 'Adds the tool late.', inputSchema: {} }, async () => {
    setTimeout(() => server.registerTool('late', { description: 'Added later.', inputSchema: { n: z.number().int() } }, async (args) => echo(args)), 50);
    return echo({ added: 'late' });
  });
  return server;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the server on 127.0.0.1 and a free port (or `port`, to start one again where it was). */
export async function startHttpPeer(options: { json?: boolean; header?: [name: string, value: string]; port?: number } = {}): Promise<HttpPeer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const bodies: Buffer[] = [];
  const heads: IncomingHttpHeaders[] = [];
  const deletes: string[] = [];
  const http = createServer((request, response) => {
    void (async () => {
      if (options.header !== undefined && request.headers[options.header[0]] !== options.header[1]) {
        response.writeHead(401).end();
        return;
      }
      const session = request.headers['mcp-session-id'] as string | undefined;
      if (request.method === 'DELETE' && session !== undefined) deletes.push(session);
      const body = request.method === 'POST' ? await bodyOf(request) : undefined;
      if (body !== undefined) {
        bodies.push(body);
        heads.push(request.headers);
      }
      let transport = session === undefined ? undefined : transports.get(session);
      if (transport === undefined) {
        if (session !== undefined || request.method !== 'POST') {
          response.writeHead(session === undefined ? 400 : 404).end();
          return;
        }
        const fresh = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.json === true,
          onsessioninitialized: (id) => void transports.set(id, fresh),
        });
        await mcpServer().connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(request, response, body === undefined ? undefined : JSON.parse(body.toString('utf8')));
    })().catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    bodies,
    heads,
    deletes,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
