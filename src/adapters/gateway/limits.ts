/**
 * Every bound of the gateway as an option: its flag (`--max-sessions`), which is also its key in a
 * config file (`"max-sessions"`), its unit on the command line (bytes, a count, whole seconds),
 * and what it does. The command line, the config file's schema, the help and the documentation
 * are all made from, or checked against, this one table.
 */
import { DEFAULT_LIMITS, type GatewayLimits } from './options.js';

/** One limit as an option. */
export interface LimitOption {
  /** The flag without its dashes, and the config-file key. */
  readonly name: string;
  readonly key: keyof GatewayLimits;
  /** `s`: whole seconds (the limit is in milliseconds); `bytes` and `n` are taken as they are. */
  readonly unit: 'bytes' | 'n' | 's';
  /** 0 switches it off. */
  readonly off?: true;
  /** What it bounds, for the help. */
  readonly help: string;
}

/** The gateway's limits as options, in the order the help lists them. */
export const LIMIT_OPTIONS: readonly LimitOption[] = [
  { name: 'max-body', key: 'maxBody', unit: 'bytes', help: 'the largest request body; 413 beyond' },
  { name: 'max-header-size', key: 'maxHeaderBytes', unit: 'bytes', help: 'the largest request head; 431 beyond' },
  { name: 'max-depth', key: 'maxDepth', unit: 'n', help: 'how deep a message may nest; 400 beyond' },
  { name: 'headers-timeout', key: 'headersTimeoutMs', unit: 's', help: 'time to send the request head; 408 beyond' },
  { name: 'request-timeout', key: 'requestTimeoutMs', unit: 's', help: 'time to send the whole request; 408 beyond' },
  { name: 'keep-alive-timeout', key: 'keepAliveMs', unit: 's', help: 'an idle client connection is kept this long' },
  { name: 'max-streams', key: 'maxStreams', unit: 'n', help: 'SSE streams open at once; 503 beyond' },
  { name: 'max-unread', key: 'maxUnread', unit: 'bytes', help: 'unread bytes before a client is dropped' },
  { name: 'max-sessions', key: 'maxSessions', unit: 'n', help: 'stdio sessions at once, a process each' },
  { name: 'max-sessions-per-client', key: 'maxSessionsPerClient', unit: 'n', help: 'stdio sessions of one client (its address)' },
  { name: 'idle-timeout', key: 'idleMs', unit: 's', help: 'a session in use, ended after this long idle' },
  { name: 'unused-timeout', key: 'unusedIdleMs', unit: 's', help: 'a session unused since initialize ends after' },
  { name: 'call-timeout', key: 'callTimeoutMs', unit: 's', off: true, help: 'error for a request unanswered after' },
  { name: 'sse-keepalive', key: 'keepaliveMs', unit: 's', off: true, help: 'keep-alive comment on quiet SSE streams' },
  { name: 'drain-timeout', key: 'drainMs', unit: 's', help: 'shutdown waits this long for calls in flight' },
  { name: 'cached-sessions', key: 'cachedSessions', unit: 'n', help: '--url sessions whose tool schemas are kept' },
];

/** The milliseconds in a unit of an option: 1,000 for seconds, else 1. */
export function scaleOf(option: LimitOption): number {
  return option.unit === 's' ? 1_000 : 1;
}

/** An option's default, in its unit. */
function defaultOf(option: LimitOption): number {
  return DEFAULT_LIMITS[option.key] / scaleOf(option);
}

/** The help's lines for the limits, one per option: flag, unit, what it does, default. */
export function limitsHelp(): string {
  return LIMIT_OPTIONS.map((option) => {
    const flag = `      --${option.name} <${option.unit}>`;
    const tail = `${option.help} (default ${defaultOf(option)}${option.off === true ? '; 0: off' : ''})`;
    return flag.length < 34 ? `${flag.padEnd(34)} ${tail}` : `${flag}\n${' '.repeat(35)}${tail}`;
  }).join('\n');
}
