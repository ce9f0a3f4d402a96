/**
 * CORS for browser clients whose `Origin` the allow-list lets in (`--allowed-origin`; loopback
 * origins by default, see `guard.ts`): every answer to such a request names the origin and
 * exposes the headers a client reads (`Mcp-Session-Id`, `MCP-Protocol-Version`,
 * `WWW-Authenticate`, `Retry-After`), and a preflight (`OPTIONS`) is answered with the methods
 * and the request headers the endpoint takes. An origin not on the list gets no CORS header (the
 * guard answers it 403 before this is reached).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The methods the endpoint serves. */
export const ALLOWED_METHODS = 'GET, POST, DELETE';
/** The request headers a browser may send (and `Mcp-Param-*`, a tool's own). */
const ALLOWED_HEADERS: readonly string[] = ['content-type', 'accept', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name'];
const PARAM_PREFIX = 'mcp-param-';
/** The answer headers a browser's script may read. */
const EXPOSED = 'mcp-session-id, mcp-protocol-version, www-authenticate, retry-after';
/** How long a browser may keep a preflight's answer, in seconds. */
const MAX_AGE = '600';

/** Sets the CORS headers of an answer to a request from an allowed `origin` (none when the request came from no browser). */
export function corsHeaders(origin: string | undefined, response: ServerResponse): void {
  if (origin === undefined) return;
  response.setHeader('access-control-allow-origin', origin);
  response.setHeader('access-control-expose-headers', EXPOSED);
  response.setHeader('vary', 'origin');
}

/**
 * Answers a preflight `204`: the endpoint's methods, and of the headers the browser asks to send
 * (`Access-Control-Request-Headers`) those the endpoint takes; a header it does not take is left
 * out, so the browser does not send the request.
 */
export function preflight(request: IncomingMessage, response: ServerResponse): void {
  const asked = (request.headers['access-control-request-headers'] ?? '').split(',').map((name) => name.trim().toLowerCase());
  const allowed = asked.filter((name) => ALLOWED_HEADERS.includes(name) || (name.startsWith(PARAM_PREFIX) && /^[a-z0-9-]+$/.test(name)));
  response.writeHead(204, { 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-allow-headers': [...new Set([...ALLOWED_HEADERS, ...allowed])].join(', '), 'access-control-max-age': MAX_AGE }).end();
}
