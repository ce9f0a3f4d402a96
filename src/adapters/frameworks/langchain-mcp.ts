/**
 * `loadCoercedMcpTools`: `@langchain/mcp-adapters`' `loadMcpTools` (an optional peer dependency,
 * loaded on first use), with every tool repaired against the server's original `inputSchema`
 * rather than the adapter's simplified copy (which drops `anyOf`, so `[integer, null]` becomes `{}`).
 */
import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { LoadMcpToolsOptions } from '@langchain/mcp-adapters';
import type { loadMcpTools } from '@langchain/mcp-adapters';
import { coerceToolAgainst, type LangChainCoercionOptions } from './langchain.js';

/** The client `loadMcpTools` takes: an MCP SDK `Client`. */
type McpClient = Parameters<typeof loadMcpTools>[1];

/** Options of `loadCoercedMcpTools`: `loadMcpTools`' own, and the coercion options. */
export type LoadCoercedMcpToolsOptions = LoadMcpToolsOptions & LangChainCoercionOptions;

/**
 * Loads a server's tools as `loadMcpTools(serverName, client, options)` does (same signature,
 * same tools, names and schemas shown to the model), each repairing its arguments against the
 * server's original `inputSchema`: the listing (every page) is copied as it arrives, before
 * `loadMcpTools` edits `inputSchema.properties` in place, and each tool's name is mapped back
 * through the prefixes `loadMcpTools` adds. `validate` defaults to `true`.
 *
 * @param serverName - The server's name, as for `loadMcpTools`.
 * @param client - A connected MCP SDK `Client`.
 * @param options - `loadMcpTools`' options, and the coercion options.
 * @returns The tools.
 * @example
 * const tools = await loadCoercedMcpTools('editor', client);
 */
export async function loadCoercedMcpTools(serverName: string, client: McpClient, options: LoadCoercedMcpToolsOptions = {}): Promise<DynamicStructuredTool[]> {
  const originals = new Map<string, unknown>();
  const listing = new Proxy(client, {
    get(target, key) {
      if (key === 'listTools') {
        return async (...args: Parameters<McpClient['listTools']>) => {
          const page = await target.listTools(...args);
          for (const tool of page.tools) originals.set(tool.name, structuredClone(tool.inputSchema));
          return page;
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const { loadMcpTools: load } = await import('@langchain/mcp-adapters');
  const tools = await load(serverName, listing, options);
  const prefix = `${options.additionalToolNamePrefix ? `${options.additionalToolNamePrefix}__` : ''}${options.prefixToolNameWithServerName === true ? `${serverName}__` : ''}`;
  return tools.map((tool) => coerceToolAgainst(tool, tool.name.startsWith(prefix) ? originals.get(tool.name.slice(prefix.length)) : undefined, options));
}
