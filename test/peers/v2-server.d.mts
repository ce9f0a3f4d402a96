import type { McpServer } from '@modelcontextprotocol/server';

/** The v2 peer's tools on a fresh instance (`v2-server.mjs`). */
export function v2Server(changed?: () => void, added?: Set<string>): McpServer;
