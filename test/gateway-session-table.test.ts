/**
 * The gateway's session table and who a request comes from, in process: the bounds per client and
 * in all, the least recently used idle session ending to make room (never one with a call waiting
 * or a stream open), the `Retry-After` of a refusal, the two idle times, the binding of a session
 * to its caller (the client and the credential; a token subject in place of both), and the
 * binding of `--url` sessions to the client that opened them. Requests come over real sockets
 * from loopback addresses; time is Vitest's.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { callerOf, clientOf, sameCaller, shownClient, type Caller } from '../src/adapters/gateway/caller.js';
import { SessionOwners, SessionTable, type TableLimits, type Tenant } from '../src/adapters/gateway/session-table.js';

afterEach(() => {
  vi.useRealTimers();
});

const caller = (client: string, credential = 'a'): Caller => ({ client: `address:${client}`, credential: Buffer.alloc(32, credential) });

class Session implements Tenant {
  busy = false;
  streaming = false;
  settlesAt: number | undefined = undefined;
  ended = 0;
  readonly id: string;
  readonly caller: Caller;
  constructor(id: string, owner: Caller) {
    this.id = id;
    this.caller = owner;
  }
  end(): void {
    this.ended++;
  }
}

const LIMITS: TableLimits = { maxSessions: 3, maxSessionsPerClient: 2, idleMs: 10_000, unusedIdleMs: 1_000 };

function table(limits: Partial<TableLimits> = {}): { sessions: SessionTable<Session>; warnings: string[] } {
  const warnings: string[] = [];
  const sessions = new SessionTable<Session>({ ...LIMITS, ...limits }, (text) => warnings.push(text));
  return { sessions, warnings };
}

function add(sessions: SessionTable<Session>, id: string, owner: Caller, now: number): Session {
  const session = new Session(id, owner);
  expect(sessions.admit(owner, now)).toEqual({ ok: true });
  sessions.add(session, now);
  return session;
}

describe('SessionTable', () => {
  test('a client at its bound ends its own least recently used idle session, not another client’s', () => {
    const { sessions, warnings } = table();
    const other = add(sessions, 'o', caller('10.0.0.9'), 0);
    const first = add(sessions, 'a', caller('10.0.0.1'), 1);
    const second = add(sessions, 'b', caller('10.0.0.1'), 2);
    sessions.touch('a', true, 5);
    expect(sessions.admit(caller('10.0.0.1'), 6)).toEqual({ ok: true });
    expect([other.ended, first.ended, second.ended]).toEqual([0, 0, 1]);
    expect(sessions.size).toBe(2);
    expect(warnings).toEqual(['ended the least recently used idle session to make room (10.0.0.1 is at the limit of 2 sessions per client)']);
    sessions.close();
  });

  test('admitClient keeps the per-client bound alone (a pooled process is already counted in all): past it, its own idle one ends, or it is refused', () => {
    const { sessions, warnings } = table({ maxSessions: 2 });
    const other = add(sessions, 'o', caller('10.0.0.9'), 0);
    const mine = add(sessions, 'a', caller('10.0.0.1'), 1);
    // At the cap in all, yet within its own bound: admitted, nothing ended.
    expect(sessions.admitClient(caller('10.0.0.1'), 2)).toEqual({ ok: true });
    expect(sessions.admit(caller('10.0.0.1'), 2)).toEqual({ ok: true });
    expect([other.ended, mine.ended]).toEqual([1, 0]);
    sessions.remove('o');
    const second = add(sessions, 'b', caller('10.0.0.1'), 3);
    second.busy = true;
    second.settlesAt = 5_000;
    expect(sessions.admitClient(caller('10.0.0.1'), 4)).toEqual({ ok: true });
    expect([mine.ended, second.ended]).toEqual([1, 0]);
    sessions.remove('a');
    const third = add(sessions, 'c', caller('10.0.0.1'), 5);
    third.streaming = true;
    sessions.touch('c', true, 5);
    // Refused with the time until the soonest settles: the busy one's call (the streaming one idles till 10,005).
    expect(sessions.admitClient(caller('10.0.0.1'), 1_000)).toEqual({ ok: false, retryAfter: 4, reason: 'the limit of 2 sessions per client is reached' });
    expect(sessions.admitClient(caller('10.0.0.2'), 1_000)).toEqual({ ok: true });
    expect(warnings).toEqual([
      'ended the least recently used idle session to make room (the limit of 2 sessions is reached)',
      'ended the least recently used idle session to make room (10.0.0.1 is at the limit of 2 sessions per client)',
    ]);
    sessions.close();
  });

  test('past the cap the least recently used idle session of any client ends; busy and streaming ones are passed over', () => {
    const { sessions, warnings } = table({ maxSessionsPerClient: 3 });
    const busy = add(sessions, 'a', caller('10.0.0.1'), 0);
    const streaming = add(sessions, 'b', caller('10.0.0.2'), 1);
    const idle = add(sessions, 'c', caller('10.0.0.3'), 2);
    busy.busy = true;
    streaming.streaming = true;
    expect(sessions.admit(caller('10.0.0.4'), 3)).toEqual({ ok: true });
    expect([busy.ended, streaming.ended, idle.ended]).toEqual([0, 0, 1]);
    expect(sessions.tenants()).toEqual([busy, streaming]);
    expect(warnings).toEqual(['ended the least recently used idle session to make room (the limit of 3 sessions is reached)']);
    sessions.close();
  });

  test('a refusal says when a session can be expected to be free: a busy one when its call settles, else at its idle end', () => {
    const { sessions } = table({ maxSessions: 2, maxSessionsPerClient: 2 });
    const busy = add(sessions, 'a', caller('10.0.0.1'), 0);
    const streaming = add(sessions, 'b', caller('10.0.0.2'), 0);
    busy.busy = true;
    busy.settlesAt = 4_500;
    streaming.streaming = true;
    // The streaming one is unused: its idle end is 1 s after its initialize.
    expect(sessions.admit(caller('10.0.0.3'), 100)).toEqual({ ok: false, retryAfter: 1, reason: 'the limit of 2 sessions is reached' });
    sessions.touch('b', true, 100);
    expect(sessions.admit(caller('10.0.0.3'), 100)).toEqual({ ok: false, retryAfter: 5, reason: 'the limit of 2 sessions is reached' });
    busy.settlesAt = undefined;
    // Busy without a call timeout: its idle end.
    sessions.touch('a', true, 2_000);
    expect(sessions.admit(caller('10.0.0.3'), 2_000)).toEqual({ ok: false, retryAfter: 9, reason: 'the limit of 2 sessions is reached' });
    expect(sessions.admit(caller('10.0.0.3'), 12_500)).toEqual({ ok: false, retryAfter: 1, reason: 'the limit of 2 sessions is reached' });
    const { sessions: own } = table({ maxSessionsPerClient: 1 });
    const mine = add(own, 'm', caller('10.0.0.1'), 0);
    mine.busy = true;
    mine.settlesAt = 2_001;
    expect(own.admit(caller('10.0.0.1'), 0)).toEqual({ ok: false, retryAfter: 3, reason: 'the limit of 1 sessions per client is reached' });
    expect(mine.ended).toBe(0);
    sessions.close();
    own.close();
  });

  test('an unused session ends after the unused time, one in use after the idle time, a busy one not at all', () => {
    vi.useFakeTimers({ now: 0 });
    const { sessions } = table({ maxSessions: 10, maxSessionsPerClient: 10 });
    const unused = add(sessions, 'u', caller('10.0.0.1'), 0);
    const used = add(sessions, 'v', caller('10.0.0.1'), 0);
    const busy = add(sessions, 'w', caller('10.0.0.1'), 0);
    sessions.touch('v', true, 0);
    sessions.touch('w', true, 0);
    // A notification keeps a session from idling without putting it in use.
    sessions.touch('u', false, 500);
    busy.busy = true;
    vi.advanceTimersByTime(1_400);
    expect([unused.ended, used.ended, busy.ended]).toEqual([0, 0, 0]);
    vi.advanceTimersByTime(400);
    expect([unused.ended, used.ended, busy.ended]).toEqual([1, 0, 0]);
    vi.advanceTimersByTime(9_000);
    expect([unused.ended, used.ended, busy.ended]).toEqual([1, 1, 0]);
    busy.busy = false;
    // Busy until now, so idle from now.
    vi.advanceTimersByTime(9_500);
    expect(busy.ended).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(busy.ended).toBe(1);
    expect(sessions.size).toBe(0);
    sessions.touch('gone', true);
    sessions.close();
  });

  test('the sweep runs at a quarter of the shorter idle time, between 25 ms and 1 s', () => {
    vi.useFakeTimers({ now: 0 });
    const { sessions } = table({ idleMs: 60, unusedIdleMs: 60_000 });
    const session = add(sessions, 'a', caller('10.0.0.1'), 0);
    sessions.touch('a', true, 0);
    vi.advanceTimersByTime(74);
    expect(session.ended).toBe(0);
    vi.advanceTimersByTime(1);
    expect(session.ended).toBe(1);
    sessions.close();
  });

  test('a session is found only by the caller that opened it; removed, by none', () => {
    const { sessions } = table();
    const owner = caller('10.0.0.1', 'a');
    const session = add(sessions, 's', owner, 0);
    expect(sessions.find('s', caller('10.0.0.1', 'a'))).toBe(session);
    expect(sessions.find('s', caller('10.0.0.1', 'b'))).toBeUndefined();
    expect(sessions.find('s', caller('10.0.0.2', 'a'))).toBeUndefined();
    expect(sessions.find('t', owner)).toBeUndefined();
    sessions.remove('s');
    expect(sessions.find('s', owner)).toBeUndefined();
    sessions.close();
  });
});

describe('SessionOwners', () => {
  test('a bound session allows its client only; one not bound allows any; the oldest is forgotten past the bound', () => {
    const owners = new SessionOwners(2);
    owners.bind('a', 'address:10.0.0.1');
    expect([owners.allows('a', 'address:10.0.0.1'), owners.allows('a', 'address:10.0.0.2'), owners.allows('z', 'address:10.0.0.2')]).toEqual([true, false, true]);
    owners.bind('b', 'address:10.0.0.1');
    owners.bind('c', 'address:10.0.0.1');
    expect([owners.allows('a', 'address:10.0.0.2'), owners.allows('b', 'address:10.0.0.2'), owners.allows('c', 'address:10.0.0.2')]).toEqual([true, false, false]);
    owners.forget('b');
    expect(owners.allows('b', 'address:10.0.0.2')).toBe(true);
  });
});

/** What `read` makes of each request a loopback server received (while it is open), one per `from` address and `Authorization`. */
async function requestsFrom<T>(sent: readonly { from: string; authorization?: string }[], read: (incoming: IncomingMessage) => T): Promise<T[]> {
  const received: T[] = [];
  const server = createServer((incoming, response) => {
    received.push(read(incoming));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  for (const { from, authorization } of sent) {
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, localAddress: from, agent: false, headers: authorization === undefined ? {} : { authorization } }, (response) => response.resume().on('end', resolve)).on('error', reject).end();
    });
  }
  server.close();
  return received;
}

describe('callerOf', () => {
  test('the client is the remote address; the credential the Authorization, hashed; a subject stands for both', async () => {
    const seen = (incoming: IncomingMessage) => ({ client: clientOf(incoming), caller: callerOf(incoming), alice: callerOf(incoming, 'alice'), bob: callerOf(incoming, 'bob') });
    const [a, b, c, d] = await requestsFrom([{ from: '127.0.0.1', authorization: 'Bearer x' }, { from: '127.0.0.1', authorization: 'Bearer y' }, { from: '127.0.0.2', authorization: 'Bearer x' }, { from: '127.0.0.1' }], seen);
    expect([a!.client, c!.client, a!.caller.client]).toEqual(['address:127.0.0.1', 'address:127.0.0.2', 'address:127.0.0.1']);
    expect(a!.caller.credential).toHaveLength(32);
    expect(a!.caller.credential.includes(Buffer.from('Bearer x'))).toBe(false);
    expect(sameCaller(a!.caller, { ...a!.caller })).toBe(true);
    expect([b!.caller, c!.caller, d!.caller].map((other) => sameCaller(a!.caller, other))).toEqual([false, false, false]);
    // A token subject: the same subject is the same caller whatever token it came with (a refreshed one), and from wherever.
    expect(a!.alice.client).toBe('subject:alice');
    expect([b!.alice, c!.alice, a!.bob].map((other) => sameCaller(a!.alice, other))).toEqual([true, true, false]);
    expect([shownClient(c!.client), shownClient(a!.alice.client)]).toEqual(['127.0.0.2', 'an authenticated subject']);
  });

  test('an IPv4 address mapped into IPv6 is written as IPv4', () => {
    const mapped = { socket: { remoteAddress: '::ffff:127.0.0.3' }, headers: {} } as unknown as IncomingMessage;
    const v6 = { socket: { remoteAddress: '::1' }, headers: {} } as unknown as IncomingMessage;
    const gone = { socket: { remoteAddress: undefined }, headers: {} } as unknown as IncomingMessage;
    expect([clientOf(mapped), clientOf(v6), clientOf(gone)]).toEqual(['address:127.0.0.3', 'address:::1', 'address:unknown']);
  });
});
