/**
 * What a request to the endpoint must pass once the Host and Origin guards let it in: the
 * caller's rate limit (`429` with `Retry-After`), and, for a message, the tool policy and the
 * tool's rate limit (a call is answered with an `isError` result and never forwarded; a
 * `tools/list` answer loses the tools the caller may not use). Nothing is checked, and nothing
 * costs, while no rule is given.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageId } from '../proxy/message.js';
import { MODERN_VERSIONS } from '../proxy/modern.js';
import { TRANSPORT_ERROR } from './backend.js';
import { scopesOf, ToolPolicy, type ToolPolicyRules } from './policy.js';
import { callerKeyOf, RateLimits, type RateLimitRules } from './rate-limit.js';
import { rpcError, type Reply } from './reply.js';

/** The JSON-RPC code of an internal error: a listing the policy could not read. */
const INTERNAL_ERROR = -32603;

/** The checks of one endpoint. */
export class Admission {
  private readonly policy: ToolPolicy | undefined;
  private readonly limits: RateLimits | undefined;

  constructor(policy: ToolPolicyRules | undefined, limits: RateLimitRules | undefined) {
    const rules = new ToolPolicy(policy ?? {});
    this.policy = rules.active ? rules : undefined;
    const rates = new RateLimits(limits ?? {});
    this.limits = rates.active ? rates : undefined;
  }

  /**
   * Counts a request against its caller's limit.
   *
   * @returns False when it is past the limit and was answered `429`.
   */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    const wait = this.limits?.callerWait(callerKeyOf(request), Date.now()) ?? 0;
    if (wait === 0) return true;
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(wait / 1000)) });
    response.end(rpcError(TRANSPORT_ERROR, `Too Many Requests: the gateway's rate limit for this caller is reached; retry after ${Math.ceil(wait / 1000)} s`));
    return false;
  }

  /**
   * Checks a POSTed message. A call the policy denies or a limit refuses is answered on `reply`
   * with an `isError` result (a notification that is one: `403`); a `tools/list` request's answer
   * is filtered.
   *
   * @returns True when the message was answered here (it goes no further).
   */
  refused(request: IncomingMessage, message: unknown, requestId: MessageId | undefined, reply: Reply): boolean {
    if (this.policy === undefined && this.limits === undefined) return false;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method === 'tools/list' && requestId !== undefined) {
      this.filterAnswer(scopesOf(request), requestId, reply);
      return false;
    }
    if (method !== 'tools/call') return false;
    const name = (params as { name?: unknown } | null | undefined)?.name;
    const header = request.headers['mcp-name'];
    const why = this.callRefusal(request, typeof name === 'string' ? name : '', typeof header === 'string' ? header : undefined);
    if (why === undefined) return false;
    if (requestId === undefined) reply.fail(403, rpcError(TRANSPORT_ERROR, `Forbidden: ${why}`));
    else reply.message(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: requestId, result: errorResult(`schema-coerce gateway: ${why}`, isModern(request, params)) })), true);
    return true;
  }

  /** Why a call to `name` (and to the tool its `Mcp-Name` header names, which a server may read instead) is not let through. */
  private callRefusal(request: IncomingMessage, name: string, header: string | undefined): string | undefined {
    const scopes = this.policy === undefined ? [] : scopesOf(request);
    const denied = this.policy?.denial(name, scopes) ?? (header === undefined || header === name ? undefined : this.policy?.denial(header, scopes));
    return denied ?? this.limits?.toolRefusal(callerKeyOf(request), name, Date.now());
  }

  /** Filters the `tools/list` response `reply` will carry; one that cannot be read becomes an error. */
  private filterAnswer(scopes: readonly string[], requestId: MessageId, reply: Reply): void {
    const policy = this.policy;
    if (policy === undefined) return;
    reply.rewrite((bytes) => policy.filterListing(bytes, scopes) ?? rpcError(INTERNAL_ERROR, 'schema-coerce gateway: the tool listing could not be read, so its tool policy could not be applied', requestId));
  }
}

/** An `isError` result; one of the 2026-07-28 revision says it is complete, as that revision asks of every result. */
function errorResult(text: string, modern: boolean): Record<string, unknown> {
  return { content: [{ type: 'text', text }], isError: true, ...(modern ? { resultType: 'complete' } : {}) };
}

/** Whether a request is of the 2026-07-28 revision: its header or its envelope names it. */
function isModern(request: IncomingMessage, params: unknown): boolean {
  const header = request.headers['mcp-protocol-version'];
  const envelope = (params as { _meta?: Record<string, unknown> } | null | undefined)?._meta?.['io.modelcontextprotocol/protocolVersion'];
  return MODERN_VERSIONS.includes(typeof header === 'string' ? header : '') || (typeof envelope === 'string' && MODERN_VERSIONS.includes(envelope));
}
