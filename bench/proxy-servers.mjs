// The servers of `npm run bench -- proxy`, on stdio: `raw` answers every request with a
// precomputed reply (only the id spliced in), the floor of any server; `sdk` is an McpServer from
// the official SDK with an `echo` tool (its arguments back) and a `big` tool (1 MB of text).
// Both list the same two tools.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { onLines } from '../test/peers/lines.mjs';

const BIG = 'x'.repeat(1 << 20);
const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' }, count: { type: 'integer' } }, required: ['text'] } },
  { name: 'big', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
];

if (process.argv[2] === 'sdk') {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string(), count: z.number().int().optional() } }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
  server.registerTool('big', { inputSchema: { n: z.number().int().optional() } }, async () => ({ content: [{ type: 'text', text: BIG }] }));
  await server.connect(new StdioServerTransport());
} else {
  const reply = (result) => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 0, result });
    const at = text.indexOf('"id":0') + 5;
    return [Buffer.from(text.slice(0, at)), Buffer.from(text.slice(at + 1) + '\n')];
  };
  const replies = {
    initialize: reply({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bench-raw', version: '1' } }),
    'tools/list': reply({ tools: TOOLS }),
    echo: reply({ content: [{ type: 'text', text: 'y'.repeat(1024) }] }),
    big: reply({ content: [{ type: 'text', text: BIG }] }),
  };
  const answer = (line) => {
    const head = line.subarray(0, 200).toString('latin1');
    const id = /"id":("[^"]*"|\d+)/.exec(head)?.[1];
    if (id === undefined) return;
    const method = /"method":"([^"]+)"/.exec(head)?.[1];
    const [before, after] = replies[method === 'tools/call' ? (head.includes('"name":"big"') ? 'big' : 'echo') : method] ?? replies.echo;
    process.stdout.write(Buffer.concat([before, Buffer.from(id), after]));
  };
  onLines(process.stdin, answer);
}
