/**
 * What the gateway learnt about one `tools/call`, made in one place and handed to every consumer
 * (the metrics, the audit log): the tool, who called it, the outcome, the repairs and refusals
 * by path and rule, the time the gateway spent on it and the time the upstream did.
 *
 * A call is followed from the POST that brings it (`CallEvents.begin`, in the endpoint) through
 * the proxy session's reports (`CallRecord.reported`, by the call's id) and its hand-over to the
 * upstream (`CallRecord.sent`) to the end of its answer, when the event is made and emitted once
 * (and, under `--trace`, the call's span ended with it).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Wiring } from '../proxy/options.js';
import { sessionIdOf } from './backend.js';
import type { Reply } from './reply.js';
import type { CallSpan, CallTracer } from './tracing.js';

/**
 * What became of a call: sent on as it came, sent on repaired, answered by the gateway with an
 * `isError` result or a refusal (never reaching the server), refused by a tool policy, or refused
 * by a rate limit (`--tool-rate-limit`).
 */
type CallOutcome = 'forwarded' | 'repaired' | 'refused' | 'denied' | 'rate-limited';

/** Who made a call: the token's subject when the gateway's auth knows it, else where it came from. */
interface CallClient {
  /** The subject of the caller's token, set by the gateway's auth (`identify`). */
  readonly subject?: string;
  /** The caller's address, as the socket gives it. */
  readonly address: string;
  /** A digest of the session id (the id itself is a credential and is never kept). */
  readonly session?: string;
}

/** One repair of a call's arguments: where, by which rule, and (when values are kept) from what to what. */
export interface CallChange {
  readonly path: string;
  readonly rule: string;
  readonly from?: string;
  readonly to?: string;
}

/** One value the repair left as it was, and why; `message` quotes the value. */
export interface CallRefusal {
  readonly path: string;
  readonly reason: string;
  readonly message?: string;
}

/** What the gateway learnt about one call. */
export interface CallEvent {
  /** When the call came, as an ISO 8601 time. */
  readonly time: string;
  readonly client: CallClient;
  /** The tool's name as the client sent it (`""` when it sent none). */
  readonly tool: string;
  readonly outcome: CallOutcome;
  readonly changes: readonly CallChange[];
  readonly refusals: readonly CallRefusal[];
  /** Why the gateway answered the call itself (a rejection's message, or the policy that denied it). */
  readonly answer?: string;
  /** Seconds the gateway spent: from the request's body read to the call leaving for the upstream, or to its own answer. */
  readonly gatewaySeconds: number;
  /** Seconds from the call leaving for the upstream to the end of its answer; absent when it never left. */
  readonly upstreamSeconds?: number;
  /** The request body's size. */
  readonly bytes: number;
  /** The W3C trace id the call came with (its `traceparent` header, or the one in `params._meta`). */
  readonly traceId?: string;
  /** The arguments as the client sent them (only the raw message is kept, and only when a consumer asks for values). */
  readonly arguments?: unknown;
}

/** A consumer of call events. */
export interface CallSink {
  call(event: CallEvent): void;
}

/** A `tools/call`'s message as the endpoint parsed it. */
export interface CallMessage {
  readonly params?: { readonly name?: unknown; readonly arguments?: unknown; readonly _meta?: { readonly traceparent?: unknown } | null } | null;
}

/** A `traceparent` (W3C Trace Context, version 00): the trace id is its second field. */
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** Subjects set by the gateway's auth, by request. */
const subjects = new WeakMap<IncomingMessage, string>();
/** The record of the call each reply answers. */
const records = new WeakMap<Reply, CallRecord>();

/** The record of the call `reply` answers, when calls are followed and it answers one. */
export function recordOf(reply: Reply): CallRecord | undefined {
  return records.get(reply);
}

/**
 * Names the token subject of a request (for the gateway's auth): its calls' events carry it.
 *
 * @public
 */
export function identify(request: IncomingMessage, subject: string): void {
  subjects.set(request, subject);
}

/** One call on its way. */
export class CallRecord {
  private readonly events: CallEvents;
  private readonly started = process.hrtime.bigint();
  private sentAt: bigint | undefined;
  private readonly changes: CallChange[] = [];
  private readonly refusals: CallRefusal[] = [];
  private answer: string | undefined;
  /** The operator's control that answered the call itself (it never reached the server). */
  private stopped: 'denied' | 'rate-limited' | undefined;
  private ended = false;
  private readonly fields: Pick<CallEvent, 'time' | 'client' | 'tool' | 'bytes' | 'traceId' | 'arguments'>;
  private readonly span: CallSpan | undefined;

  constructor(events: CallEvents, fields: CallRecord['fields'], span: CallSpan | undefined) {
    this.events = events;
    this.fields = fields;
    this.span = span;
  }

  /** The call leaves for the upstream (its first hand-over counts). */
  sent(): void {
    if (this.sentAt !== undefined) return;
    this.sentAt = process.hrtime.bigint();
    this.span?.sent();
  }

  /** One of the proxy session's reports about this call: a change, a refusal or a rejection. */
  reported(entry: Parameters<Wiring['report']>[0]): void {
    const { kind, path, rule, from, to, reason, message } = entry as Record<string, unknown>;
    const values = this.events.values;
    if (kind === 'change') this.changes.push({ path: String(path), rule: String(rule), ...(values ? { from: String(from), to: String(to) } : {}) });
    else if (kind === 'refusal') this.refusals.push({ path: String(path), reason: String(reason), ...(values ? { message: String(message) } : {}) });
    else if (kind === 'rejection' && values) this.answer = String(message);
  }

  /** A tool policy (`denied`) or a rate limit (`rate-limited`) refused the call, which never reaches the server; `why` names the rule. */
  deny(outcome: 'denied' | 'rate-limited', why: string): void {
    this.stopped = outcome;
    this.answer = why;
  }

  /** The call's answer has ended: its event is made and emitted. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const now = process.hrtime.bigint();
    const sent = this.stopped === undefined ? this.sentAt : undefined;
    const outcome: CallOutcome = this.stopped ?? (sent === undefined ? 'refused' : this.changes.length > 0 ? 'repaired' : 'forwarded');
    this.events.emit(this.span, {
      ...this.fields,
      outcome,
      changes: this.changes,
      refusals: this.refusals,
      ...(this.answer === undefined ? {} : { answer: this.answer }),
      gatewaySeconds: seconds((sent ?? now) - this.started),
      ...(sent === undefined ? {} : { upstreamSeconds: seconds(now - sent) }),
    });
  }
}

/** Makes a record of every call and hands each event to the sinks. */
export class CallEvents {
  private readonly sinks: readonly CallSink[];
  /** Whether argument values are kept (`--audit-values`): the arguments, and each change's `from` and `to`. */
  readonly values: boolean;
  private readonly tracer: CallTracer | undefined;

  /** @param tracer - Starts a span per call (`--trace`). */
  constructor(sinks: readonly CallSink[], values: boolean, tracer?: CallTracer) {
    this.sinks = sinks;
    this.values = values;
    this.tracer = tracer;
  }

  /**
   * Begins following a POSTed `tools/call` (its body, read once more here) answered by `reply` (the conversation finds its record
   * by the reply, `recordOf`), until the reply closes.
   */
  begin(request: IncomingMessage, body: Buffer, reply: Reply): void {
    const message = parsedCall(body);
    const bytes = body.length;
    const params = typeof message.params === 'object' && message.params !== null ? message.params : {};
    const session = sessionIdOf(request);
    const subject = subjects.get(request);
    const client: CallClient = {
      ...(subject === undefined ? {} : { subject }),
      address: request.socket.remoteAddress ?? '',
      ...(session === undefined ? {} : { session: createHash('sha256').update(session).digest('hex').slice(0, 16) }),
    };
    const traceId = traceIdOf(request.headers.traceparent) ?? traceIdOf(typeof params._meta === 'object' && params._meta !== null ? params._meta.traceparent : undefined);
    const tool = typeof params.name === 'string' ? params.name : '';
    const span = this.tracer?.start(request, params._meta, tool);
    const record = new CallRecord(this, {
      time: new Date().toISOString(),
      client,
      tool,
      bytes,
      ...(traceId === undefined ? {} : { traceId }),
      ...(this.values && params.arguments !== undefined ? { arguments: params.arguments } : {}),
    }, span);
    records.set(reply, record);
    reply.onClose(() => record.end());
  }

  /** Ends the call's span and hands its event to every sink; a sink that throws costs only its own line. */
  emit(span: CallSpan | undefined, event: CallEvent): void {
    span?.end(event);
    for (const sink of this.sinks) {
      try {
        sink.call(event);
      } catch {
        // A consumer's failure is never the call's.
      }
    }
  }
}

/** A `tools/call`'s message (the endpoint has checked it is one JSON-RPC object); nothing when it cannot be read. */
export function parsedCall(body: Buffer): CallMessage {
  try {
    const message = JSON.parse(body.toString('utf8')) as unknown;
    return typeof message === 'object' && message !== null ? (message as CallMessage) : {};
  } catch {
    return {};
  }
}

/** The trace id of a `traceparent`, when it is one (all zeros is no trace). */
function traceIdOf(value: unknown): string | undefined {
  const id = typeof value === 'string' ? TRACEPARENT.exec(value.trim().toLowerCase())?.[1] : undefined;
  return id === undefined || /^0+$/.test(id) ? undefined : id;
}

function seconds(nanoseconds: bigint): number {
  return Number(nanoseconds) / 1e9;
}
