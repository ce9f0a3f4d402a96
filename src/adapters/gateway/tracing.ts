/**
 * OpenTelemetry traces of the gateway's calls (`--trace`), through `@opentelemetry/api`, an
 * optional peer loaded only when asked for: one span per `tools/call`, a child of the trace the
 * client sent (its `traceparent` header, else the one MCP reserves in `params._meta`), and the
 * header a `--url` upstream receives names the gateway's span as its parent. What records and
 * exports the spans is the application's (an SDK registered before the gateway starts, e.g. with
 * `node --import`); with none registered, the API's spans are no-ops.
 */
import type { IncomingMessage } from 'node:http';
import type * as Otel from '@opentelemetry/api';
import { MissingPeerError } from '../../index.js';

/** What a span is told of its call when it ends (a `CallEvent` is one). */
interface SpanEnd {
  readonly outcome: string;
  readonly changes: readonly { readonly path: string; readonly rule: string }[];
  readonly refusals: readonly { readonly path: string; readonly reason: string }[];
}

/** The span of one call, as the call's record drives it. */
export interface CallSpan {
  /** The call left for the upstream. */
  sent(): void;
  /** The call's answer ended: its outcome, repairs and refusals become attributes. */
  end(event: SpanEnd): void;
}

/** Starts the span of each call. */
export class CallTracer {
  private readonly api: typeof Otel;
  private readonly tracer: Otel.Tracer;

  constructor(api: typeof Otel) {
    this.api = api;
    this.tracer = api.trace.getTracer('schema-coerce-gateway');
  }

  /**
   * The span of a call to `tool`, a child of the context the request carries (`meta` is its
   * `params._meta`). The request's own `traceparent` and `tracestate` become the span's, so a
   * `--url` upstream receives the gateway's span as its parent.
   */
  start(request: IncomingMessage, meta: unknown, tool: string): CallSpan {
    const { api } = this;
    const carrier: Record<string, string> = {};
    const fromMeta = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
    for (const name of ['traceparent', 'tracestate'] as const) {
      const value = request.headers[name] ?? fromMeta[name];
      if (typeof value === 'string') carrier[name] = value;
    }
    const parent = api.propagation.extract(api.ROOT_CONTEXT, carrier);
    const span = this.tracer.startSpan(`tools/call ${tool}`, { kind: api.SpanKind.SERVER, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool } }, parent);
    const onward: Record<string, string> = {};
    api.propagation.inject(api.trace.setSpan(parent, span), onward);
    if (onward['traceparent'] !== undefined) {
      request.headers.traceparent = onward['traceparent'];
      if (onward['tracestate'] !== undefined) request.headers.tracestate = onward['tracestate'];
    }
    return {
      sent: () => span.addEvent('sent to the upstream'),
      end: (event) => {
        span.setAttributes({
          'schema_coerce.outcome': event.outcome,
          'schema_coerce.repairs': event.changes.map((change) => `${change.path} ${change.rule}`),
          'schema_coerce.refusals': event.refusals.map((refusal) => `${refusal.path} ${refusal.reason}`),
        });
        if (event.outcome !== 'forwarded' && event.outcome !== 'repaired') span.setStatus({ code: api.SpanStatusCode.ERROR, message: `the call was ${event.outcome}` });
        span.end();
      },
    };
  }
}

/**
 * The tracer, once `@opentelemetry/api` is loaded.
 *
 * @throws {MissingPeerError} (as a rejection) When it cannot be loaded.
 */
export async function loadTracer(): Promise<CallTracer> {
  try {
    return new CallTracer(await import('@opentelemetry/api'));
  } catch (error) {
    throw new MissingPeerError('--trace', '@opentelemetry/api', error);
  }
}
