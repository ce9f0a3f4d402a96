/**
 * Clients and routes for the tests of both protocol eras: SDK v2 clients pinned to 2026-07-28,
 * negotiating (`auto`) or on the 2025 handshake (`legacy`), and SDK v1 clients; over stdio (a
 * server command, or the built proxy in front of one) and Streamable HTTP (a server's URL, or a
 * gateway's).
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN } from './run.js';

/** How a client chooses its era: SDK v2 pinned, negotiating, on the handshake; or SDK v1. */
export type ClientKind = 'v2-pin' | 'v2-auto' | 'v2-legacy' | 'v1';

/** The v2 stdio server of `test/peers/v2-server.ts`, as a command line. */
export const V2_STDIO: readonly string[] = [process.execPath, join(import.meta.dirname, '..', 'peers', 'v2-server.mjs')];

/** The built proxy in front of `target` (`--url <url>`, or `--` and a command), as a command line. */
export function proxyCommand(flags: readonly string[], target: readonly string[]): string[] {
  return [process.execPath, BIN, 'proxy', ...flags, ...target];
}

/** What the tests ask of a connected client, whichever SDK it is. */
export interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  close(): Promise<void>;
  /** The protocol version it negotiated. */
  readonly version: string | undefined;
}

/** Connects a client of `kind` to a stdio server (a command line) or an HTTP endpoint (a URL). */
export async function connect(kind: ClientKind, target: string | readonly string[]): Promise<AnyClient> {
  const info = { name: `modern-test-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new V1Client(info);
    await client.connect(typeof target === 'string' ? new V1StreamableHTTPClientTransport(new URL(target)) : new V1StdioClientTransport({ command: target[0]!, args: [...target.slice(1)], stderr: 'ignore' }));
    return { callTool: (params) => client.callTool(params), listTools: () => client.listTools(), close: () => client.close(), version: client.getServerVersion() === undefined ? undefined : '2025' };
  }
  const mode = kind === 'v2-pin' ? { pin: '2026-07-28' } : kind === 'v2-auto' ? 'auto' : 'legacy';
  const client = new Client(info, { versionNegotiation: { mode } });
  await client.connect(typeof target === 'string' ? new StreamableHTTPClientTransport(new URL(target)) : new StdioClientTransport({ command: target[0]!, args: [...target.slice(1)], stderr: 'ignore' }));
  return { callTool: (params) => client.callTool(params), listTools: () => client.listTools(), close: () => client.close(), version: client.getNegotiatedProtocolVersion() };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

/** Whether a tool result is an error result. */
export function isErrorResult(result: unknown): boolean {
  return (result as { isError?: boolean }).isError === true;
}
