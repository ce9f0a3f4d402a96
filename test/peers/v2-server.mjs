// An MCP server built with SDK v2 (`@modelcontextprotocol/server` 2.4.0), serving both protocol
// eras from one factory: the 2026-07-28 revision (no handshake, a `_meta` envelope on every
// request, `server/discover`, `subscriptions/listen`) and the 2025 ones. Run as a file it serves
// stdio (`serveStdio`); `v2-http-server.ts` serves the same factory over Streamable HTTP
// (`createMcpHandler`). Plain JavaScript, so a test starts it without a TypeScript loader. Its
// tools validate with zod, as most servers do, so `"7"` or `7.5` for an integer is refused:
// `echo` (count: integer, tags: string[]) answers its arguments as text; `add_tool` registers
// `late` (announced by `notifications/tools/list_changed`); `stats` has an `outputSchema`
// (total: integer) and answers its `n` there.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const echo = (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] });

/**
 * The server's tools, on a fresh instance.
 *
 * @param {(() => void) | undefined} changed - Told when `add_tool` adds one (over HTTP, where an
 *   instance serves one request); by default the instance announces it itself (stdio).
 * @param {Set<string>} added - The tools added after the start (by `add_tool`), which every fresh
 *   instance of one server has too: one set per server, never shared between servers (test files
 *   share a module graph, so a module-level set would carry `late` from one file's server to the next).
 * @returns {McpServer}
 */
export function v2Server(changed, added = new Set()) {
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
  const late = () => void server.registerTool('late', { description: 'Added later.', inputSchema: z.object({ n: z.number().int() }) }, async (args) => echo(args));
  server.registerTool('add_tool', { description: 'Adds the tool late.', inputSchema: z.object({}) }, async () => {
    added.add('late');
    setTimeout(changed ?? late, 20);
    return echo({ added: 'late' });
  });
  if (added.has('late')) late();
  return server;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  const added = new Set();
  serveStdio(() => v2Server(undefined, added));
}
