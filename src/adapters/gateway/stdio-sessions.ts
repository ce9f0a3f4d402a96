/**
 * A stdio server behind the gateway: one server process per client session, started by the
 * session's `initialize` and ended by its DELETE, by the idle timeout, or by the gateway's
 * shutdown, with a bound on the sessions at once. Each session is a `Conversation` over the
 * proxy's session logic, its server's lines read by the proxy's framing.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LineReader } from '../proxy/framing.js';
import type { ProxyOptions } from '../proxy/session.js';
import { stdioUpstream } from '../proxy/stdio-upstream.js';
import type { Connect } from '../proxy/upstream.js';
import { sessionIdOf, SESSION_NOT_FOUND, TRANSPORT_ERROR, type Backend, type BackendCounts, type ClientMessage } from './backend.js';
import { Conversation } from './conversation.js';
import type { GatewayLimits } from './options.js';
import { rpcError, type Reply } from './reply.js';
import type { GatewayLog } from './log.js';
import { isStateless, StatelessPool } from './stateless.js';
import type { SchemaMaps } from '../proxy/options.js';

/** How long a server whose input was closed has to exit before it is sent SIGTERM, and then SIGKILL. */
const EXIT_GRACE_MS = 3_000;

type Upstream = ReturnType<Connect>;

/** One client session and its server process. */
class StdioSession {
  readonly id = randomUUID();
  readonly conversation: Conversation;
  readonly upstream: Upstream;
  /** The session's GET stream, while one is open. */
  private stream: Reply | undefined;
  /** Open SSE answers to POSTs, oldest first: a server message outside any exchange goes to the newest when no GET stream is open. */
  private readonly answers = new Set<Reply>();
  private idle: NodeJS.Timeout | undefined;
  private ending = false;

  /** Whether the session is ending (its server's input is closed). */
  get ended(): boolean {
    return this.ending;
  }
  private readonly idleMs: number;
  private readonly onIdle: () => void;

  constructor(connect: Connect, options: ProxyOptions, log: GatewayLog, idleMs: number, onIdle: () => void) {
    this.idleMs = idleMs;
    this.onIdle = onIdle;
    this.conversation = new Conversation(options, {
      toServer: (pieces) => this.upstream.send(pieces),
      unrouted: (message) => this.unrouted(message),
      report: (entry) => log.report(entry),
    });
    const conversation = this.conversation;
    const reader = new LineReader({
      line: (line) => conversation.fromServer(line),
      // Every line is read (`passes` and `streams` say no), so none goes through unread.
      through: () => undefined,
      passes: () => false,
      streams: () => false,
    });
    this.upstream = connect({ reader, session: conversation.session, client: { pause: () => undefined, resume: () => undefined }, warn: (text) => log.warn(text) });
    this.touch();
  }

  /** A request came: the idle timer starts again. */
  touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => (this.conversation.busy ? this.touch() : this.onIdle()), this.idleMs);
    this.idle.unref();
  }

  /** Keeps an SSE answer to a POST, for the server's own messages while it is open. */
  answering(reply: Reply): void {
    if (reply.mode !== 'sse') return;
    this.answers.add(reply);
    reply.onClose(() => this.answers.delete(reply));
  }

  /** Opens the GET stream; false when one is open already. */
  listen(reply: Reply): boolean {
    if (this.stream?.open === true) return false;
    this.stream = reply;
    reply.start();
    return true;
  }

  /** Ends the session: the server's input is closed, and it is signalled if it does not exit. */
  async end(): Promise<number> {
    if (!this.ending) {
      this.ending = true;
      this.upstream.end();
      const term = setTimeout(() => this.upstream.signal('SIGTERM'), EXIT_GRACE_MS);
      const kill = setTimeout(() => this.upstream.signal('SIGKILL'), 2 * EXIT_GRACE_MS);
      void this.upstream.done.finally(() => {
        clearTimeout(term);
        clearTimeout(kill);
      });
    }
    return this.upstream.done;
  }

  /** The server is gone: waiting requests are answered with an error, streams are ended. */
  gone(status: number): void {
    clearTimeout(this.idle);
    this.conversation.stop();
    this.conversation.abandon((id) => rpcError(TRANSPORT_ERROR, `schema-coerce gateway: the server exited (status ${status})`, id));
    this.stream?.end();
    for (const reply of this.answers) reply.end();
  }

  private unrouted(message: Buffer): void {
    if (this.stream?.open === true) {
      this.stream.message(message, false);
      return;
    }
    const newest = [...this.answers].pop();
    newest?.message(message, false);
  }
}

/** The sessions of a stdio server. */
export class StdioSessions implements Backend {
  private readonly sessions = new Map<string, StdioSession>();
  private readonly connect: Connect;
  private readonly options: ProxyOptions;
  private readonly limits: GatewayLimits;
  private readonly log: GatewayLog;
  /** The processes serving requests without a session (2026-07-28), one request at a time each. */
  private readonly stateless: StatelessPool<StdioSession>;

  constructor(command: readonly string[], options: ProxyOptions, limits: GatewayLimits, log: GatewayLog) {
    this.connect = stdioUpstream(command);
    this.options = options;
    this.limits = limits;
    this.log = log;
    this.stateless = new StatelessPool((session) => !session.conversation.busy && !session.ended, limits.maxSessions, 1);
  }

  post(request: IncomingMessage, message: ClientMessage, reply: Reply): void {
    if (isStateless(request, message.body)) return this.postStateless(message, reply);
    const session = this.sessionFor(request, reply, message.method === 'initialize');
    if (session === undefined) return;
    session.touch();
    session.answering(reply);
    if (!session.conversation.fromClient(message.body, message.requestId, { reply, headers: {} })) {
      reply.fail(409, rpcError(-32600, 'Invalid Request: a request with this id is still waiting for its response', message.requestId ?? null));
      return;
    }
    if (message.requestId === undefined) reply.end();
  }

  listen(request: IncomingMessage, reply: Reply): void {
    const session = this.sessionFor(request, reply, false);
    if (session === undefined) return;
    if (!session.listen(reply)) reply.fail(409, rpcError(TRANSPORT_ERROR, 'Conflict: only one GET stream is allowed per session'));
  }

  remove(request: IncomingMessage, response: ServerResponse): void {
    const id = sessionIdOf(request);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session === undefined) {
      response.writeHead(id === undefined ? 400 : 404, { 'content-type': 'application/json' }).end(rpcError(id === undefined ? TRANSPORT_ERROR : SESSION_NOT_FOUND, id === undefined ? 'Bad Request: Mcp-Session-Id header is required' : 'Session not found'));
      return;
    }
    void session.end().then(() => response.writeHead(200).end());
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.end()));
  }

  counts(): BackendCounts {
    return { sessions: this.sessions.size, children: this.sessions.size };
  }

  /** The session a request names, or a new one for an `initialize`; answers the request when there is none. */
  private sessionFor(request: IncomingMessage, reply: Reply, initialize: boolean): StdioSession | undefined {
    const id = sessionIdOf(request);
    if (id === undefined && initialize) return this.open(reply);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session !== undefined) return session;
    if (id === undefined) reply.fail(400, rpcError(TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required'));
    else reply.fail(404, rpcError(SESSION_NOT_FOUND, 'Session not found'));
    return undefined;
  }

  /**
   * A request of the 2026-07-28 revision: served by a server process free of any other request (a
   * new one when none is), never named to the client. A process whose client leaves before its
   * answer is ended, so nothing it goes on sending can reach the next request's client. A
   * notification has no process to go to: it is acknowledged and dropped.
   */
  private postStateless(message: ClientMessage, reply: Reply): void {
    if (message.requestId === undefined) return reply.end();
    // The server classifies each process by its first message, the same envelope for every caller: one pool.
    const session = this.stateless.take('', (catalogue) => this.open(reply, catalogue));
    if (session === undefined) return;
    session.touch();
    session.answering(reply);
    // Registered before the conversation's own: the request is still waiting when its client left.
    reply.onClose(() => session.conversation.busy && void session.end());
    session.conversation.fromClient(message.body, message.requestId, { reply, headers: {} });
  }

  private open(reply: Reply, catalogue?: SchemaMaps): StdioSession | undefined {
    if (this.sessions.size >= this.limits.maxSessions) {
      this.log.warn(`refused a session: ${this.limits.maxSessions} are open`);
      reply.fail(503, rpcError(TRANSPORT_ERROR, `Service Unavailable: ${this.limits.maxSessions} sessions are open`));
      return undefined;
    }
    const options = catalogue === undefined ? this.options : { ...this.options, catalogue };
    const session: StdioSession = new StdioSession(this.connect, options, this.log, this.limits.idleMs, () => void session.end());
    this.sessions.set(session.id, session);
    if (catalogue === undefined) reply.header('mcp-session-id', session.id);
    void session.upstream.done.then((status) => {
      this.sessions.delete(session.id);
      this.stateless.forget(session);
      session.gone(status);
    });
    return session;
  }
}
