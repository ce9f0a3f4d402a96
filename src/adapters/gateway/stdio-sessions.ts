/**
 * A stdio server behind the gateway: one server process per client session, started by the
 * session's `initialize` and ended by its DELETE, by the idle timeouts, to make room for another
 * (`SessionTable`), or by the gateway's shutdown. A session answers only the caller that opened
 * it. Requests of the 2026-07-28 revision, which name no session, are served by pooled processes
 * under the same bounds. Each session is a `Conversation` over the proxy's session logic, its
 * server's lines read by the proxy's framing; each request waits for its response at most the
 * call timeout.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LineReader } from '../proxy/framing.js';
import type { ProxyOptions } from '../proxy/session.js';
import { stdioUpstream } from '../proxy/stdio-upstream.js';
import type { Connect } from '../proxy/upstream.js';
import { sessionIdOf, SESSION_NOT_FOUND, TRANSPORT_ERROR, type Backend, type BackendCounts, type ClientMessage } from './backend.js';
import { timeCall } from './call-timeout.js';
import { callerOf, NO_CALLER, type Caller } from './caller.js';
import { Conversation } from './conversation.js';
import type { GatewayLimits } from './options.js';
import { rpcError, type Reply } from './reply.js';
import type { GatewayLog } from './log.js';
import { SessionTable, type Admission, type Tenant } from './session-table.js';
import { isStateless, StatelessPool } from './stateless.js';
import type { SchemaMaps } from '../proxy/options.js';

/** How long a server whose input was closed has to exit before it is sent SIGTERM, and then SIGKILL. */
const EXIT_GRACE_MS = 3_000;
const NEWLINE = Buffer.from('\n');

type Upstream = ReturnType<Connect>;

/** One client session and its server process (or a pooled process, serving requests without a session). */
class StdioSession implements Tenant {
  readonly id = randomUUID();
  /** Who opened it; for a pooled process, whose request it serves (`NO_CALLER` while free). */
  caller: Caller;
  /** A pooled process: never named to a client, never found by a session id. */
  readonly pooled: boolean;
  readonly conversation: Conversation;
  readonly upstream: Upstream;
  /** The session's GET stream, while one is open. */
  private stream: Reply | undefined;
  /** Open SSE answers to POSTs, oldest first: a server message outside any exchange goes to the newest when no GET stream is open. */
  private readonly answers = new Set<Reply>();
  /** When each call waiting times out. */
  private readonly deadlines = new Map<Reply, number>();
  private ending = false;

  constructor(connect: Connect, options: ProxyOptions, log: GatewayLog, caller: Caller, pooled: boolean) {
    this.caller = caller;
    this.pooled = pooled;
    this.conversation = new Conversation(options, {
      toServer: (pieces) => this.upstream.send(pieces),
      unrouted: (message) => this.unrouted(message),
      report: (entry) => log.report(entry),
      lateResponses: true,
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
  }

  get busy(): boolean {
    return this.conversation.busy;
  }

  /** Whether the session is ending (its server's input is closed). */
  get ended(): boolean {
    return this.ending;
  }

  /** A pooled process serves a request of `caller` (`undefined`: it is free again). */
  serve(caller: Caller | undefined): void {
    this.caller = caller ?? NO_CALLER;
  }

  get streaming(): boolean {
    return this.stream?.open === true;
  }

  get settlesAt(): number | undefined {
    let soonest: number | undefined;
    for (const deadline of this.deadlines.values()) soonest = Math.min(soonest ?? deadline, deadline);
    return soonest;
  }

  /** A request waits for its response until `deadline`, if it has one. */
  waits(reply: Reply, deadline: number | undefined): void {
    if (deadline === undefined) return;
    this.deadlines.set(reply, deadline);
    reply.onClose(() => this.deadlines.delete(reply));
  }

  /** The server is told a request was given up (it timed out). */
  cancel(notification: Buffer): void {
    if (!this.ending) this.upstream.send([notification, NEWLINE]);
  }

  end(): void {
    void this.close();
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
  async close(): Promise<number> {
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
  private readonly sessions: SessionTable<StdioSession>;
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
    this.sessions = new SessionTable(limits, (text) => log.warn(text));
    this.stateless = new StatelessPool((session) => !session.busy && !session.ended, limits.maxSessions, 1);
  }

  post(request: IncomingMessage, message: ClientMessage, reply: Reply): void {
    if (isStateless(request, message.body)) return this.postStateless(request, message, reply);
    const session = this.sessionFor(request, reply, message.method === 'initialize');
    if (session === undefined) return;
    // A notification does not put a session in use; a request (other than its initialize) or a response does.
    this.sessions.touch(session.id, message.method === undefined || (message.requestId !== undefined && message.method !== 'initialize'));
    session.answering(reply);
    const id = message.requestId;
    if (!session.conversation.fromClient(message.body, id, { reply, headers: {} })) {
      reply.fail(409, rpcError(-32600, 'Invalid Request: a request with this id is still waiting for its response', id ?? null));
      return;
    }
    if (id === undefined) {
      reply.end();
      return;
    }
    session.waits(reply, timeCall(reply, id, message.method, this.limits.callTimeoutMs, (notification) => session.cancel(notification)));
    // A session is in use until its call is answered: it is as recent as that answer.
    reply.onClose(() => this.sessions.touch(session.id, false));
  }

  listen(request: IncomingMessage, reply: Reply): void {
    const session = this.sessionFor(request, reply, false);
    if (session === undefined) return;
    this.sessions.touch(session.id, true);
    if (!session.listen(reply)) reply.fail(409, rpcError(TRANSPORT_ERROR, 'Conflict: only one GET stream is allowed per session'));
  }

  remove(request: IncomingMessage, response: ServerResponse): void {
    const id = sessionIdOf(request);
    const session = id === undefined ? undefined : this.sessions.find(id, callerOf(request));
    if (session === undefined || session.pooled) {
      response.writeHead(id === undefined ? 400 : 404, { 'content-type': 'application/json' }).end(rpcError(id === undefined ? TRANSPORT_ERROR : SESSION_NOT_FOUND, id === undefined ? 'Bad Request: Mcp-Session-Id header is required' : 'Session not found'));
      return;
    }
    this.sessions.remove(session.id);
    void session.close().then(() => response.writeHead(200).end());
  }

  async close(): Promise<void> {
    this.sessions.close();
    await Promise.all(this.sessions.tenants().map((session) => session.close()));
  }

  counts(): BackendCounts {
    return { sessions: this.sessions.size, children: this.sessions.size };
  }

  /**
   * The session a request names, if its caller opened it, or a new one for an `initialize`;
   * answers the request when there is none (a session of another caller is not found).
   */
  private sessionFor(request: IncomingMessage, reply: Reply, initialize: boolean): StdioSession | undefined {
    const id = sessionIdOf(request);
    const caller = callerOf(request);
    if (id === undefined && initialize) return this.open(caller, reply);
    const session = id === undefined ? undefined : this.sessions.find(id, caller);
    if (session !== undefined && !session.pooled) return session;
    if (id === undefined) reply.fail(400, rpcError(TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required'));
    else reply.fail(404, rpcError(SESSION_NOT_FOUND, 'Session not found'));
    return undefined;
  }

  /**
   * A request of the 2026-07-28 revision: served by a server process free of any other request (a
   * new one when none is), never named to the client. The process counts as its client's session
   * while it serves the request (the per-client bound), as no one's when free. A process whose
   * request ends before its answer (its client left, or the call timed out) is ended, so nothing
   * it goes on sending can reach the next request's client. A notification has no process to go
   * to: it is acknowledged and dropped.
   */
  private postStateless(request: IncomingMessage, message: ClientMessage, reply: Reply): void {
    const id = message.requestId;
    if (id === undefined) return reply.end();
    const caller = callerOf(request);
    if (!this.admitted(this.sessions.admitClient(caller), reply)) return;
    // The server classifies each process by its first message, the same envelope for every caller: one pool.
    const session = this.stateless.take('', (catalogue) => this.open(caller, reply, catalogue));
    if (session === undefined) return;
    session.serve(caller);
    this.sessions.touch(session.id, true);
    session.answering(reply);
    // Registered before the conversation's own: the request is still waiting when its answer ended.
    reply.onClose(() => {
      if (session.busy) session.end();
      session.serve(undefined);
      this.sessions.touch(session.id, false);
    });
    session.conversation.fromClient(message.body, id, { reply, headers: {} });
    session.waits(reply, timeCall(reply, id, message.method, this.limits.callTimeoutMs, (notification) => session.cancel(notification)));
  }

  /** A new session of `caller` (a pooled process serving requests without a session, with the pool's `catalogue`), within the bounds. */
  private open(caller: Caller, reply: Reply, catalogue?: SchemaMaps): StdioSession | undefined {
    if (!this.admitted(this.sessions.admit(caller), reply)) return undefined;
    const options = catalogue === undefined ? this.options : { ...this.options, catalogue };
    const session = new StdioSession(this.connect, options, this.log, caller, catalogue !== undefined);
    this.sessions.add(session);
    if (catalogue === undefined) reply.header('mcp-session-id', session.id);
    void session.upstream.done.then((status) => {
      this.sessions.remove(session.id);
      this.stateless.forget(session);
      session.gone(status);
    });
    return session;
  }

  /** Whether `admission` lets a session open (or a pooled process serve); answers 503 with `Retry-After` when not. */
  private admitted(admission: Admission, reply: Reply): boolean {
    if (admission.ok) return true;
    this.log.warn(`refused a session: ${admission.reason}`);
    reply.fail(503, rpcError(TRANSPORT_ERROR, `Service Unavailable: ${admission.reason}; retry in ${admission.retryAfter} s`), { 'content-type': 'application/json', 'retry-after': String(admission.retryAfter) });
    return false;
  }
}
