/**
 * The one `tools/list` tracker of the adapters: the input and output schemas a peer advertised, by tool name,
 * learnt from `tools/list` responses (every page) and forgotten on
 * `notifications/tools/list_changed`. The MCP client and server wrappers and the proxy all use it.
 */

/** How many pages one listing of a peer's tools reads at most. */
const MAX_PAGES = 100;
/** How long one listing of a peer's tools may take, in all its pages. */
export const LISTING_MS = 10_000;

/**
 * The bounds of one listing that follows `nextCursor` itself: at most `MAX_PAGES` pages and
 * `LISTING_MS` in all, and never a cursor twice (a peer that keeps returning one would be asked
 * forever). Past a bound the listing stops, and goes on with the tools it has.
 */
export class Paging {
  private readonly seen = new Set<string>();
  private readonly deadline: number;

  constructor(now: number = Date.now()) {
    this.deadline = now + LISTING_MS;
  }

  /** Whether the next page, at `cursor` (a page's `nextCursor`), is to be asked for. */
  follows(cursor: unknown, now: number = Date.now()): cursor is string {
    if (typeof cursor !== 'string' || this.seen.has(cursor) || this.seen.size + 1 >= MAX_PAGES || now >= this.deadline) return false;
    this.seen.add(cursor);
    return true;
  }
}

/**
 * Tool schemas shared by many sessions (the gateway's): a schema listed with the same text as
 * one before is replaced by that one's object, so the core's plan, compiled once per schema
 * object, is compiled once for every session that lists it. Bounded: past `max` distinct schemas
 * the least recently listed is forgotten (its sessions keep their object; a new listing of it
 * makes a new one). Schemas are never mutated, so one object may serve any number of sessions.
 */
export class SharedSchemas {
  private readonly byText = new Map<string, unknown>();
  private readonly max: number;

  /** @param max - Distinct schemas kept at most. */
  constructor(max: number) {
    this.max = max;
  }

  /** The object to use for `schema`: the one listed before with the same text, else `schema` itself. */
  intern(schema: unknown): unknown {
    if (typeof schema !== 'object' || schema === null) return schema;
    const text = JSON.stringify(schema);
    const known = this.byText.get(text);
    this.byText.delete(text);
    this.byText.set(text, known ?? schema);
    if (known !== undefined) return known;
    for (const oldest of this.byText.keys()) {
      if (this.byText.size <= this.max) break;
      this.byText.delete(oldest);
    }
    return schema;
  }

  /** How many distinct schemas are kept. */
  get size(): number {
    return this.byText.size;
  }
}

/** A JSON-RPC id, as the tracker keys requests. */
type RequestId = unknown;

/** Input and output schemas by tool name, which several trackers may share. */
export interface SchemaMaps {
  readonly inputs: Map<string, unknown>;
  readonly outputs: Map<string, unknown>;
}

/** Tool schemas by name, and the `tools/list` requests whose responses will tell more. */
export class ToolSchemas {
  private readonly byName: Map<string, unknown>;
  private readonly outputs: Map<string, unknown>;
  /** `tools/list` requests awaiting their response: id → whether it asked for the first page. */
  private readonly requests = new Map<RequestId, boolean>();
  private readonly shared: SharedSchemas | undefined;

  /**
   * @param shared - Where identical schemas of other sessions are found (the gateway's).
   * @param maps - The schemas, when trackers share them (the gateway's sessionless requests of one caller); else its own.
   */
  constructor(shared?: SharedSchemas, maps?: SchemaMaps) {
    this.shared = shared;
    this.byName = maps?.inputs ?? new Map();
    this.outputs = maps?.outputs ?? new Map();
  }

  /** The schema of a tool, or `undefined` when it has not been advertised. */
  get(name: string): unknown {
    return this.byName.get(name);
  }

  /** The output schema of a tool, or `undefined` when it has none or has not been advertised. */
  output(name: string): unknown {
    return this.outputs.get(name);
  }

  /** Records a page of a `tools/list` result; the first page (`fromStart`) replaces what was known. */
  store(tools: readonly unknown[], fromStart: boolean): void {
    if (fromStart) this.clear();
    for (const tool of tools) {
      const { name, inputSchema, outputSchema } = (tool ?? {}) as { name?: unknown; inputSchema?: unknown; outputSchema?: unknown };
      if (typeof name !== 'string') continue;
      this.byName.set(name, this.interned(inputSchema));
      if (outputSchema === undefined) this.outputs.delete(name);
      else this.outputs.set(name, this.interned(outputSchema));
    }
  }

  /** Forgets every schema, as on `notifications/tools/list_changed`. */
  clear(): void {
    this.byName.clear();
    this.outputs.clear();
  }

  private interned(schema: unknown): unknown {
    return this.shared === undefined ? schema : this.shared.intern(schema);
  }

  /** A `tools/list` request with this id went to the peer (with a `cursor`, when `fromStart` is false). */
  listRequested(id: RequestId, fromStart: boolean): void {
    this.requests.set(id, fromStart);
  }

  /** Whether any `tools/list` request awaits its response. */
  get awaiting(): boolean {
    return this.requests.size > 0;
  }

  /** Whether the response with this id answers a `tools/list` request. */
  answers(id: RequestId): boolean {
    return this.requests.has(id);
  }

  /** The response to request `id` arrived: when it answers a `tools/list`, its tools are stored. */
  responded(id: RequestId, result: unknown): void {
    const fromStart = this.requests.get(id);
    if (fromStart === undefined) return;
    this.requests.delete(id);
    const tools = (result as { tools?: unknown } | null | undefined)?.tools;
    if (Array.isArray(tools)) this.store(tools, fromStart);
  }
}
