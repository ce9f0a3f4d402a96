// The servers of `npm run bench -- gateway`, on 127.0.0.1 and the port given, printing
// `listening <url>` once they listen. `upstream` is a Streamable HTTP MCP server built with the
// official SDK (stateful, JSON answers) with an `echo` tool (its arguments back, `count` an
// integer checked by zod); `bare PORT UPSTREAM` is a pass-through that forwards every request to
// UPSTREAM byte for byte and streams the answer back, the floor of any HTTP gateway in Node;
// `stdio` is a stdio MCP server of one process (newline-delimited JSON-RPC, the same `echo`
// tool, no SDK: it starts fast, once per session), for the stdio routes (the gateway with
// `-- command`, and supergateway); `modern` is the same `echo` on SDK v2's `createMcpHandler`
// (the 2026-07-28 revision: no session, JSON answers), for the routes of that revision.
// The stdio server imports nothing it does not use (not the SDK, not zod): the stdio routes start
// one per session, 20 to 50 per route, and each would otherwise hold 70 MB rather than 40.
import { Agent, createServer, request } from 'node:http';

const [kind, port, target] = process.argv.slice(2);
let http;
if (kind === 'stdio') {
  const { createInterface } = await import('node:readline');
  const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
  const echo = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' }, count: { type: 'integer' } } } };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const message = JSON.parse(line);
    if (message.id === undefined || message.method === undefined) return;
    if (message.method === 'initialize') answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench-stdio', version: '1.0.0' } });
    else if (message.method === 'tools/list') answer(message.id, { tools: [echo] });
    else if (message.method === 'tools/call') answer(message.id, { content: [{ type: 'text', text: JSON.stringify(message.params.arguments) }] });
    else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }) + '\n');
  });
} else if (kind === 'modern') {
  const { z } = await import('zod');
  const { createMcpHandler, McpServer: ModernServer } = await import('@modelcontextprotocol/server');
  const { toNodeHandler } = await import('@modelcontextprotocol/node');
  const handler = createMcpHandler(() => {
    const server = new ModernServer({ name: 'bench-modern', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string(), count: z.number().int().optional() }) }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
    return server;
  }, { legacy: 'reject', responseMode: 'json', keepAliveMs: 0 });
  http = createServer(toNodeHandler(handler));
} else if (kind === 'upstream') {
  const { randomUUID } = await import('node:crypto');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { z } = await import('zod');
  const transports = new Map();
  http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const session = req.headers['mcp-session-id'];
    let transport = session === undefined ? undefined : transports.get(session);
    if (transport === undefined) {
      if (session !== undefined) return void res.writeHead(404).end();
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, enableJsonResponse: true, onsessioninitialized: (id) => transports.set(id, transport) });
      const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string(), count: z.number().int().optional() } }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
      await server.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
} else {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  http = createServer((req, res) => {
    const forwarded = request(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(forwarded);
  });
}
if (http !== undefined) {
  http.keepAliveTimeout = 60_000;
  http.listen(Number(port), '127.0.0.1', () => console.log(`listening http://127.0.0.1:${http.address().port}/mcp`));
}
