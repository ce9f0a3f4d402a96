/**
 * `schema-coerce/mcp`: one line to repair tool-call arguments in an MCP client or server built on
 * `@modelcontextprotocol/sdk` (an optional peer dependency).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type JSONRPCMessage, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { mapLosslessNumbers, toPlainNumbers } from '../json/lossless.js';
import { toIntegerLiteral, fitsFloat64 } from '../json/numbers.js';
import { loadValidateArgs } from './load-validator.js';
import { prepareToolCall, type ArgsValidator, type PreparedCall } from '../report/pipeline.js';
import type { CoerceOptions } from '../repair/types.js';
import { ToolSchemas } from './tool-schemas.js';

/** What one tool call's repair did, for logging. */
export interface CoercionReport {
  readonly tool: string;
  /** The tool's schema was known, so the arguments were looked at. */
  readonly schemaFound: boolean;
  /** The call went on to the server (false when it was answered with an error instead). */
  readonly dispatched: boolean;
  readonly call?: PreparedCall;
}

/** Options shared by the client and the server wrappers. */
export interface McpCoercionOptions extends CoerceOptions {
  /**
   * Validate the repaired arguments: `true` for the built-in Ajv validation (`ajv` must then be
   * installed; it is loaded on first use), or any validator such as `validateArgs` with options.
   */
  readonly validate?: boolean | ArgsValidator;
  /** Reject keys the tool's schema does not declare. */
  readonly rejectUndeclared?: boolean;
  /** Rename an undeclared key matching exactly one declared name by normalisation. */
  readonly renameUnambiguous?: boolean;
  /** Called once per tool call with what was done. */
  readonly onCoerce?: (report: CoercionReport) => void;
}

/** Options of `withArgCoercion`. */
export interface ClientCoercionOptions extends McpCoercionOptions {
  /**
   * What to do with arguments that fail validation or name undeclared keys: answer with an
   * `isError` tool result carrying the model-facing message, without dispatching (default);
   * throw an `InvalidToolArgumentsError`; or dispatch anyway.
   */
  readonly onInvalid?: 'error-result' | 'throw' | 'dispatch';
  /**
   * Where the runtime has no `JSON.rawJSON` (Node < 22), integers beyond 2^53 cannot reach the
   * wire exactly; the call then fails with a `NumberPrecisionError`, unless this is `true`.
   */
  readonly lossyNumbers?: boolean;
}

/** Thrown by a wrapped `callTool` with `onInvalid: 'throw'`. */
export class InvalidToolArgumentsError extends Error {
  /** The prepared call: its errors, undeclared keys and message. */
  readonly call: PreparedCall;

  constructor(call: PreparedCall) {
    super(call.message ?? '[schema-coerce] invalid tool arguments');
    this.name = 'InvalidToolArgumentsError';
    this.call = call;
  }
}

/** Thrown when a number cannot reach the wire exactly and `lossyNumbers` is not set. */
export class NumberPrecisionError extends Error {
  /** The literal that would have been rounded. */
  readonly literal: string;

  constructor(literal: string) {
    super(`[schema-coerce] ${literal} cannot be sent exactly on a runtime without JSON.rawJSON (Node 22+); pass lossyNumbers: true to send it rounded`);
    this.name = 'NumberPrecisionError';
    this.literal = literal;
  }
}

/**
 * Wraps an SDK `Client` so `callTool` repairs the arguments against the tool's `inputSchema`
 * before sending them. Schemas come from a cache filled by every `listTools` (and its pages) and
 * cleared on `notifications/tools/list_changed`; a tool missing from the cache triggers one full
 * refresh, and if its schema still cannot be found the call goes out unchanged: never worse than
 * without the library. Arguments given as lossless values (from `parseArgs`) keep their integer
 * literals on the wire (`JSON.rawJSON` where the runtime has it).
 *
 * @param client - The client, before or after `connect`.
 * @param options - Coercion, validation and reporting options.
 * @returns The same client, wrapped.
 * @example
 * const client = withArgCoercion(new Client({ name: 'app', version: '1.0.0' }), { lenient: true });
 */
export function withArgCoercion<C extends Client>(client: C, options: ClientCoercionOptions = {}): C {
  const schemas = new ToolSchemas();
  const listTools = client.listTools.bind(client);
  const callTool = client.callTool.bind(client);
  const setNotificationHandler = client.setNotificationHandler.bind(client);
  type ListChanged = Parameters<Parameters<C['setNotificationHandler']>[1]>[0];
  let userHandler: ((notification: ListChanged) => void | Promise<void>) | undefined;

  const onListChanged = async (notification: ListChanged): Promise<void> => {
    schemas.clear();
    await userHandler?.(notification);
  };
  client.setNotificationHandler = ((schema: unknown, handler: (notification: ListChanged) => void | Promise<void>) => {
    if (schema !== ToolListChangedNotificationSchema) return setNotificationHandler(schema as never, handler as never);
    userHandler = handler;
    return setNotificationHandler(ToolListChangedNotificationSchema, onListChanged as never);
  }) as C['setNotificationHandler'];
  setNotificationHandler(ToolListChangedNotificationSchema, onListChanged as never);

  client.listTools = (async (params, requestOptions) => {
    const result = await listTools(params, requestOptions);
    schemas.store(result.tools, params?.cursor === undefined);
    return result;
  }) as C['listTools'];

  const refresh = async (): Promise<void> => {
    let cursor: string | undefined;
    do {
      const page = await listTools(cursor === undefined ? undefined : { cursor });
      schemas.store(page.tools, cursor === undefined);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  };

  client.callTool = (async (params, resultSchema, requestOptions) => {
    let schema = schemas.get(params.name);
    if (schema === undefined) {
      try {
        await refresh();
      } catch {
        // The server cannot list its tools now: the call goes out as it is.
      }
      schema = schemas.get(params.name);
    }
    if (schema === undefined) {
      options.onCoerce?.({ tool: params.name, schemaFound: false, dispatched: true });
      return callTool(params, resultSchema, requestOptions);
    }
    const call = await prepare(params.arguments ?? {}, schema, params.name, options);
    const onInvalid = options.onInvalid ?? 'error-result';
    if (!call.ok && onInvalid !== 'dispatch') {
      options.onCoerce?.({ tool: params.name, schemaFound: true, dispatched: false, call });
      if (onInvalid === 'throw') throw new InvalidToolArgumentsError(call);
      return errorResult(call.message ?? 'Invalid parameters.');
    }
    const wire = toWire(call.args, options.lossyNumbers === true) as Record<string, unknown>;
    options.onCoerce?.({ tool: params.name, schemaFound: true, dispatched: true, call });
    return callTool({ ...params, arguments: wire }, resultSchema, requestOptions);
  }) as C['callTool'];

  return client;
}

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
  const listRequests = new Map<string | number, boolean>();
  const send = transport.send.bind(transport);
  transport.send = async (message, sendOptions) => {
    const outgoing = message as { id?: string | number; method?: string; result?: { tools?: Tool[] } };
    if (outgoing.method === 'notifications/tools/list_changed') schemas.clear();
    if (outgoing.id !== undefined && listRequests.has(outgoing.id)) {
      if (outgoing.result?.tools !== undefined) schemas.store(outgoing.result.tools, listRequests.get(outgoing.id)!);
      listRequests.delete(outgoing.id);
    }
    return send(message, sendOptions);
  };

  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let deliver: Handler | undefined;
  const wrapped: Handler = (message, extra) => {
    const request = message as { id?: string | number; method?: string; params?: { name?: string; cursor?: string; arguments?: unknown } };
    if (request.method === 'tools/list' && request.id !== undefined) listRequests.set(request.id, request.params?.cursor === undefined);
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
    return { ...request, params: { ...request.params, arguments: toPlainNumbers(call.args) } } as unknown as JSONRPCMessage;
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

/** The server's own tool list, from its registered `tools/list` handler (every page). */
async function ownTools(server: Server): Promise<Map<string, unknown>> {
  const tools = new Map<string, unknown>();
  const handler = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers?.get('tools/list');
  if (handler === undefined) return tools;
  const extra = { signal: new AbortController().signal, requestId: 'schema-coerce', sendNotification: async () => {}, sendRequest: async () => ({}) };
  let cursor: string | undefined;
  try {
    do {
      const page = await handler({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, extra);
      for (const tool of page.tools ?? []) tools.set(tool.name, tool.inputSchema);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch {
    // A handler that cannot list here: the call passes unchanged.
  }
  return tools;
}

async function prepare(args: unknown, schema: unknown, toolName: string, options: McpCoercionOptions): Promise<PreparedCall> {
  const { validate, ...rest } = options;
  const validator = validate === true ? await loadValidateArgs() : validate === false ? undefined : validate;
  return prepareToolCall(args, schema, { ...rest, toolName, ...(validator === undefined ? {} : { validate: validator }) });
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

const rawJSON = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * Arguments as the SDK's `JSON.stringify` will write them: every lossless number as its exact
 * literal through `JSON.rawJSON` (Node 22+); elsewhere as a plain number when that is exact
 * enough, and an error for an integer beyond 2^53 or a number beyond float64, unless `lossy`.
 */
export function toWire(args: unknown, lossy: boolean): unknown {
  return mapLosslessNumbers(args, (literal) => {
    if (rawJSON !== undefined) return rawJSON(literal);
    const exact = fitsFloat64(literal) && toIntegerLiteral(literal, 'safe') !== 'out-of-range';
    if (!exact && !lossy) throw new NumberPrecisionError(literal);
    return Number(literal);
  });
}
