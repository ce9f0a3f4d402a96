/**
 * A stand-in for a server that reads numbers exactly (as Python, Go and Rust servers do): an MCP
 * SDK server over stdio whose `open_ticket` tool answers with its arguments exactly as they
 * arrived on the wire, every number as written. (The SDK's own `JSON.parse` rounds an integer
 * beyond 2^53 before any tool sees it, so the tool reads the line it came on instead.)
 *
 *   npx tsx examples/exact-server.ts   (speaks MCP on stdin/stdout; the README's dispatch example drives it)
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs, stringifyArgs } from 'schema-coerce';

/** Each `tools/call`'s arguments as they arrived (JSON text, numbers as written), by request id. */
const arrived = new Map<string, string>();
let unread = Buffer.alloc(0);
process.stdin.on('data', (chunk: Buffer) => {
  unread = Buffer.concat([unread, chunk]);
  for (let end = unread.indexOf(0x0a); end !== -1; end = unread.indexOf(0x0a)) {
    const message = parseArgs(unread.subarray(0, end).toString('utf8')) as { id?: unknown; method?: unknown; params?: { arguments?: unknown } };
    unread = unread.subarray(end + 1);
    if (message.method === 'tools/call') arrived.set(String(message.id), stringifyArgs(message.params?.arguments ?? {}));
  }
});

const server = new Server({ name: 'tickets', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: 'open_ticket',
    description: 'Opens a ticket by its 64-bit id.',
    inputSchema: {
      type: 'object',
      properties: { ticket: { type: 'integer' }, page: { type: 'integer', minimum: 1 }, labels: { type: 'array', items: { type: 'string' } } },
      required: ['ticket'],
    },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => ({
  content: [{ type: 'text', text: arrived.get(String(extra.requestId)) ?? '(not seen)' }],
}));

await server.connect(new StdioServerTransport());
