/**
 * A Streamable HTTP upstream that fails the way real ones do, hand-written on node:http so each
 * failure is exact: `hang` never answers (until the request is abandoned, which it records),
 * `die-sse` starts an SSE answer, sends a notification and drops the connection, `die-json`
 * drops it halfway through a JSON answer, `slow-json` sends half a JSON answer and the rest after
 * `n` milliseconds, `empty` answers a request `202` with no body, and
 * `echo` answers. An `initialize` from a client named `hang` is never answered either. Every
 * session id is new per `initialize`; every message received is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message the upstream received, with the session it named. */
export interface Received {
  readonly session: string | undefined;
  readonly message: { id?: unknown; method?: string; params?: { name?: string; requestId?: unknown; clientInfo?: { name?: string } } };
}

/** A running broken upstream. */
export interface BrokenUpstream {
  readonly url: string;
  readonly received: Received[];
  /** How many requests the upstream never answered were abandoned by the gateway. */
  abandoned(): number;
  close(): Promise<void>;
}

const TOOLS = ['echo', 'hang', 'die-sse', 'die-json', 'slow-json', 'empty'].map((name) => ({ name, inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }));

/** Starts it on 127.0.0.1 and a free port. */
export async function startBrokenUpstream(): Promise<BrokenUpstream> {
  const received: Received[] = [];
  let sessions = 0;
  let abandoned = 0;
  const json = (response: ServerResponse, message: object, session?: string): void => {
    const text = JSON.stringify(message);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(session === undefined ? {} : { 'mcp-session-id': session }) }).end(text);
  };
  const hang = (request: IncomingMessage, response: ServerResponse): void => {
    response.on('close', () => abandoned++);
    request.resume();
  };
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['message'];
    const session = request.headers['mcp-session-id'] as string | undefined;
    received.push({ session, message });
    const { id, method, params } = message;
    if (id === undefined) return void response.writeHead(202).end();
    if (method === 'initialize') {
      if (params?.clientInfo?.name === 'hang') return hang(request, response);
      return json(response, { jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'broken', version: '0' } } }, `s-${++sessions}`);
    }
    if (method === 'tools/list') return json(response, { jsonrpc: '2.0', id, result: { tools: TOOLS } });
    switch (params?.name) {
      case 'hang':
        return hang(request, response);
      case 'die-sse':
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`);
        setTimeout(() => response.socket?.destroy(), 50);
        return;
      case 'die-json':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
        response.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[`);
        setTimeout(() => response.socket?.destroy(), 50);
        return;
      case 'slow-json': {
        // Half a JSON answer at once, the rest after `n` milliseconds.
        const text = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'late but whole' }] } });
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.write(text.slice(0, 20));
        setTimeout(() => response.end(text.slice(20)), Number((params as { arguments?: { n?: number } }).arguments?.n ?? 1_000));
        return;
      }
      case 'empty':
        return void response.writeHead(202).end();
      default:
        return json(response, { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'echoed' }] } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    abandoned: () => abandoned,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
