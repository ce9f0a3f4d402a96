/**
 * A TypeScript MCP server validating its inputs with zod, as most servers do, wrapped by
 * `withServerArgCoercion`: run as a child process over stdio by the adapter tests. Options come
 * from the SCHEMA_COERCE_SERVER_OPTIONS environment variable (JSON).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { withServerArgCoercion } from '../../src/mcp.js';

const options = JSON.parse(process.env['SCHEMA_COERCE_SERVER_OPTIONS'] ?? '{}') as Record<string, unknown>;
const server = withServerArgCoercion(new McpServer({ name: 'zod-server', version: '1.0.0' }), options);
const echo = (args: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

server.registerTool('goto', {
  description: 'Opens a file at a line.',
  inputSchema: { line: z.number().int(), column: z.number().int().optional(), filePath: z.string(), tags: z.array(z.string()).optional() },
}, async (args) => echo(args));
server.registerTool('search', { description: 'Searches.', inputSchema: { q: z.string(), limit: z.number().int().optional() } }, async (args) => echo(args));
server.registerTool('toggle', { description: 'Sets a flag.', inputSchema: { enabled: z.boolean() } }, async (args) => echo(args));

await server.connect(new StdioServerTransport());
