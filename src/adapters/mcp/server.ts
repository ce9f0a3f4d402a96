/** `withServerArgCoercion`: repairs incoming `tools/call` requests in an MCP SDK server (v1 or v2). */
import { errorResult, isModernMeta } from '../shared/tool-error.js';
import { Paging, ToolSchemas } from '../shared/tool-schemas.js';
import { prepare, type McpCoercionOptions } from './options.js';
import type { McpHighLevelServer, McpLowLevelServer, McpTransport, WireMessage } from './sdk-types.js';
import { tapTransport, type Deliver } from './tap.js';

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
export function withServerArgCoercion<S extends McpHighLevelServer | McpLowLevelServer>(server: S, options: ServerCoercionOptions = {}): S {
  const low: McpLowLevelServer = 'server' in server ? (server as McpHighLevelServer).server : (server as McpLowLevelServer);
  const connect = low.connect.bind(low);
  low.connect = async (transport: McpTransport, ...rest: never[]) => {
    interpose(low, transport, { lenient: true, integerRange: 'safe', ...options });
    return connect(transport, ...rest);
  };
  return server;
}

interface CallRequest {
  readonly id: unknown;
  readonly params: { readonly name: string; readonly arguments?: unknown; readonly _meta?: unknown };
}

/**
 * The wrapper's own answer to a call it refused: an `isError` result, with the `resultType` that
 * a result must carry from the 2026-07-28 revision on when the request came in that era.
 */
function answer(request: CallRequest, text: string): object {
  return errorResult(text, isModernMeta(request.params._meta));
}
interface ToolsPage {
  readonly tools?: readonly { readonly name: string; readonly inputSchema?: unknown }[];
  readonly nextCursor?: string;
}
type RequestHandler = (request: unknown, extra: unknown) => Promise<ToolsPage>;

/** Repairs `tools/call` requests on their way from `transport` to the server. */
function interpose(server: McpLowLevelServer, transport: McpTransport, options: ServerCoercionOptions): void {
  const schemas = new ToolSchemas();
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;

  const repairRequest = async (request: CallRequest): Promise<unknown> => {
    const name = request.params.name;
    let schema = schemas.get(name);
    if (schema === undefined) schema = (await ownTools(server)).get(name);
    if (schema === undefined) {
      options.onCoerce?.({ tool: name, schemaFound: false, dispatched: true });
      return request;
    }
    const call = await prepare(request.params.arguments ?? {}, schema, name, options);
    if (!call.ok) {
      options.onCoerce?.({ tool: name, schemaFound: true, dispatched: false, call });
      await send({ jsonrpc: '2.0', id: request.id, result: answer(request, call.message ?? 'Invalid parameters.') });
      return undefined;
    }
    options.onCoerce?.({ tool: name, schemaFound: true, dispatched: true, call });
    return { ...request, params: { ...request.params, arguments: call.args } };
  };

  const send = tapTransport(transport, {
    sent(message: WireMessage): void {
      if (message.method === 'notifications/tools/list_changed') schemas.clear();
      // Only a response answers the client: the server's own requests count their ids apart.
      if (message.id !== undefined && message.method === undefined) schemas.responded(message.id, message.result);
    },
    received(message: WireMessage, extra: unknown, deliver: Deliver): void {
      if (message.method === 'tools/list' && message.id !== undefined) schemas.listRequested(message.id, message.params?.cursor === undefined);
      const needsRepair = message.method === 'tools/call' && message.id !== undefined && typeof message.params?.name === 'string';
      if (!needsRepair && pending === 0) {
        deliver(message, extra);
        return;
      }
      // Keep the order of messages: once one waits for a schema, the rest wait behind it.
      pending++;
      queue = queue
        .then(async () => {
          const repaired = needsRepair ? await repairRequest(message as CallRequest) : message;
          if (repaired !== undefined) deliver(repaired, extra);
        })
        .catch(() => deliver(message, extra))
        .finally(() => pending--);
    },
  });
}

/** The server's own tool list, from its registered `tools/list` handler (every page, within `Paging`'s bounds). */
async function ownTools(server: McpLowLevelServer): Promise<Map<string, unknown>> {
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
