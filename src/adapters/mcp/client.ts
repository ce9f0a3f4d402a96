/** `withArgCoercion`: repairs `callTool` arguments in an MCP SDK `Client`. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgsError, type PreparedCall } from '../../index.js';
import { Paging, ToolSchemas } from '../shared/tool-schemas.js';
import { errorResult, prepare, type McpCoercionOptions } from './options.js';
import { toWire } from './wire.js';

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

/** Thrown by a wrapped `callTool` with `onInvalid: 'throw'`: an `InvalidArgsError` by its MCP name. */
export class InvalidToolArgumentsError extends InvalidArgsError {
  constructor(call: PreparedCall) {
    super(call);
    this.name = 'InvalidToolArgumentsError';
  }
}

/**
 * Wraps an SDK `Client` so `callTool` repairs the arguments against the tool's `inputSchema`
 * before sending them. Schemas come from a cache filled by every `listTools` (and its pages) and
 * cleared on `notifications/tools/list_changed`; a tool missing from the cache triggers one full
 * refresh (at most 100 pages and 10 s, no cursor twice), and if its schema still cannot be found the call goes out unchanged: never worse than
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

  // Bounded (see `Paging`): a server repeating a cursor cannot hold the call back for ever.
  const refresh = async (): Promise<void> => {
    const paging = new Paging();
    let cursor: string | undefined;
    for (;;) {
      const page = await listTools(cursor === undefined ? undefined : { cursor });
      schemas.store(page.tools, cursor === undefined);
      if (!paging.follows(page.nextCursor)) return;
      cursor = page.nextCursor;
    }
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

