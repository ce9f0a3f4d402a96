/**
 * The gateway's tool policy: allow and deny lists of tool names (globs), and tools that need a
 * scope of the caller's token. A denied tool is left out of every `tools/list` answer and a call
 * to it is answered with an `isError` result naming the rule, never forwarded. Off (every tool
 * allowed) until a rule is given.
 */
import type { IncomingMessage } from 'node:http';
import { parseArgs, stringifyArgs } from '../../index.js';

/** The policy's rules, as the flags give them. */
export interface ToolPolicyRules {
  /** Globs of the tools allowed (`--allow-tool`); every tool when empty. */
  readonly allow?: readonly string[];
  /** Globs of the tools denied (`--deny-tool`), over any allow. */
  readonly deny?: readonly string[];
  /** `glob=scope` (`--tool-scope`): a tool the glob matches needs that scope of the caller. */
  readonly scoped?: readonly string[];
}

/** Tool names longer than this are denied under any rule: MCP names are 1 to 128 characters. */
const MAX_NAME = 1_024;

/**
 * Whether `name` matches `glob` as a whole: `*` is any run of characters (none too), `?` one
 * character, everything else itself, case counting. Linear in the name for each star: the last
 * star is the only point it backs up to (a later star makes an earlier one's choice final).
 */
export function globMatches(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const c = glob[g];
    if (c === '*') {
      star = g++;
      resume = n;
    } else if (c !== undefined && (c === '?' || c === name[n])) {
      g++;
      n++;
    } else if (star !== -1) {
      g = star + 1;
      n = ++resume;
    } else return false;
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

/** A `glob=scope` rule read, or why it cannot be. */
export function readScopeRule(rule: string): { glob: string; scope: string } | string {
  const at = rule.lastIndexOf('=');
  if (at <= 0 || at === rule.length - 1) return `${JSON.stringify(rule)} must be <tool glob>=<scope>, e.g. 'admin_*=tools:admin'`;
  return { glob: rule.slice(0, at), scope: rule.slice(at + 1) };
}

/** The tool policy of one route (the gateway's endpoint). */
export class ToolPolicy {
  private readonly allow: readonly string[];
  private readonly deny: readonly string[];
  private readonly scoped: readonly { readonly glob: string; readonly scope: string; readonly rule: string }[];

  /** @throws {TypeError} When a `scoped` rule is not `glob=scope` (the command line checks them first). */
  constructor(rules: ToolPolicyRules) {
    this.allow = rules.allow ?? [];
    this.deny = rules.deny ?? [];
    this.scoped = (rules.scoped ?? []).map((rule) => {
      const read = readScopeRule(rule);
      if (typeof read === 'string') throw new TypeError(`--tool-scope ${read}`);
      return { ...read, rule };
    });
  }

  /** Whether any rule is given (without one, nothing is checked). */
  get active(): boolean {
    return this.allow.length + this.deny.length + this.scoped.length > 0;
  }

  /**
   * Why a caller holding `scopes` may not list or call the tool `name`, naming the rule; `undefined`
   * when it may.
   */
  denial(name: string, scopes: readonly string[]): string | undefined {
    if (name.length > MAX_NAME) return `a tool name of ${name.length} characters is longer than the gateway's tool policy reads (${MAX_NAME})`;
    const denied = this.deny.find((glob) => globMatches(glob, name));
    if (denied !== undefined) return `the tool ${JSON.stringify(name)} is denied by the gateway's tool policy (--deny-tool ${JSON.stringify(denied)})`;
    if (this.allow.length > 0 && !this.allow.some((glob) => globMatches(glob, name))) {
      return `the tool ${JSON.stringify(name)} is not allowed by the gateway's tool policy (no --allow-tool matches it)`;
    }
    const needs = this.scoped.find(({ glob, scope }) => globMatches(glob, name) && !scopes.includes(scope));
    if (needs !== undefined) return `the tool ${JSON.stringify(name)} needs the scope ${JSON.stringify(needs.scope)} by the gateway's tool policy (--tool-scope ${JSON.stringify(needs.rule)})`;
    return undefined;
  }

  /**
   * A `tools/list` response without the tools a caller holding `scopes` may not use: the same
   * bytes when it lists none, or when it is no listing (an error); `undefined` when it cannot be
   * read, so it cannot be filtered (the caller answers an error instead: fail closed).
   */
  filterListing(message: Buffer, scopes: readonly string[]): Buffer | undefined {
    let parsed: unknown;
    try {
      parsed = parseArgs(message.toString('utf8'));
    } catch {
      return undefined;
    }
    const result = (parsed as { result?: unknown }).result;
    if (typeof result !== 'object' || result === null) return message;
    const tools = (result as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return (parsed as { error?: unknown }).error === undefined ? undefined : message;
    const kept = tools.filter((tool: unknown) => {
      const name = (tool as { name?: unknown } | null)?.name;
      return typeof name === 'string' && this.denial(name, scopes) === undefined;
    });
    if (kept.length === tools.length) return message;
    return Buffer.from(stringifyArgs({ ...(parsed as object), result: { ...result, tools: kept } }));
  }
}

/**
 * The scopes the caller's token grants: `request.auth.scopes`, where the gateway's authentication
 * puts what it verified (the MCP SDK's `AuthInfo` shape); none without it.
 */
export function scopesOf(request: IncomingMessage): readonly string[] {
  const scopes = (request as { auth?: { scopes?: unknown } }).auth?.scopes;
  return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
}
