/**
 * The `isError` tool result an adapter writes itself when it answers a call the server never sees
 * (the MCP server wrapper's refusal, the proxy's `--validate` and `--reject-undeclared` answers,
 * the gateway's tool policy and rate limits), and the era it is written in: from the 2026-07-28
 * revision on, every result says it is complete (`resultType`), and an SDK v2 client refuses one
 * that does not.
 */
import type { ErrorToolResult } from '../mcp/sdk-types.js';

/** The `_meta` key of the protocol version, whose presence makes a request one of the 2026-07-28 revision. */
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** Whether a request's `params._meta` names its protocol version (the 2026-07-28 revision's envelope). */
export function isModernMeta(meta: unknown): boolean {
  return typeof meta === 'object' && meta !== null && typeof (meta as Record<string, unknown>)[PROTOCOL_VERSION_KEY] === 'string';
}

/** An `isError` tool result carrying `text`; `modern` (a request of the 2026-07-28 revision): with `resultType: "complete"`. */
export function errorResult(text: string, modern = false): ErrorToolResult {
  return { content: [{ type: 'text', text }], isError: true, ...(modern ? { resultType: 'complete' as const } : {}) };
}
