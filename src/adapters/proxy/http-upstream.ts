/**
 * A server reached over MCP's Streamable HTTP transport: each client message is POSTed as its
 * exact bytes (with `Mcp-Session-Id` and `MCP-Protocol-Version` once known; a request of the
 * 2026-07-28 revision, which has no session, with the headers its own envelope gives), answers come back as
 * a JSON body or as an SSE stream, server-initiated messages come on the GET stream, and the
 * session is ended with DELETE when the client closes. SSE is read by `eventsource-parser`.
 * While the client is not taking bytes, no response body is read further (the server meets
 * TCP's backpressure), so a slow client never makes the proxy hold a server's output; a GET
 * stream that ends or breaks is opened again with `Last-Event-ID`. No message shows a secret: the
 * URL's query values and every header value are `***` in what the client and stderr are told.
 */
import { constants } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { readHead } from './message.js';
import { modernHeaders } from './modern.js';
import { Redactor, shownUrl } from './secrets.js';
import { bytesOf, type Piece } from './outlet.js';
import { fetchFollowing, whyUnreachable } from './redirects.js';
import type { Connect, UpstreamSide } from './upstream.js';

/** JSON-RPC's "server error" code, used when the endpoint cannot be reached or refuses a message. */
const UNREACHABLE = -32000;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
/** The delay before the GET stream is opened again, until the server names one. */
const RETRY_MS = 1_000;

/**
 * Connects to the Streamable HTTP endpoint `url`, sending `headers` (e.g. `Authorization`) with
 * every request.
 *
 * @returns A connector; its status is 0 once the client has closed and the session is ended, or
 *   128 + the signal's number when a signal ended the proxy.
 */
export function httpUpstream(url: URL, headers: Readonly<Record<string, string>>): Connect {
  return (side) => new HttpUpstream(url, headers, side);
}

class HttpUpstream {
  readonly takesStream = false;
  /** Set while the client is not taking bytes: response bodies are read again once it settles. */
  private paused: Promise<void> | undefined;
  private unpause: (() => void) | undefined;
  readonly source = {
    pause: (): void => {
      this.paused ??= new Promise((resolve) => (this.unpause = resolve));
    },
    resume: (): void => {
      const unpause = this.unpause;
      this.paused = undefined;
      this.unpause = undefined;
      unpause?.();
    },
  };
  readonly done: Promise<number>;
  private finish!: (status: number) => void;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** Resolves once the first message's answer has begun (it carries the session id). */
  private first: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aborter = new AbortController();
  /** The id of the last event on the GET stream, sent as `Last-Event-ID` when it is opened again. */
  private lastEventId: string | undefined;
  /** How long to wait before opening the GET stream again (the server's `retry:` when it gave one). */
  private retryMs = RETRY_MS;
  private closed = false;
  private readonly url: URL;
  /** The URL as messages show it. */
  private readonly shown: string;
  private readonly redactor: Redactor;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly side: UpstreamSide;

  constructor(url: URL, headers: Readonly<Record<string, string>>, side: UpstreamSide) {
    this.url = url;
    this.shown = shownUrl(url);
    this.redactor = new Redactor(url, headers);
    this.headers = headers;
    this.side = side;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  send(pieces: readonly Piece[]): void {
    const bytes = Buffer.concat(pieces.map(bytesOf));
    const body = bytes[bytes.length - 1] === LF ? bytes.subarray(0, -1) : bytes;
    if (body.length === 0 || this.closed) return;
    const sent = this.post(body).finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  end(): void {
    void this.close(0);
  }

  signal(signal: NodeJS.Signals): void {
    void this.close(128 + (constants.signals[signal] ?? 0));
  }

  private async post(body: Buffer): Promise<void> {
    const isFirst = this.first === undefined;
    let opened!: () => void;
    if (isFirst) this.first = new Promise((resolve) => (opened = resolve));
    else await this.first;
    try {
      const response = await fetchFollowing(this.url, {
        method: 'POST',
        // A request of the 2026-07-28 revision goes with the standard headers its body gives.
        headers: { ...this.requestHeaders(), ...modernHeaders(body), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
        signal: this.aborter.signal,
      });
      const session = response.headers.get('mcp-session-id');
      if (session !== null) this.sessionId = session;
      if (isFirst) opened();
      if (!response.ok) {
        await response.body?.cancel();
        this.refuse(body, `${this.shown} answered HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`);
        return;
      }
      await this.read(response, isFirst);
      // Only one message is the first: the GET stream is opened once.
      if (isFirst) void this.stream();
    } catch (error) {
      if (isFirst) opened();
      if (!this.aborter.signal.aborted) this.refuse(body, `${this.shown} ${whyUnreachable(error)}`);
    }
  }

  /** Hands every message of a response (a JSON body, or an SSE stream) to the session. */
  private async read(response: Response, isFirst: boolean): Promise<void> {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      await this.readEvents(response, isFirst);
    } else if (response.status !== 202 && response.body !== null) {
      await this.paused;
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length > 0) this.deliver(bytes, isFirst);
    } else {
      await response.body?.cancel();
    }
  }

  /** Reads an SSE stream; `resumable` (the GET stream) keeps its last event id and retry delay. */
  private async readEvents(response: Response, isFirst: boolean, resumable = false): Promise<void> {
    const parser = createParser({
      onEvent: (event) => {
        if (resumable && event.id !== undefined) this.lastEventId = event.id;
        if (event.data !== '' && (event.event === undefined || event.event === 'message')) this.deliver(Buffer.from(event.data, 'utf8'), isFirst);
      },
      onRetry: (retry) => {
        if (resumable) this.retryMs = retry;
      },
    });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (;;) {
      await this.paused;
      const chunk = await reader.read();
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    parser.feed(decoder.decode());
  }

  /**
   * Reads the GET stream, the server's own messages (a server without one answers 405), opened
   * once, after the first message's answer; when it ends or breaks it is opened again after the
   * retry delay with `Last-Event-ID`, so a server that keeps its events resumes where the stream
   * stopped. A server that refuses the stream (405, 409, …) is not asked again.
   */
  private async stream(): Promise<void> {
    while (!this.closed) {
      try {
        const resume = this.lastEventId === undefined ? {} : { 'last-event-id': this.lastEventId };
        const response = await fetchFollowing(this.url, { method: 'GET', headers: { ...this.requestHeaders(), accept: 'text/event-stream', ...resume }, signal: this.aborter.signal });
        if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          await response.body?.cancel();
          return;
        }
        await this.readEvents(response, false, true);
      } catch {
        // A stream that broke is opened again; one aborted by close() ends with the loop.
      }
      await delay(this.retryMs, undefined, { signal: this.aborter.signal }).catch(() => undefined);
    }
  }

  /** One message from the server, on one line: a newline in JSON can only be white space. */
  private deliver(bytes: Buffer, isFirst: boolean): void {
    // Each search goes on from the byte just made a space.
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at)) bytes[at] = SPACE;
    for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at)) bytes[at] = SPACE;
    if (isFirst && this.protocolVersion === undefined) this.protocolVersion = protocolVersionOf(bytes);
    this.side.session.fromServer(bytes, true);
  }

  /** Answers a request that could not be delivered with a JSON-RPC error, and says why on stderr (no secret in either). */
  private refuse(body: Buffer, cause: string): void {
    const reason = this.redactor.scrub(cause);
    this.side.warn(reason);
    const id = readHead(body.toString('latin1'), false)?.id;
    if (id === undefined) return;
    const error = { code: UNREACHABLE, message: `schema-coerce proxy: ${reason}` };
    this.side.session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error })), true);
  }

  private requestHeaders(): Record<string, string> {
    return {
      ...this.headers,
      ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
      ...(this.protocolVersion === undefined ? {} : { 'mcp-protocol-version': this.protocolVersion }),
    };
  }

  /** Waits for the answers still on their way, ends the session, and finishes with `status`. */
  private async close(status: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (status === 0) await Promise.allSettled([...this.inFlight]);
    this.aborter.abort();
    this.source.resume();
    if (this.sessionId !== undefined) {
      await fetchFollowing(this.url, { method: 'DELETE', headers: this.requestHeaders(), signal: AbortSignal.timeout(2_000) })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    }
    this.finish(status);
  }
}

/** The protocol version an initialize result names, if the message is one. */
function protocolVersionOf(bytes: Buffer): string | undefined {
  try {
    const version = (JSON.parse(bytes.toString('utf8')) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
