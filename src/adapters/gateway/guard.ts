/**
 * What a request must show before the gateway reads it: a `Host` it serves (against DNS
 * rebinding: a page on a foreign name that resolves to loopback sends that name), an `Origin` it
 * trusts when a browser sends one, and a body within the limit.
 */
import type { IncomingMessage } from 'node:http';

/** Host names a loopback listener answers to when no allow-list is given. */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A check of `Host` and `Origin` against allow-lists. */
export class HostGuard {
  private readonly hosts: readonly string[];
  private readonly origins: readonly string[] | undefined;

  /**
   * @param hosts - Host names, or `name:port`; loopback names when absent.
   * @param origins - Exact origins (`https://app.example`); any loopback origin when absent.
   */
  constructor(hosts: readonly string[] | undefined, origins: readonly string[] | undefined) {
    this.hosts = (hosts ?? LOOPBACK_NAMES).map((host) => host.toLowerCase());
    this.origins = origins?.map((origin) => origin.toLowerCase());
  }

  /** Whether the request's `Host` is one the gateway serves. */
  hostAllowed(request: IncomingMessage): boolean {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined) return false;
    return this.hosts.includes(host) || this.hosts.includes(nameOf(host));
  }

  /** Whether the request comes from no browser, or from an origin on the list. */
  originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    const lower = origin.toLowerCase();
    if (this.origins !== undefined) return this.origins.includes(lower);
    try {
      const url = new URL(lower);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.includes(url.hostname);
    } catch {
      return false;
    }
  }
}

/** A host without its port: `name:8080` → `name`, `[::1]:8080` → `[::1]`. */
function nameOf(host: string): string {
  const colon = host.lastIndexOf(':');
  return colon === -1 || host.endsWith(']') ? host : host.slice(0, colon);
}

/**
 * Reads a request's body up to `limit` bytes.
 *
 * @returns The bytes; `'too large'` when the body is larger (what came is dropped and reading
 *   stops: the caller answers 413 and closes the connection); `'gone'` when the client went away.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too large' | 'gone'> {
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.resolve('too large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (body: Buffer | 'too large' | 'gone'): void => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      resolve(body);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        request.pause();
        stop('too large');
      }
    };
    const onEnd = (): void => stop(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    const onError = (): void => stop('gone');
    request.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onError);
  });
}
