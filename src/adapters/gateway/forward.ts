/**
 * Requests to a `--url` upstream, over `node:http` (or `node:https`) with a keep-alive agent:
 * `fetch` and its web streams cost the gateway several times what the request itself does. Same-
 * origin redirects are followed as the proxy follows them (`follow`), with the same body.
 *
 * A request's head is written from a flat list of names and values, the fixed part of it (the
 * upstream's `Host` and the `--header` values) made once: Node then writes the list as it is,
 * without a header object to build and check name by name for every request.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { follow } from '../proxy/redirects.js';

/** Sockets kept open to the upstream, at most. */
const SOCKETS = 256;

/**
 * How a request is given up: called once with `abort`, which it calls when the answer is no
 * longer wanted (the client went away, or a time ran out). Calling `abort` once the answer has
 * been read whole does nothing (the socket is back with the agent, no longer the request's).
 */
export type Cancel = (abort: () => void) => void;

/** Sends requests to one upstream. */
export class Forwarder {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  /** The `--header` values and `Host`, as a flat list of names and values. */
  private readonly fixed: readonly string[];
  /** The lowercased names the request's own headers may not repeat (the fixed ones, and those `send` writes). */
  private readonly taken: ReadonlySet<string>;

  /**
   * @param url - The upstream endpoint.
   * @param headers - Sent with every request (`--header`), over the client's own of the same name.
   */
  constructor(url: URL, headers: Readonly<Record<string, string>>) {
    this.url = url;
    this.agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: SOCKETS });
    const fixed: string[] = [];
    const taken = new Set(['accept', 'content-type', 'content-length']);
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (taken.has(lower)) continue;
      taken.add(lower);
      fixed.push(name, value);
    }
    // The upstream's own `Host`, unless a `--header` names another.
    if (!taken.has('host')) fixed.push('host', url.host);
    taken.add('host');
    this.fixed = fixed;
    this.taken = taken;
  }

  /**
   * Sends one request with the client's `headers` (those of a name the `--header` values or the
   * request itself set are dropped), `accept` when given, and `body` as JSON; resolves with the
   * answer once its head has come (its body still to be read).
   *
   * @throws What the upstream's connection throws, or `RedirectRefused`.
   */
  send(method: string, headers: Readonly<Record<string, string>>, accept: string | undefined, body: Buffer | undefined, cancel: Cancel): Promise<IncomingMessage> {
    const head = [...this.fixed];
    for (const name in headers) if (!this.taken.has(name)) head.push(name, headers[name]!);
    if (accept !== undefined) head.push('accept', accept);
    if (body !== undefined) head.push('content-type', 'application/json', 'content-length', String(body.length));
    return follow(this.url, (target) => this.once(target, method, head, body, cancel), (answer) => ({ status: answer.statusCode ?? 0, location: answer.headers.location ?? null, discard: () => answer.resume() }));
  }

  /** Closes the kept sockets. */
  close(): void {
    this.agent.destroy();
  }

  /**
   * One request to `target`. A kept-alive socket the upstream closed just as it was reused fails
   * with ECONNRESET before any answer: the request never reached the server, and is sent once
   * more (what Node's documentation advises), on a socket of its own (other kept sockets may have
   * been closed with it).
   */
  private once(target: URL, method: string, head: readonly string[], body: Buffer | undefined, cancel: Cancel, retried = false): Promise<IncomingMessage> {
    return new Promise<IncomingMessage>((resolve, reject) => {
      let answered = false;
      let aborted = false;
      const sent = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method, headers: head as string[], agent: retried ? false : this.agent }, (answer) => {
        answered = true;
        // An abort while the body is read errors the answer too: its reader sees it, and it is no crash.
        answer.on('error', () => undefined);
        resolve(answer);
      });
      // Not `signal` of `request`: with a keep-alive agent it reaches the socket, which a later
      // abort would destroy while another request uses it. `destroy` of a request whose answer
      // has been read does nothing.
      cancel(() => {
        aborted = true;
        sent.destroy();
      });
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered && !retried && !aborted && sent.reusedSocket && error.code === 'ECONNRESET') resolve(this.once(target, method, head, body, cancel, true));
        else reject(error);
      });
      sent.end(body);
    });
  }
}

/** The body of an answer, up to `limit` bytes (the rest is dropped); rejects when the answer breaks off. */
export function bodyOf(answer: IncomingMessage, limit: number = Infinity): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    answer.on('data', (chunk: Buffer) => {
      if (size < limit) chunks.push(chunk);
      size += chunk.length;
    });
    answer.on('end', () => {
      const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve(whole.length > limit ? whole.subarray(0, limit) : whole);
    });
    answer.on('error', reject);
    answer.on('close', () => {
      if (!answer.complete) reject(new Error('the answer broke off'));
    });
  });
}
