/**
 * Rate limits, as token buckets kept in the gateway's own memory: per caller over every request
 * (`--rate-limit`, past it `429 Too Many Requests` with `Retry-After`), and per caller and tool
 * over calls (`--tool-rate-limit`, past it an `isError` result). Each replica keeps its own
 * buckets: behind a balancer of N replicas a caller gets up to N times the rate.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { globMatches } from './policy.js';

/** A rate: `count` requests per `perMs`, and as many at once (the bucket's size). */
export interface Rate {
  readonly count: number;
  readonly perMs: number;
}

/** The limits, as the flags give them. */
export interface RateLimitRules {
  /** `<count>/<period>` (`--rate-limit`): every request of one caller. */
  readonly caller?: string;
  /** `<tool glob>=<count>/<period>` (`--tool-rate-limit`): the calls of one caller to one tool the glob matches. */
  readonly tools?: readonly string[];
}

/** Buckets kept per limit at most; past it the oldest is forgotten (its caller's next request finds it full). */
const MAX_BUCKETS = 10_000;
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Reads a rate: `<count>/<period>`, the period a unit (`ms`, `s`, `m`, `h`) after an optional
 * whole number: `10/s`, `100/m`, `5/30s`.
 *
 * @returns The rate, or why the text is not one.
 */
export function readRate(text: string): Rate | string {
  const parts = /^([1-9]\d{0,8})\/([1-9]\d{0,8})?(ms|s|m|h)$/.exec(text);
  if (parts === null) return `${JSON.stringify(text)} must be <count>/<period>, e.g. 10/s, 100/m or 5/30s`;
  return { count: Number(parts[1]), perMs: Number(parts[2] ?? 1) * UNITS[parts[3]!]! };
}

/** A `<tool glob>=<rate>` rule read, or why it cannot be. */
export function readToolRate(rule: string): { glob: string; rate: Rate } | string {
  const at = rule.lastIndexOf('=');
  const rate = at <= 0 ? undefined : readRate(rule.slice(at + 1));
  if (rate === undefined || typeof rate === 'string') return `${JSON.stringify(rule)} must be <tool glob>=<count>/<period>, e.g. 'search_*=10/m'`;
  return { glob: rule.slice(0, at), rate };
}

/** Token buckets of one rate, one per key. */
export class TokenBuckets {
  private readonly rate: Rate;
  /** Tokens and when they were counted, by key, oldest first. */
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(rate: Rate) {
    this.rate = rate;
  }

  /**
   * Takes a token of `key`'s bucket at `now` (ms).
   *
   * @returns 0 when one was there; otherwise the ms until one will be (none is taken).
   */
  take(key: string, now: number): number {
    const { count, perMs } = this.rate;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: count, at: now };
      this.buckets.set(key, bucket);
      if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    }
    // Counted in place: moving the entry to the end on every request (a true LRU) cost microseconds.
    const tokens = Math.min(count, bucket.tokens + ((now - bucket.at) * count) / perMs);
    bucket.at = now;
    if (tokens < 1) {
      bucket.tokens = tokens;
      return Math.ceil(((1 - tokens) * perMs) / count);
    }
    bucket.tokens = tokens - 1;
    return 0;
  }
}

/** The caller of a request, for its buckets: its verified token (`request.auth.token`), else its address. */
export function callerKeyOf(request: IncomingMessage): string {
  const token = (request as { auth?: { token?: unknown } }).auth?.token;
  // An unverified Authorization header is no identity: a client could send a new one with every request.
  if (typeof token === 'string') return `token:${createHash('sha256').update(token).digest('base64')}`;
  return `address:${request.socket.remoteAddress ?? ''}`;
}

/** Every limit of a gateway. */
export class RateLimits {
  private readonly caller: TokenBuckets | undefined;
  private readonly tools: readonly { readonly glob: string; readonly rule: string; readonly buckets: TokenBuckets }[];

  /** @throws {TypeError} When a rule cannot be read (the command line checks them first). */
  constructor(rules: RateLimitRules) {
    const rate = rules.caller === undefined ? undefined : readRate(rules.caller);
    if (typeof rate === 'string') throw new TypeError(`--rate-limit ${rate}`);
    this.caller = rate === undefined ? undefined : new TokenBuckets(rate);
    this.tools = (rules.tools ?? []).map((rule) => {
      const read = readToolRate(rule);
      if (typeof read === 'string') throw new TypeError(`--tool-rate-limit ${read}`);
      return { glob: read.glob, rule, buckets: new TokenBuckets(read.rate) };
    });
  }

  /** Whether any limit is given. */
  get active(): boolean {
    return this.caller !== undefined || this.tools.length > 0;
  }

  /** Ms until `caller` may send another request; 0 now (and a token is taken). */
  callerWait(caller: string, now: number): number {
    return this.caller === undefined ? 0 : this.caller.take(caller, now);
  }

  /**
   * Why `caller` may not call `tool` now, naming the limit and when to try again; `undefined`
   * when it may (a token of every limit matching the tool is taken).
   */
  toolRefusal(caller: string, tool: string, now: number): string | undefined {
    for (const { glob, rule, buckets } of this.tools) {
      if (!globMatches(glob, tool)) continue;
      const wait = buckets.take(`${caller}\n${tool}`, now);
      if (wait > 0) return `the tool ${JSON.stringify(tool)} is rate limited by the gateway (--tool-rate-limit ${JSON.stringify(rule)}): try again in ${Math.ceil(wait / 1000)} s`;
    }
    return undefined;
  }
}
