/**
 * A strict MCP server over stdio, in Node, with no coercion of its own: every `tools/call` is
 * checked by Ajv against the tool's advertised `inputSchema` and refused with an `isError` result
 * when it does not match, as strict servers do. A call that passes is echoed as JSON. `tools/list`
 * pages one tool per page. Run as a child process by the framework adapter tests.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';

const TOOLS: Tool[] = [
  {
    name: 'goto',
    description: 'Opens the current file at a line.',
    inputSchema: {
      type: 'object',
      properties: {
        line: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'The line, or null for the end.' },
        tags: { type: 'array', items: { type: 'string' } },
        deleted: { type: 'boolean' },
      },
      required: ['line'],
    },
  },
  { name: 'search', description: 'Searches.', inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] } },
];

const ajv = new Ajv({ allErrors: true, strict: false });
const server = new Server({ name: 'strict-node-server', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const index = Number(request.params?.cursor ?? '0');
  const next = index + 1 < TOOLS.length ? { nextCursor: String(index + 1) } : {};
  return { tools: [TOOLS[index]!], ...next };
});

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
  if (tool === undefined) return { isError: true, content: [{ type: 'text', text: `Unknown tool ${request.params.name}` }] };
  const check = ajv.compile(tool.inputSchema);
  const args = request.params.arguments ?? {};
  if (!check(args)) return { isError: true, content: [{ type: 'text', text: `strict-node-server refused: ${ajv.errorsText(check.errors)}` }] };
  return { content: [{ type: 'text', text: JSON.stringify(args) }] };
});

await server.connect(new StdioServerTransport());
