/**
 * An MCP server on SDK v2 (`@modelcontextprotocol/server`), its tools validated by zod as most
 * servers' are, wrapped by `withServerArgCoercion` when given options: served in process over
 * HTTP (`createMcpHandler`) or in memory by the v2 adapter tests, and over stdio by
 * `v2-stdio-server.ts`. Tools: `goto` (line, column: integer; filePath: string), `search`
 * (q: string; limit: integer), `count_files` (output schema `{ count: integer }`) and `fails` (an
 * `isError` result whose `structuredContent` has another shape than its output schema, as the
 * servers of the reports in docs/API.md send).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { withServerArgCoercion, type ServerCoercionOptions } from '../../src/mcp.js';

const echo = (args: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

/** A fresh server (the v2 serving entries ask for one per request or connection), wrapped when `options` are given. */
export function toolServer(options?: ServerCoercionOptions): McpServer {
  const server = new McpServer({ name: 'v2-tools', version: '1.0.0' });
  if (options !== undefined) withServerArgCoercion(server, options);
  server.registerTool('goto', {
    description: 'Opens a file at a line.',
    inputSchema: z.object({ line: z.number().int(), column: z.number().int().optional(), filePath: z.string() }),
  }, async (args) => echo(args));
  server.registerTool('search', { description: 'Searches.', inputSchema: z.object({ q: z.string(), limit: z.number().int().optional() }) }, async (args) => echo(args));
  server.registerTool('count_files', {
    description: 'Counts files.',
    inputSchema: z.object({ dir: z.string() }),
    outputSchema: z.object({ count: z.number().int() }),
  }, async () => ({ content: [{ type: 'text', text: '{"count":3}' }], structuredContent: { count: 3 } }));
  server.registerTool('fails', {
    description: 'Fails, with an error envelope as structuredContent.',
    inputSchema: z.object({}),
    outputSchema: z.object({ count: z.number().int() }),
  }, async () => ({
    content: [{ type: 'text', text: 'NOT_FOUND: no such directory' }],
    structuredContent: { error: { code: 'NOT_FOUND', message: 'no such directory' } } as unknown as { count: number },
    isError: true,
  }));
  return server;
}
