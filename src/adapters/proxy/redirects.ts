/**
 * Redirects of a Streamable HTTP endpoint, followed by hand rather than by `fetch`: a request
 * body given as bytes cannot be sent a second time by Node's `fetch` (a `307` from a Starlette
 * router, `/mcp` → `/mcp/`, failed every request). A `307` or `308` to the same origin is
 * followed with the same method, body and headers (the session id and `Authorization` among
 * them); a redirect to another origin is refused, so no header, session id or tool argument is
 * ever sent to a server it was not meant for; any other `3xx` is answered as it is.
 */

/** How many redirects one request follows before it is refused. */
const MAX_REDIRECTS = 5;

/** A redirect that was not followed; the message names where it led (its origin only). */
export class RedirectRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedirectRefused';
  }
}

/** A request to send: `fetch`'s options less the redirect policy, the body as bytes. */
export interface Outgoing {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  readonly signal?: AbortSignal;
}

/** What following needs of an answer: its status, its `Location`, and a way to drop its body. */
export interface Hop {
  readonly status: number;
  readonly location: string | null;
  discard(): unknown;
}

/**
 * Sends a request to `url` with `send`, following same-origin `307` and `308` redirects (`send`
 * is called again with the next URL, and sends the same method, body and headers).
 *
 * @returns The first answer that is not such a redirect.
 * @throws RedirectRefused for a redirect to another origin, one without a usable `Location`, or
 *   more than five in a row; what `send` throws when the server cannot be reached.
 */
export async function follow<T>(url: URL, send: (target: URL) => Promise<T>, hop: (answer: T) => Hop): Promise<T> {
  let target = url;
  for (let hops = 0; ; hops++) {
    const answer = await send(target);
    const { status, location, discard } = hop(answer);
    if (status !== 307 && status !== 308) return answer;
    await discard();
    const next = resolve(location, target);
    if (next === undefined) throw new RedirectRefused(`answered HTTP ${status} without a usable Location`);
    if (next.origin !== url.origin) throw new RedirectRefused(`redirected to another origin (${next.origin}): not followed`);
    if (hops === MAX_REDIRECTS) throw new RedirectRefused(`redirected more than ${MAX_REDIRECTS} times`);
    target = next;
  }
}

/** `follow` with `fetch`. */
export function fetchFollowing(url: URL, request: Outgoing): Promise<Response> {
  return follow(
    url,
    (target) => fetch(target, { ...request, redirect: 'manual' }),
    (response) => ({ status: response.status, location: response.headers.get('location'), discard: () => response.body?.cancel() }),
  );
}

/** The URL a `Location` names, relative to `base`; `undefined` when there is none or it is not a URL. */
function resolve(location: string | null, base: URL): URL | undefined {
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** Why a request got no answer: a refused redirect, or what kept `fetch` from the server (its code, e.g. `ECONNREFUSED`). */
export function whyUnreachable(error: unknown): string {
  if (error instanceof RedirectRefused) return error.message;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: unknown }).code;
  return `cannot be reached: ${cause?.code ?? cause?.message ?? (typeof code === 'string' ? code : error instanceof Error ? error.message : String(error))}`;
}
