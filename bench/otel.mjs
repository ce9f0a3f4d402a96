// The OpenTelemetry SDK of the `--trace` row of `npm run bench -- gateway side-by-side`, registered
// in the gateway's process with `node --import bench/otel.mjs …/cli.js gateway --trace`, as an
// application registers one: a tracer provider with the SDK's batch processor, the W3C propagator.
// Its exporter sends the spans nowhere (no network: what an OTLP exporter costs to encode and send
// is the collector's side of the bill) and counts them on stderr, `otel: N spans exported`, so the
// bench checks that each call made its span.
import { propagation, trace } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

let exported = 0;
const exporter = {
  export(spans, done) {
    exported += spans.length;
    process.stderr.write(`otel: ${exported} spans exported\n`);
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: () => Promise.resolve(),
};
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 200 })] }));
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
