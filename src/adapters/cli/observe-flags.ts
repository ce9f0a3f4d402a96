/** The gateway's observability flags: `--metrics`, `--audit` and the audit log's own, `--trace`. */
import type { ObserveOptions } from '../gateway/observe.js';
import { UsageError } from './errors.js';
import { count, listenAddress } from './flags.js';

/** The flags, as `node:util` `parseArgs` reads them. */
export const OBSERVE_FLAGS = {
  metrics: { type: 'string' },
  audit: { type: 'string' },
  'audit-values': { type: 'boolean' },
  'audit-max-bytes': { type: 'string' },
  'audit-keep': { type: 'string' },
  trace: { type: 'boolean' },
} as const;

/** The flags' lines of the help. */
export const OBSERVE_HELP = `      --metrics <host:port>  serve Prometheus metrics at /metrics there (a listener of its own)
      --audit <file | ->     write one JSON line per call (argument values left out) to a file or stdout
      --audit-values         keep argument values in the audit log
      --audit-max-bytes <n>  rotate the audit file at this size (default 67108864)
      --audit-keep <n>       rotated audit files kept (default 4)
      --trace                an OpenTelemetry span per call (needs @opentelemetry/api and an SDK)`;

/** The values `parseArgs` gives for the flags. */
type ObserveValues = { [K in keyof typeof OBSERVE_FLAGS]?: (typeof OBSERVE_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

/** The observability options the flags ask for. */
export function observeOptions(values: ObserveValues): ObserveOptions {
  if (values.audit === undefined && (values['audit-values'] === true || values['audit-max-bytes'] !== undefined || values['audit-keep'] !== undefined)) {
    throw new UsageError('--audit-values, --audit-max-bytes and --audit-keep need --audit <file | ->');
  }
  return {
    ...(values.metrics === undefined ? {} : { metrics: listenAddress('--metrics', values.metrics) }),
    ...(values.audit === undefined ? {} : { audit: values.audit, auditValues: values['audit-values'] === true }),
    ...count('--audit-max-bytes', values['audit-max-bytes'], 'auditMaxBytes', 1),
    ...count('--audit-keep', values['audit-keep'], 'auditKeep', 1),
    ...(values.trace === true ? { trace: true } : {}),
  };
}
