/**
 * A strict MCP server on stdio (the SDK's McpServer, zod-validated tools), for the runtime suites:
 * with the argument `coerced` it is wrapped by `withServerArgCoercion`, with `plain` it is not
 * (and rejects "7" for an integer, as a strict server does).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { withServerArgCoercion } from 'schema-coerce/mcp';
import { z } from 'zod';

const plain = new McpServer({ name: 'strict', version: '1.0.0' });
const server = process.argv[2] === 'coerced' ? withServerArgCoercion(plain) : plain;
server.registerTool(
  'goto',
  { description: 'Opens a file at a line.', inputSchema: { line: z.number().int(), filePath: z.string() } },
  async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
);
await server.connect(new StdioServerTransport());
