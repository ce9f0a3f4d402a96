/**
 * `timeCall`, the gateway's call timeout, on one real HTTP answer each (a loopback server whose
 * handler hands its response to a `Reply`): the error that answers a request past its time, the
 * `notifications/cancelled` the server is sent (none for an `initialize`), the deadline it
 * returns, and what it leaves alone: a request answered in time, a stream meant to stay open
 * (`subscriptions/listen`), and every request when the timeout is 0.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { timeCall } from '../src/adapters/gateway/call-timeout.js';
import { Reply, StreamCount } from '../src/adapters/gateway/reply.js';

const servers: Server[] = [];
// The timers are the test's clock, moved on by hand; sockets stay real.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** What one timed request came to: its answer's body, the cancel sent (if any), the deadline returned. */
interface Timed {
  readonly body: string;
  readonly cancelled: unknown;
  readonly deadline: number | undefined;
  readonly began: number;
}

/**
 * Serves one request whose answer is timed with `ms` for `method`; `answerAfter` answers it
 * itself after that long (never, when undefined).
 */
async function timed(method: string | undefined, ms: number, answerAfter?: number): Promise<Timed> {
  let cancelled: unknown;
  let deadline: number | undefined;
  let began = 0;
  let handled!: () => void;
  const arrived = new Promise<void>((resolve) => (handled = resolve));
  const server = createServer((_request, response) => {
    const reply = new Reply(response, 'json', 1 << 20, new StreamCount(8));
    began = Date.now();
    deadline = timeCall(reply, 'call-1', method, ms, (notification) => (cancelled = JSON.parse(notification.toString('utf8'))));
    if (answerAfter !== undefined) setTimeout(() => reply.message(Buffer.from('{"jsonrpc":"2.0","id":"call-1","result":{}}'), true), answerAfter);
    handled();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const body = new Promise<string>((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method: 'POST', agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve(text));
    });
    sent.on('error', reject);
    sent.end('{}');
  });
  await arrived;
  // Up to the first of the timeout (when the request is timed) and the server's own answer, then,
  // once the answer is read, on past both: what the timer does after the answer ends (it must do
  // nothing) has had its time.
  const first = Math.min(deadline === undefined ? Infinity : ms, answerAfter ?? Infinity);
  await vi.advanceTimersByTimeAsync(first);
  const text = await body;
  await vi.advanceTimersByTimeAsync(Math.max(ms, answerAfter ?? 0) + 100 - first);
  return { body: text, cancelled, deadline, began };
}

describe('timeCall', () => {
  test('a request past its time is answered -32001 naming the timeout, and the server told, with the same reason', async () => {
    const result = await timed('tools/call', 150);
    expect(JSON.parse(result.body)).toEqual({ jsonrpc: '2.0', id: 'call-1', error: { code: -32001, message: 'schema-coerce gateway: no response within 150 ms (the call timeout)' } });
    expect(result.cancelled).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'call-1', reason: 'no response within 150 ms (the call timeout)' } });
    expect(result.deadline! - result.began).toBeGreaterThanOrEqual(150);
    expect(result.deadline! - result.began).toBeLessThan(200);
  });

  test('whole seconds are named in seconds', async () => {
    const result = await timed('tools/call', 1_000);
    expect(JSON.parse(result.body).error.message).toBe('schema-coerce gateway: no response within 1 s (the call timeout)');
  });

  test('an initialize past its time is answered, and never cancelled', async () => {
    const result = await timed('initialize', 100);
    expect(JSON.parse(result.body).error.code).toBe(-32001);
    expect(result.cancelled).toBeUndefined();
  });

  test('a request answered in time keeps its answer, and nothing is cancelled', async () => {
    const result = await timed('tools/call', 300, 50);
    expect([JSON.parse(result.body), result.cancelled]).toEqual([{ jsonrpc: '2.0', id: 'call-1', result: {} }, undefined]);
    expect(result.deadline).toBeGreaterThan(0);
  });

  test('a subscriptions/listen answer and any request under a timeout of 0 are not timed: no deadline, nothing cancelled', async () => {
    for (const [method, ms] of [['subscriptions/listen', 100], ['tools/call', 0], [undefined, 0]] as const) {
      const result = await timed(method, ms, 250);
      expect([result.deadline, JSON.parse(result.body), result.cancelled], `${method} ${ms}`).toEqual([undefined, { jsonrpc: '2.0', id: 'call-1', result: {} }, undefined]);
    }
  });
});
