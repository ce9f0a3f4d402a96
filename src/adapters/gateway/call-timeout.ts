/**
 * The time a request waits for its response. When it is up, the client is answered with a
 * JSON-RPC error naming the timeout (`-32001`, the code the TypeScript SDK gives a request that
 * timed out), the request stops counting as waiting (its session can end when idle), and the
 * server is told with `notifications/cancelled` (never for an `initialize`, which MCP does not let
 * a client cancel). A response that comes after is dropped. A request whose answer is a stream
 * meant to stay open (`subscriptions/listen`, 2026-07-28) is not timed, as a GET stream is not.
 */
import type { MessageId } from '../proxy/message.js';
import { rpcError, type Reply } from './reply.js';

/** The code of a request that timed out. */
const REQUEST_TIMEOUT = -32001;
/** The methods whose answer is a stream that stays open for as long as the client keeps it. */
const STREAMING: readonly string[] = ['subscriptions/listen'];

/**
 * Answers `reply` with a timeout error after `ms` (0: never) unless it ends first, then calls
 * `cancel` with the notification that cancels the request (none for an `initialize`).
 *
 * @returns When it times out, or `undefined` with no timeout.
 */
export function timeCall(reply: Reply, id: MessageId, method: string | undefined, ms: number, cancel: (notification: Buffer) => void): number | undefined {
  if (ms <= 0 || (method !== undefined && STREAMING.includes(method))) return undefined;
  const reason = `no response within ${seconds(ms)} (the call timeout)`;
  const timer = setTimeout(() => {
    if (!reply.open) return;
    reply.message(rpcError(REQUEST_TIMEOUT, `schema-coerce gateway: ${reason}`, id), true);
    // An upstream's answer going through unread (`Reply.pass`) has begun: the response is coming.
    if (reply.open) return;
    if (method !== 'initialize') cancel(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })));
  }, ms);
  timer.unref();
  reply.onClose(() => clearTimeout(timer));
  return Date.now() + ms;
}

/** A time as a message names it: whole seconds as `60 s`, else milliseconds. */
function seconds(ms: number): string {
  return ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`;
}
