/** `withArgCoercion`: repairs `callTool` arguments (and, asked to, results) in an MCP SDK `Client`, v1 or v2. */
import { InvalidArgsError, type PreparedCall } from '../../index.js';
import { errorResult } from '../shared/tool-error.js';
import { Paging, ToolSchemas } from '../shared/tool-schemas.js';
import { prepare, type CoercionReport, type McpCoercionOptions } from './options.js';
import { ResultRepairs } from './results.js';
import type { McpClient, McpTransport } from './sdk-types.js';
import { tapTransport } from './tap.js';
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
  /**
   * Repair each tool result against the tool's `outputSchema` as it arrives, before the SDK
   * validates it (`repairToolResult`): integer literals in `structuredContent` restored as in
   * arguments, and the `structuredContent` of an `isError` result that does not match the schema
   * dropped, its error text kept. Error results are judged by `validate` when it is a function,
   * else by the built-in validation (`ajv` must then be installed). Each repair is reported to
   * `onCoerce` with `result`. Off by default.
   */
  readonly results?: boolean;
}

/** Thrown by a wrapped `callTool` with `onInvalid: 'throw'`: an `InvalidArgsError` by its MCP name. */
export class InvalidToolArgumentsError extends InvalidArgsError {
  constructor(call: PreparedCall) {
    super(call);
    this.name = 'InvalidToolArgumentsError';
  }
}

/**
 * Wraps an SDK `Client` (v1's `@modelcontextprotocol/sdk` or v2's `@modelcontextprotocol/client`,
 * in either protocol era) so `callTool` repairs the arguments against the tool's `inputSchema`
 * before sending them. Schemas come from a cache filled by every `listTools` (and its pages) and
 * cleared on `notifications/tools/list_changed`; a tool missing from the cache triggers one full
 * refresh (at most 100 pages and 10 s, no cursor twice), and if its schema still cannot be found
 * the call goes out unchanged: never worse than without the library. Arguments given as lossless
 * values (from `parseArgs`) keep their integer literals on the wire (`JSON.rawJSON` where the
 * runtime has it). With `results`, each result is repaired against the tool's `outputSchema` too.
 *
 * @param client - The client, before or after `connect`.
 * @param options - Coercion, validation and reporting options.
 * @returns The same client, wrapped.
 * @example
 * const client = withArgCoercion(new Client({ name: 'app', version: '1.0.0' }), { lenient: true });
 */
export function withArgCoercion<C extends McpClient>(client: C, options: ClientCoercionOptions = {}): C {
  const schemas = new ToolSchemas();
  const listTools = client.listTools.bind(client);
  const callTool = client.callTool.bind(client);
  const connect = client.connect.bind(client);
  const report = (tool: string, result: NonNullable<CoercionReport['result']>): void =>
    options.onCoerce?.({ tool, schemaFound: true, dispatched: true, result });
  const results = options.results === true ? new ResultRepairs(schemas, { validate: options.validate, integerRange: options.integerRange, report }) : undefined;

  // The transport tells what the SDK's own handlers would: a changed tool list, and the results.
  const watch = (transport: McpTransport): void => {
    tapTransport(transport, {
      sent: (message) => results?.sent(message),
      received: (message, extra, deliver) => {
        if (message.method === 'notifications/tools/list_changed') schemas.clear();
        deliver(results === undefined ? message : results.received(message), extra);
      },
    });
  };
  if (client.transport !== undefined) watch(client.transport);
  client.connect = (async (transport: McpTransport, ...rest: never[]) => {
    watch(transport);
    return connect(transport, ...rest);
  }) as C['connect'];

  client.listTools = (async (params?: { cursor?: string }, ...rest: never[]) => {
    const result = await listTools(params, ...rest);
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

  client.callTool = (async (params: Parameters<McpClient['callTool']>[0], ...rest: never[]) => {
    let schema = schemas.get(params.name);
    if (schema === undefined) {
      try {
        await refresh();
      } catch {
        // The server cannot list its tools now: the call goes out as it is.
      }
      schema = schemas.get(params.name);
    }
    await results?.ready();
    if (schema === undefined) {
      options.onCoerce?.({ tool: params.name, schemaFound: false, dispatched: true });
      return callTool(params, ...rest);
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
    return callTool({ ...params, arguments: wire }, ...rest);
  }) as C['callTool'];

  return client;
}
