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
    return follow(this.url, (target) => this.once(target, method, sized, body, signal), (answer) => ({ status: answer.statusCode ?? 0, location: answer.headers.location ?? null, discard: () => answer.resume() }));
  }

  /**
   * One request to `target`. A kept-alive socket the upstream closed just as it was reused fails
   * with ECONNRESET before any answer: the request never reached the server, and is sent once
   * more (what Node's documentation advises), on a socket of its own (other kept sockets may have
   * been closed with it).
   */
  private once(target: URL, method: string, headers: OutgoingHttpHeaders, body: Buffer | undefined, signal: AbortSignal, retried = false): Promise<IncomingMessage> {
    return new Promise<IncomingMessage>((resolve, reject) => {
      let answered = false;
      const sent = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method, headers, agent: retried ? false : this.agent }, (answer) => {
        answered = true;
        // An abort while the body is read errors the answer too: its reader sees it, and it is no crash.
        answer.on('error', () => undefined);
        resolve(answer);
      });
      // Not `signal` of `request`: with a keep-alive agent it reaches the socket, which a later
      // abort would destroy while another request uses it.
      const abort = (): void => void sent.destroy();
      signal.addEventListener('abort', abort, { once: true });
      sent.once('close', () => signal.removeEventListener('abort', abort));
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered && !retried && sent.reusedSocket && error.code === 'ECONNRESET' && !signal.aborted) resolve(this.once(target, method, headers, body, signal, true));
        else reject(error);
      });
      sent.end(body);
    });
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
