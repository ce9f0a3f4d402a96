/** `withServerArgCoercion`: repairs incoming `tools/call` requests in an MCP SDK server. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Paging, ToolSchemas } from '../shared/tool-schemas.js';
import { errorResult, prepare, type McpCoercionOptions } from './options.js';

/** Options of `withServerArgCoercion`. */
export interface ServerCoercionOptions extends McpCoercionOptions {}

/**
 * Wraps a TypeScript `McpServer` or low-level `Server`, before `connect`, so each incoming
 * `tools/call` is repaired against the server's own advertised `inputSchema` before the SDK
 * validates it. Lenient mode is on by default here (integers only within ±(2^53−1), since the
 * server receives plain numbers). With `rejectUndeclared` or `validate`, a call that fails is
 * answered with an `isError` tool result whose text tells the model what to send, as the MCP
 * specification asks input errors to be reported, and never reaches the tool.
 *
 * @param server - The server, before `connect`.
 * @param options - Coercion, validation and reporting options.
 * @returns The same server, wrapped.
 * @example
 * const server = withServerArgCoercion(new McpServer({ name: 'demo', version: '1.0.0' }));
 */
export function withServerArgCoercion<S extends McpServer | Server>(server: S, options: ServerCoercionOptions = {}): S {
  const low = ('server' in server ? server.server : server) as Server;
  const connect = low.connect.bind(low);
  low.connect = async (transport: Transport) => {
    interpose(low, transport, { lenient: true, integerRange: 'safe', ...options });
    return connect(transport);
  };
  return server;
}

type Handler = NonNullable<Transport['onmessage']>;
interface CallRequest {
  readonly id: string | number;
  readonly params: { readonly name: string; readonly arguments?: unknown };
}
type RequestHandler = (request: unknown, extra: unknown) => Promise<{ tools?: Tool[]; nextCursor?: string }>;

/** Repairs `tools/call` requests on their way from `transport` to the server. */
function interpose(server: Server, transport: Transport, options: ServerCoercionOptions): void {
  const schemas = new ToolSchemas();
  const send = transport.send.bind(transport);
  transport.send = async (message, sendOptions) => {
    const outgoing = message as { id?: string | number; method?: string; result?: { tools?: Tool[] } };
    if (outgoing.method === 'notifications/tools/list_changed') schemas.clear();
    // Only a response answers the client: the server's own requests count their ids apart.
    if (outgoing.id !== undefined && outgoing.method === undefined) schemas.responded(outgoing.id, outgoing.result);
    return send(message, sendOptions);
  };

  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let deliver: Handler | undefined;
  const wrapped: Handler = (message, extra) => {
    const request = message as { id?: string | number; method?: string; params?: { name?: string; cursor?: string; arguments?: unknown } };
    if (request.method === 'tools/list' && request.id !== undefined) schemas.listRequested(request.id, request.params?.cursor === undefined);
    const needsRepair = request.method === 'tools/call' && request.id !== undefined && typeof request.params?.name === 'string';
    if (!needsRepair && pending === 0) {
      deliver?.(message, extra);
      return;
    }
    // Keep the order of messages: once one waits for a schema, the rest wait behind it.
    pending++;
    queue = queue
      .then(async () => {
        const repaired = needsRepair ? await repairRequest(request as CallRequest) : message;
        if (repaired !== undefined) deliver?.(repaired, extra);
      })
      .catch(() => deliver?.(message, extra))
      .finally(() => pending--);
  };

  const repairRequest = async (request: CallRequest): Promise<JSONRPCMessage | undefined> => {
    const name = request.params.name;
    let schema = schemas.get(name);
    if (schema === undefined) schema = (await ownTools(server)).get(name);
    if (schema === undefined) {
      options.onCoerce?.({ tool: name, schemaFound: false, dispatched: true });
      return request as unknown as JSONRPCMessage;
    }
    const call = await prepare(request.params.arguments ?? {}, schema, name, options);
    if (!call.ok) {
      options.onCoerce?.({ tool: name, schemaFound: true, dispatched: false, call });
      await send({ jsonrpc: '2.0', id: request.id, result: errorResult(call.message ?? 'Invalid parameters.') } as JSONRPCMessage);
      return undefined;
    }
    options.onCoerce?.({ tool: name, schemaFound: true, dispatched: true, call });
    return { ...request, params: { ...request.params, arguments: call.args } } as unknown as JSONRPCMessage;
  };

  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (deliver === undefined ? undefined : wrapped),
    set: (handler: Handler | undefined) => {
      deliver = handler;
    },
  });
}

/** The server's own tool list, from its registered `tools/list` handler (every page, within `Paging`'s bounds). */
async function ownTools(server: Server): Promise<Map<string, unknown>> {
  const tools = new Map<string, unknown>();
  const handler = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers?.get('tools/list');
  if (handler === undefined) return tools;
  const extra = { signal: new AbortController().signal, requestId: 'schema-coerce', sendNotification: async () => {}, sendRequest: async () => ({}) };
  const paging = new Paging();
  let cursor: string | undefined;
  try {
    for (;;) {
      const page = await handler({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, extra);
      for (const tool of page.tools ?? []) tools.set(tool.name, tool.inputSchema);
      if (!paging.follows(page.nextCursor)) break;
      cursor = page.nextCursor;
    }
  } catch {
    // A handler that cannot list here: the call passes unchanged.
  }
  return tools;
}

