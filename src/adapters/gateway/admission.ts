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
import { errorResult, isModernMeta } from '../shared/tool-error.js';
import { TRANSPORT_ERROR } from './backend.js';
import { parsedCall, recordOf, type CallMessage } from './call-events.js';
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
   * Checks a POSTed message (`body`, whose `method` the endpoint has read). A call the policy
   * denies or a limit refuses is answered on `reply` with an `isError` result (a notification
   * that is one: `403`), and its call event says so (`denied`, `rate-limited`); a `tools/list`
   * request's answer is filtered.
   *
   * @returns True when the message was answered here (it goes no further).
   */
  refused(request: IncomingMessage, body: Buffer, method: string | undefined, requestId: MessageId | undefined, reply: Reply): boolean {
    if (this.policy === undefined && this.limits === undefined) return false;
    if (method === 'tools/list' && requestId !== undefined) {
      this.filterAnswer(scopesOf(request), requestId, reply);
      return false;
    }
    if (method !== 'tools/call') return false;
    const params = parsedCall(body).params;
    const name = params?.name;
    const header = request.headers['mcp-name'];
    const refusal = this.callRefusal(request, typeof name === 'string' ? name : '', typeof header === 'string' ? header : undefined);
    if (refusal === undefined) return false;
    const [outcome, why] = refusal;
    recordOf(reply)?.deny(outcome, why);
    if (requestId === undefined) reply.fail(403, rpcError(TRANSPORT_ERROR, `Forbidden: ${why}`));
    else reply.message(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: requestId, result: errorResult(`schema-coerce gateway: ${why}`, isModern(request, params)) })), true);
    return true;
  }

  /** Why a call to `name` (and to the tool its `Mcp-Name` header names, which a server may read instead) is not let through, and which control says so. */
  private callRefusal(request: IncomingMessage, name: string, header: string | undefined): ['denied' | 'rate-limited', string] | undefined {
    const scopes = this.policy === undefined ? [] : scopesOf(request);
    const denied = this.policy?.denial(name, scopes) ?? (header === undefined || header === name ? undefined : this.policy?.denial(header, scopes));
    if (denied !== undefined) return ['denied', denied];
    const limited = this.limits?.toolRefusal(callerKeyOf(request), name, Date.now());
    return limited === undefined ? undefined : ['rate-limited', limited];
  }

  /** Filters the `tools/list` response `reply` will carry; one that cannot be read becomes an error. */
  private filterAnswer(scopes: readonly string[], requestId: MessageId, reply: Reply): void {
    const policy = this.policy;
    if (policy === undefined) return;
    reply.rewrite((bytes) => policy.filterListing(bytes, scopes) ?? rpcError(INTERNAL_ERROR, 'schema-coerce gateway: the tool listing could not be read, so its tool policy could not be applied', requestId));
  }
}

/** Whether a request is of the 2026-07-28 revision: its header or its envelope names it. */
function isModern(request: IncomingMessage, params: CallMessage['params']): boolean {
  const header = request.headers['mcp-protocol-version'];
  return MODERN_VERSIONS.includes(typeof header === 'string' ? header : '') || isModernMeta(params?._meta);
}
