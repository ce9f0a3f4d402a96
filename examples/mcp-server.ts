/**
 * An MCP server whose zod-validated tools accept "5" for 5, "false" for false and "urgent" for
 * ["urgent"], because one line repairs each call before the SDK validates it.
 *
 *   npx tsx examples/mcp-server.ts   (speaks MCP on stdin/stdout; examples/mcp-client.ts drives it)
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { withServerArgCoercion } from 'schema-coerce/mcp';
import { z } from 'zod';

const server = withServerArgCoercion(new McpServer({ name: 'tickets', version: '1.0.0' }), { rejectUndeclared: true });

server.registerTool(
  'list_tickets',
  {
    description: 'Lists tickets.',
    inputSchema: { page: z.number().int().min(1), includeClosed: z.boolean(), labels: z.array(z.string()).optional() },
  },
  async (args) => ({ content: [{ type: 'text', text: `listing ${JSON.stringify(args)}` }] }),
);

await server.connect(new StdioServerTransport());
