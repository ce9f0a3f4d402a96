/** The input schemas a peer advertised in `tools/list`, by tool name. */
export class ToolSchemas {
  private readonly byName = new Map<string, unknown>();

  /** The schema of a tool, or `undefined` when it has not been advertised. */
  get(name: string): unknown {
    return this.byName.get(name);
  }

  /** Records a page of a `tools/list` result; the first page (`fromStart`) replaces what was known. */
  store(tools: readonly unknown[], fromStart: boolean): void {
    if (fromStart) this.byName.clear();
    for (const tool of tools) {
      const { name, inputSchema } = (tool ?? {}) as { name?: unknown; inputSchema?: unknown };
      if (typeof name === 'string') this.byName.set(name, inputSchema);
    }
  }

  /** Forgets everything, as on `notifications/tools/list_changed`. */
  clear(): void {
    this.byName.clear();
  }
}
