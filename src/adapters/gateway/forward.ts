/**
 * Requests to a `--url` upstream, over `node:http` (or `node:https`) with a keep-alive agent:
 * `fetch` and its web streams cost the gateway several times what the request itself does. Same-
 * origin redirects are followed as the proxy follows them (`follow`), with the same body.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { follow } from '../proxy/redirects.js';

/** Sockets kept open to the upstream, at most. */
const SOCKETS = 256;

/** Sends requests to one upstream. */
export class Forwarder {
  private readonly url: URL;
  private readonly agent: HttpAgent;

  constructor(url: URL) {
    this.url = url;
    this.agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: SOCKETS });
  }

  /**
   * Sends one request; resolves with the answer once its head has come (its body still to be read).
   *
   * @throws What the upstream's connection throws, or `RedirectRefused`.
   */
  send(method: string, headers: OutgoingHttpHeaders, body: Buffer | undefined, signal: AbortSignal): Promise<IncomingMessage> {
    const sized = body === undefined ? headers : { ...headers, 'content-length': String(body.length) };
    return follow(
      this.url,
      (target) =>
        new Promise<IncomingMessage>((resolve, reject) => {
          const sent = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method, headers: sized, agent: this.agent }, (answer) => {
            // An abort while the body is read errors the answer too: its reader sees it, and it is no crash.
            answer.on('error', () => undefined);
            resolve(answer);
          });
          // Not `signal` of `request`: with a keep-alive agent it reaches the socket, which a later
          // abort would destroy while another request uses it.
          const abort = (): void => void sent.destroy();
          signal.addEventListener('abort', abort, { once: true });
          sent.once('close', () => signal.removeEventListener('abort', abort));
          sent.on('error', reject);
          sent.end(body);
        }),
      (answer) => ({ status: answer.statusCode ?? 0, location: answer.headers.location ?? null, discard: () => answer.resume() }),
    );
  }

  /** Closes the kept sockets. */
  close(): void {
    this.agent.destroy();
  }
}

/** The body of an answer, up to `limit` bytes (the rest is dropped). */
export async function bodyOf(answer: IncomingMessage, limit: number = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer) {
    if (size < limit) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return whole.length > limit ? whole.subarray(0, limit) : whole;
}
