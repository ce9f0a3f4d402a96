/**
 * The parts of an MCP SDK the wrappers use, as structural types, so that neither SDK line is
 * imported, at run time or in the declarations: SDK v1 (`@modelcontextprotocol/sdk`) and SDK v2
 * (`@modelcontextprotocol/client`, `@modelcontextprotocol/server`) both fit them, and a user with
 * either one installed alone can import `schema-coerce/mcp`.
 */

/** A JSON-RPC message as the wrappers read it: every field may be missing or of another type. */
export interface WireMessage {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { readonly name?: unknown; readonly cursor?: unknown; readonly arguments?: unknown; readonly _meta?: unknown } | null;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** A transport of either SDK line (`StdioClientTransport`, `InMemoryTransport`, `StreamableHTTPClientTransport`, …). */
export interface McpTransport {
  send(message: never, options?: never): Promise<void>;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
}

/** An SDK `Client` of either line. */
export interface McpClient {
  connect(transport: McpTransport, ...rest: never[]): Promise<void>;
  listTools(params?: { cursor?: string }, ...rest: never[]): Promise<{ readonly tools: readonly unknown[]; readonly nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> | undefined }, ...rest: never[]): Promise<unknown>;
  /** The transport once connected (both lines have this getter). */
  readonly transport?: McpTransport | undefined;
}

/** A low-level SDK `Server` of either line. */
export interface McpLowLevelServer {
  connect(transport: McpTransport, ...rest: never[]): Promise<void>;
}

/** An SDK `McpServer` of either line: the high-level server, holding its low-level one. */
export interface McpHighLevelServer {
  readonly server: McpLowLevelServer;
}

/** A tool result as the wrappers write one. */
export interface ErrorToolResult {
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly isError: true;
  /** `complete` in answer to a request of the 2026-07-28 revision, which asks it of every result. */
  readonly resultType?: 'complete';
}
