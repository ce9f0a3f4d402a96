/**
 * `--trace`: an OpenTelemetry span per call through `@opentelemetry/api`, recorded here by the
 * SDK's in-memory exporter with the W3C propagator registered, as an application registers them.
 * An SDK v1 client's `traceparent` makes the gateway's span its child; the `--url` upstream gets
 * the gateway's span as its parent; a call with no trace starts one.
 */
import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';
import { startHttpPeer } from './peers/http-server.js';

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  trace.disable();
  propagation.disable();
});

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

test('a span per call, a child of the client\'s trace, the parent of the upstream\'s request; a call without a trace starts one', async () => {
  const peer = await startHttpPeer({});
  const gateway = await startGateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, rejectUndeclared: true, trace: true }, captureStream());
  const clients: Client[] = [];
  try {
    const connect = async (headers: Record<string, string>): Promise<Client> => {
      const client = new Client({ name: 'trace-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    };
    const traced = await connect({ traceparent: `00-${TRACE}-${CLIENT_SPAN}-01` });
    await traced.callTool({ name: 'echo', arguments: { count: '7' } });
    await traced.callTool({ name: 'echo', arguments: { count: 1, colour: 'red' } });
    const untraced = await connect({});
    await untraced.callTool({ name: 'echo', arguments: { count: 2 } });
  } finally {
    for (const client of clients) await client.close();
    await gateway.close();
    await peer.close();
  }
  const spans = exporter.getFinishedSpans();
  expect(spans.map((span) => [span.name, span.kind, span.attributes['schema_coerce.outcome']])).toEqual([
    ['tools/call echo', SpanKind.SERVER, 'repaired'],
    ['tools/call echo', SpanKind.SERVER, 'refused'],
    ['tools/call echo', SpanKind.SERVER, 'forwarded'],
  ]);
  const [repaired, refused, fresh] = spans as [typeof spans[0], typeof spans[0], typeof spans[0]];
  expect(repaired.spanContext().traceId).toBe(TRACE);
  expect(repaired.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  expect(repaired.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'schema_coerce.repairs': ['/count string-to-integer'] });
  expect(repaired.events.map((event) => event.name)).toEqual(['sent to the upstream']);
  expect(refused.status.code).toBe(SpanStatusCode.ERROR);
  expect(refused.events).toEqual([]);
  expect(fresh.spanContext().traceId).not.toBe(TRACE);
  expect(fresh.parentSpanContext).toBeUndefined();
  // The upstream's request of each call sent names the gateway's span as its parent.
  const calls = peer.heads.filter((_, at) => peer.bodies[at]!.includes('"tools/call"'));
  expect(calls.map((head) => head['traceparent'])).toEqual([`00-${TRACE}-${repaired.spanContext().spanId}-01`, `00-${fresh.spanContext().traceId}-${fresh.spanContext().spanId}-01`]);
});
