/**
 * A Streamable HTTP server behind the gateway. The gateway keeps no state a request needs: each
 * client request is forwarded as it comes, with the client's `Mcp-Session-Id`,
 * `MCP-Protocol-Version`, `Last-Event-ID` and `Authorization` (to this upstream only; `--header`
 * values go too and take precedence), and what the upstream answers goes back, its session id
 * and event ids included. What it keeps per session is a cache: the proxy session with the tool
 * schemas the upstream listed, a bounded number of them, least recently used dropped. A replica
 * that has not seen a session lists the tools for it from the upstream before it repairs a call
 * (the proxy session does, with the client's headers). Redirects are followed only within the
 * upstream's origin.
 *
 * A session this replica saw opened is bound to its client (`clientOf`): a request from another
 * client naming it is answered 404 and not forwarded (the `Authorization` goes to the upstream,
 * which binds its sessions to its own tokens, so a refreshed token keeps its session). A request
 * waits at most the call timeout, then the upstream is told it was cancelled. An upstream that
 * ends its answer to a request without the response gets the client a `-32000` error naming it.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createParser } from 'eventsource-parser';
import { readHead } from '../proxy/message.js';
import { bytesOf, type Piece } from '../proxy/outlet.js';
import { whyUnreachable } from '../proxy/redirects.js';
import { Redactor, shownUrl } from '../proxy/secrets.js';
import type { SchemaMaps } from '../proxy/options.js';
import type { ProxyOptions } from '../proxy/session.js';
import { oneLine, sessionIdOf, SESSION_NOT_FOUND, TRANSPORT_ERROR, type Backend, type BackendCounts, type ClientMessage } from './backend.js';
import { timeCall } from './call-timeout.js';
import { clientOf } from './caller.js';
import { subjectOf } from './verified.js';
import { SessionOwners } from './session-table.js';
import { answersUnread, Conversation, type Exchange } from './conversation.js';
import { bodyOf, Forwarder, type Cancel } from './forward.js';
import type { GatewayLimits } from './options.js';
import { rpcError, type Reply } from './reply.js';
import type { GatewayLog } from './log.js';
import { callerOf, ownHeaders, StatelessPool, withStandardHeaders } from './stateless.js';

const LF = 0x0a;
/** The client headers forwarded to the upstream. */
const FORWARDED = ['authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'traceparent', 'tracestate'] as const;
/** The upstream's headers passed back to the client with its answer. */
const PASSED_BACK = ['mcp-session-id', 'www-authenticate', 'content-type', 'retry-after'] as const;
/** Conversations kept per caller for requests without a session, and callers kept. */
const STATELESS_KEPT = 64;
const STATELESS_CALLERS = 256;
/** How long the proxy session's own tools/list may take. */
const OWN_REQUEST_MS = 30_000;
/** The most of an upstream's refusal (a 4xx or 5xx body) passed back. */
const REFUSAL_BYTES = 64 * 1024;

/** A conversation per upstream session, and the headers its own requests (the tools/list) go with. */
interface Cached {
  readonly conversation: Conversation;
  headers: Readonly<Record<string, string>>;
}

/** Forwards to one Streamable HTTP endpoint. */
export class UrlUpstream implements Backend {
  /** The upstream as messages name it (no credentials, no query value). */
  private readonly shown: string;
  private readonly redactor: Redactor;
  private readonly options: ProxyOptions;
  private readonly limits: GatewayLimits;
  private readonly log: GatewayLog;
  /** By session id, in the order of last use. */
  private readonly cache = new Map<string, Cached>();
  private readonly forwarder: Forwarder;
  private readonly forward: boolean;
  /** The GET streams open, ended at shutdown. */
  private readonly listening = new Set<Reply>();
  /** The client that opened each session this replica saw opened. */
  private readonly owners: SessionOwners;
  /** The client of each `initialize` on its way, to bind the session the upstream answers with. */
  private readonly opening = new WeakMap<Exchange, string>();
  /** The conversations of requests without a session, per caller. */
  private readonly stateless = new StatelessPool<Cached>((cached) => !cached.conversation.busy, STATELESS_KEPT, STATELESS_CALLERS);

  /**
   * @param url - The upstream endpoint.
   * @param headers - Sent with every request (`--header`), over the client's own.
   * @param forward - Whether the client's `Authorization` goes to the upstream (not when the gateway checked it for itself).
   */
  constructor(url: URL, headers: Readonly<Record<string, string>>, options: ProxyOptions, limits: GatewayLimits, log: GatewayLog, forward = true) {
    this.forward = forward;
    this.forwarder = new Forwarder(url, headers);
    this.shown = shownUrl(url);
    this.redactor = new Redactor(url, headers);
    this.options = options;
    this.limits = limits;
    this.log = log;
    this.owners = new SessionOwners(limits.cachedSessions);
  }

  post(request: IncomingMessage, message: ClientMessage, reply: Reply): void {
    const id = sessionIdOf(request);
    if (!this.owns(request, id, reply)) return;
    const headers = forwardedHeaders(request, this.forward);
    // A request without a session (the 2026-07-28 revision, or a stateless server's 2025 one) is served by a free conversation of its caller's.
    const cached = id === undefined && message.method !== 'initialize' ? this.stateless.take(callerOf(headers, subjectOf(request)), (catalogue) => this.fresh(headers, catalogue))! : this.cached(id, headers);
    const exchange: Exchange = { reply, headers, method: message.method };
    if (message.method === 'initialize' && id === undefined) this.opening.set(exchange, clientOf(request));
    if (!cached.conversation.fromClient(message.body, message.requestId, exchange)) {
      reply.fail(409, rpcError(-32600, 'Invalid Request: a request with this id is still waiting for its response', message.requestId ?? null));
      return;
    }
    // Without a session, the request given up (its upstream request abandoned) is all the upstream needs to know.
    if (message.requestId !== undefined) timeCall(reply, message.requestId, message.method, this.limits.callTimeoutMs, (notification) => id !== undefined && this.cancel(headers, notification));
  }

  listen(request: IncomingMessage, reply: Reply): void {
    const id = sessionIdOf(request);
    if (!this.owns(request, id, reply)) return;
    const headers = forwardedHeaders(request, this.forward);
    const cached = this.cached(id, headers);
    this.listening.add(reply);
    reply.onClose(() => this.listening.delete(reply));
    void this.send(cached, 'GET', undefined, { reply, headers });
  }

  remove(request: IncomingMessage, response: ServerResponse): void {
    const id = sessionIdOf(request);
    if (id !== undefined && !this.allowed(request, id)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(rpcError(SESSION_NOT_FOUND, 'Session not found'));
      return;
    }
    if (id !== undefined) {
      this.cache.delete(id);
      this.owners.forget(id);
    }
    void this.forwarder
      .send('DELETE', forwardedHeaders(request, this.forward), undefined, undefined, timedOut())
      .then(async (answer) => response.writeHead(answer.statusCode ?? 502, pick(answer.headers)).end(await bodyOf(answer, REFUSAL_BYTES)))
      .catch((error: unknown) => {
        const reason = this.unreachable(error);
        response.writeHead(502, { 'content-type': 'application/json' }).end(rpcError(TRANSPORT_ERROR, reason));
      });
  }

  counts(): BackendCounts {
    return { sessions: this.cache.size, children: 0 };
  }

  async close(): Promise<void> {
    for (const reply of this.listening) reply.end();
    this.cache.clear();
    this.forwarder.close();
  }

  /** Whether the session `id` names (if any) is not bound to another client; answers 404 when it is. */
  private owns(request: IncomingMessage, id: string | undefined, reply: Reply): boolean {
    if (id === undefined || this.allowed(request, id)) return true;
    reply.fail(404, rpcError(SESSION_NOT_FOUND, 'Session not found'));
    return false;
  }

  /** Whether `request` may name session `id`: it was not opened here, or was opened by the same client. */
  private allowed(request: IncomingMessage, id: string): boolean {
    return this.owners.allows(id, clientOf(request));
  }

  /** Tells the upstream a request timed out (`notifications/cancelled`); what it answers is not read. */
  private cancel(headers: Readonly<Record<string, string>>, notification: Buffer): void {
    this.forwarder.send('POST', headers, 'application/json, text/event-stream', notification, timedOut()).then(
      (answer) => answer.resume(),
      () => undefined,
    );
  }

  /** The conversation of a session (a fresh one, not kept, for a request without a session id). */
  private cached(id: string | undefined, headers: Readonly<Record<string, string>>): Cached {
    const known = id === undefined ? undefined : this.cache.get(id);
    if (known !== undefined) {
      this.cache.delete(id!);
      this.cache.set(id!, known);
      known.headers = headers;
      return known;
    }
    const fresh = this.fresh(headers);
    if (id === undefined) return fresh;
    this.cache.set(id, fresh);
    for (const [oldest, entry] of this.cache) {
      if (this.cache.size <= this.limits.cachedSessions) break;
      if (entry.conversation.busy) continue;
      entry.conversation.stop();
      this.cache.delete(oldest);
    }
    return fresh;
  }

  /** A new conversation, with its own catalogue of the tools or a caller's. */
  private fresh(headers: Readonly<Record<string, string>>, catalogue?: SchemaMaps): Cached {
    const fresh: Cached = {
      headers,
      conversation: new Conversation(catalogue === undefined ? this.options : { ...this.options, catalogue }, {
        toServer: (pieces, exchange) => void this.send(fresh, 'POST', pieces, exchange),
        // A message on an exchange's answer that arrives after it ended has nowhere to go.
        unrouted: () => undefined,
        report: (entry) => this.log.report(entry),
      }),
    };
    return fresh;
  }

  /**
   * Sends one request to the upstream and hands what it answers to the conversation, as part of
   * `exchange` (the client request it belongs to; none for the proxy session's own tools/list).
   * A JSON answer that nothing in it can concern (see `answersUnread`) goes to the client as
   * it comes, unread. The request is abandoned when the client's answer ends (it went away, or
   * has its response).
   */
  private async send(cached: Cached, method: 'POST' | 'GET', pieces: readonly Piece[] | undefined, exchange: Exchange | undefined): Promise<void> {
    const body = pieces === undefined ? undefined : joined(pieces);
    const accept = method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream';
    const cancel: Cancel = exchange === undefined ? timedOut() : (abort) => exchange.reply.onClose(abort);
    let response: IncomingMessage;
    try {
      // A request of the gateway's own goes with the client's headers but those its own body gives.
      response = await this.forwarder.send(method, exchange === undefined ? ownHeaders(cached.headers, body) : exchange.headers, accept, body, cancel);
    } catch (error) {
      // The client went away (the request was abandoned, which makes a DOMException, with its stack).
      if (exchange !== undefined && !exchange.reply.open) return;
      this.answer(cached, body, exchange, this.unreachable(error));
      return;
    }
    const status = response.statusCode ?? 502;
    const session = response.headers['mcp-session-id'];
    if (typeof session === 'string' && exchange !== undefined) {
      exchange.reply.header('mcp-session-id', session);
      const opener = this.opening.get(exchange);
      if (opener !== undefined && status >= 200 && status <= 299) this.owners.bind(session, opener);
    }
    if (status < 200 || status > 299) {
      const refusal = await bodyOf(response, REFUSAL_BYTES).catch(() => Buffer.alloc(0));
      if (exchange === undefined) this.answer(cached, body, undefined, `${this.shown} answered HTTP ${status}`);
      // Refused credentials are the gateway's own when the client's stay here: no challenge the client could answer.
      else if (!this.forward && (status === 401 || status === 403)) exchange.reply.fail(502, rpcError(TRANSPORT_ERROR, `Bad Gateway: ${this.shown} refused the gateway's credentials (HTTP ${status})`));
      else exchange.reply.fail(status, refusal, pick(response.headers));
      return;
    }
    const events = (response.headers['content-type'] ?? '').includes('text/event-stream');
    exchange?.reply.follow(events ? 'sse' : 'json');
    if (!events && status === 200 && response.headers['content-length'] !== '0' && exchange !== undefined && exchange.reply.mode === 'json' && answersUnread(exchange, this.options)) {
      exchange.reply.pass(response);
      return;
    }
    let resumable = false;
    try {
      if (events) resumable = await this.readEvents(cached, response, exchange);
      else {
        const bytes = withoutNewline(await bodyOf(response));
        if (bytes.length > 0) cached.conversation.fromServer(oneLine(bytes), exchange);
      }
    } catch {
      // The upstream broke off its answer, or the client went away.
    }
    // A request still waiting has had no response: an error, unless the client was sent the event ids to resume the stream with.
    if (exchange?.id !== undefined && exchange.reply.open && !(resumable && exchange.reply.streaming)) {
      this.answer(cached, body, exchange, `${this.shown} ended its answer (HTTP ${status}) without the response`);
    }
    exchange?.reply.end();
  }

  /**
   * Hands every `message` event of an SSE answer to the conversation, with its event id.
   *
   * @returns Whether a message went with an event id (the stream can be resumed from it).
   */
  private async readEvents(cached: Cached, response: IncomingMessage, exchange: Exchange | undefined): Promise<boolean> {
    let resumable = false;
    const parser = createParser({
      onEvent: (event) => {
        if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
        resumable ||= event.id !== undefined;
        cached.conversation.fromServer(oneLine(Buffer.from(event.data, 'utf8')), exchange, event.id);
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      parser.feed(decoder.decode());
    } catch {
      // The upstream broke off its answer: what came is handed on, and the caller answers for the rest.
    }
    return resumable;
  }

  /**
   * Answers a request the upstream did not: a request with an id gets a JSON-RPC error through
   * the conversation (so the proxy session's own tools/list is settled too), anything else a 502.
   */
  private answer(cached: Cached, body: Buffer | undefined, exchange: Exchange | undefined, reason: string): void {
    const id = body === undefined ? undefined : readHead(body.toString('latin1'), true)?.id;
    const message = `schema-coerce gateway: ${reason}`;
    if (id !== undefined) cached.conversation.fromServer(rpcError(TRANSPORT_ERROR, message, id), exchange);
    exchange?.reply.fail(502, rpcError(TRANSPORT_ERROR, message));
  }

  /** Why the upstream could not be reached, naming it (never a header value or a query value). */
  private unreachable(error: unknown): string {
    const text = `${this.shown} ${this.redactor.scrub(whyUnreachable(error))}`;
    this.log.warn(text);
    return text;
  }
}

/** The client's headers that go to the upstream. */
function forwardedHeaders(request: IncomingMessage, forward: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    if (name === 'authorization' && !forward) continue;
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return withStandardHeaders(request, headers);
}

/** The upstream's headers that go back to the client. */
function pick(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of PASSED_BACK) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

function withoutNewline(bytes: Buffer): Buffer {
  return bytes[bytes.length - 1] === LF ? bytes.subarray(0, -1) : bytes;
}

/** A message for the upstream: its pieces as one buffer (joined only when there are several), without the newline the session ends it with. */
function joined(pieces: readonly Piece[]): Buffer {
  const last = pieces[pieces.length - 1]!;
  const count = pieces.length > 1 && Buffer.isBuffer(last) && last.length === 1 && last[0] === LF ? pieces.length - 1 : pieces.length;
  return withoutNewline(count === 1 ? bytesOf(pieces[0]!) : Buffer.concat(pieces.slice(0, count).map(bytesOf)));
}

/** The cancel of a request of the gateway's own: given up when its time is up. */
function timedOut(): Cancel {
  const signal = AbortSignal.timeout(OWN_REQUEST_MS);
  return (abort) => signal.addEventListener('abort', abort, { once: true });
}
