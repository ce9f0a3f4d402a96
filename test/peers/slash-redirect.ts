/**
 * A front that redirects like Starlette's router: a request to `/mcp` is answered `307` with an
 * absolute `Location` ending in `/mcp/` (on `to`'s origin, this front's own by default), and a
 * request to `/mcp/` is passed to the server at `upstream` as it came (method, headers, body),
 * its answer streamed back. It records every request's method, path and headers.
 */
import { createServer, request as send, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running front and the requests it saw. */
export interface SlashRedirect {
  /** The URL to give a client: `http://127.0.0.1:port/mcp`. */
  readonly url: string;
  readonly origin: string;
  readonly seen: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/**
 * Starts the front on 127.0.0.1 and a free port.
 *
 * @param upstream - The server `/mcp/` is passed to (its URL, path included).
 * @param to - The origin the redirect points at (`http://localhost:port` for a foreign one).
 */
export async function startSlashRedirect(upstream: string | undefined, to?: () => string): Promise<SlashRedirect> {
  const seen: SlashRedirect['seen'] = [];
  const target = upstream === undefined ? undefined : new URL(upstream);
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: request.method!, path: request.url!, headers: request.headers, body: body.toString('utf8') });
      if (request.url === '/mcp') {
        response.writeHead(307, { location: `${to?.() ?? origin}/mcp/` }).end();
        return;
      }
      if (target === undefined || request.url !== '/mcp/') {
        response.writeHead(404).end();
        return;
      }
      const forwarded = send(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      forwarded.on('error', () => response.headersSent || response.writeHead(502).end());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    seen,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
