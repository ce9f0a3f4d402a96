/**
 * The gateway's metrics, in the Prometheus text exposition format (version 0.0.4), written here:
 * a few counters, two gauges and one histogram need no client library. Fed by the call events
 * (`call`), by the endpoint's server (`watch`: requests by method and status, bytes both ways) and,
 * when scraped, by the backend's counts (sessions, server processes).
 *
 * A tool's name comes from the client, so its label is bounded: the first `MAX_TOOLS` names seen
 * are labelled as they are (up to `MAX_TOOL_LENGTH` characters), any later one as `_other`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { BackendCounts } from './backend.js';
import type { CallEvent, CallSink } from './call-events.js';

/** Tool names labelled at most; past it a name is `_other`. */
const MAX_TOOLS = 200;
const MAX_TOOL_LENGTH = 128;
const OTHER = '_other';
/** The histogram's bounds, in seconds: 0.5 ms to 10 s. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PREFIX = 'schema_coerce_gateway_';
/** HTTP methods labelled as they are; any other is `other`. */
const METHODS = new Set(['GET', 'POST', 'DELETE', 'OPTIONS']);

/** A counter by label set (the label set written as the exposition writes it). */
class Counter {
  readonly values = new Map<string, number>();

  add(labels: string, by = 1): void {
    this.values.set(labels, (this.values.get(labels) ?? 0) + by);
  }
}

/** A histogram by label set: per bucket counts (not cumulative), the sum and the count. */
class Histogram {
  readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();

  observe(labels: string, value: number): void {
    let entry = this.series.get(labels);
    if (entry === undefined) this.series.set(labels, (entry = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    const at = BUCKETS.findIndex((bound) => value <= bound);
    if (at !== -1) entry.buckets[at]!++;
    entry.sum += value;
    entry.count++;
  }
}

/** The gateway's metrics. */
export class Metrics implements CallSink {
  private readonly requests = new Counter();
  private readonly calls = new Counter();
  private readonly repairs = new Counter();
  private readonly refusals = new Counter();
  private readonly duration = new Histogram();
  private readonly bytes = new Counter();
  /** Sockets open now, whose bytes are counted when they close or at a scrape. */
  private readonly sockets = new Set<Socket>();
  private readonly tools = new Set<string>();
  private readonly counts: () => BackendCounts;

  /** @param counts - The backend's sessions and server processes, read at each scrape. */
  constructor(counts: () => BackendCounts) {
    this.counts = counts;
  }

  call(event: CallEvent): void {
    const tool = `tool=${quote(this.toolLabel(event.tool))}`;
    this.calls.add(`${tool},outcome=${quote(event.outcome)}`);
    for (const change of event.changes) this.repairs.add(`${tool},rule=${quote(change.rule)}`);
    for (const refusal of event.refusals) this.refusals.add(`${tool},reason=${quote(refusal.reason)}`);
    this.duration.observe(`${tool},part="gateway"`, event.gatewaySeconds);
    if (event.upstreamSeconds !== undefined) this.duration.observe(`${tool},part="upstream"`, event.upstreamSeconds);
  }

  /** Counts `server`'s requests (by method and status, when each answer closes) and its connections' bytes. */
  watch(server: Server): void {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      response.once('close', () => this.requests.add(`method=${quote(METHODS.has(request.method ?? '') ? request.method! : 'other')},status=${quote(String(response.statusCode))}`));
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.countBytes(socket);
      });
    });
  }

  /** The metrics as Prometheus text. */
  exposition(): string {
    const out: string[] = [];
    counter(out, 'http_requests_total', 'HTTP requests answered, by method and status.', this.requests);
    counter(out, 'calls_total', 'Tool calls, by tool and outcome (forwarded, repaired, refused, denied, rate-limited).', this.calls);
    counter(out, 'repairs_total', 'Repairs made to tool-call arguments, by tool and rule.', this.repairs);
    counter(out, 'refusals_total', 'Argument values the repair left as they were, by tool and reason.', this.refusals);
    histogram(out, 'call_duration_seconds', "Time per call: part=\"gateway\" the gateway's own, part=\"upstream\" until the upstream's answer ended.", this.duration);
    const { sessions, children } = this.counts();
    gauge(out, 'sessions', 'Client sessions open (stdio) or cached (--url).', sessions);
    gauge(out, 'children', 'Server processes running (stdio).', children);
    gauge(out, 'connections', 'Client connections open.', this.sockets.size);
    const bytes = new Counter();
    for (const [labels, value] of this.bytes.values) bytes.add(labels, value);
    for (const socket of this.sockets) {
      bytes.add('direction="received"', socket.bytesRead);
      bytes.add('direction="sent"', socket.bytesWritten);
    }
    counter(out, 'bytes_total', 'Bytes on client connections (HTTP heads included), by direction.', bytes);
    return out.join('\n') + '\n';
  }

  private countBytes(socket: Socket): void {
    this.bytes.add('direction="received"', socket.bytesRead);
    this.bytes.add('direction="sent"', socket.bytesWritten);
  }

  private toolLabel(tool: string): string {
    const name = tool.length > MAX_TOOL_LENGTH ? tool.slice(0, MAX_TOOL_LENGTH) : tool;
    if (this.tools.has(name)) return name;
    if (this.tools.size >= MAX_TOOLS) return OTHER;
    this.tools.add(name);
    return name;
  }
}

/** A label value as the exposition format writes it: quoted, with `\`, `"` and line feeds escaped. */
function quote(value: string): string {
  return `"${value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`;
}

function header(out: string[], name: string, help: string, type: string): void {
  out.push(`# HELP ${PREFIX}${name} ${help.replace(/\\/g, '\\\\')}`, `# TYPE ${PREFIX}${name} ${type}`);
}

function counter(out: string[], name: string, help: string, values: Counter): void {
  header(out, name, help, 'counter');
  for (const [labels, value] of values.values) out.push(`${PREFIX}${name}{${labels}} ${value}`);
}

function gauge(out: string[], name: string, help: string, value: number): void {
  header(out, name, help, 'gauge');
  out.push(`${PREFIX}${name} ${value}`);
}

function histogram(out: string[], name: string, help: string, values: Histogram): void {
  header(out, name, help, 'histogram');
  for (const [labels, { buckets, sum, count }] of values.series) {
    let cumulative = 0;
    BUCKETS.forEach((bound, at) => {
      cumulative += buckets[at]!;
      out.push(`${PREFIX}${name}_bucket{${labels},le="${bound}"} ${cumulative}`);
    });
    out.push(`${PREFIX}${name}_bucket{${labels},le="+Inf"} ${count}`, `${PREFIX}${name}_sum{${labels}} ${sum}`, `${PREFIX}${name}_count{${labels}} ${count}`);
  }
}
