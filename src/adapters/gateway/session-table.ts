/**
 * The gateway's own sessions (a stdio server's, one process each) under their bounds, so that no
 * client can lock the others out:
 *
 * - a session is bound to the caller that opened it (`Caller`): any other caller naming it is
 *   told it does not exist;
 * - a session with no request since its `initialize` is ended after `unusedIdleMs`, one in use
 *   after `idleMs` without a request (never while a call of it waits);
 * - a new session past `maxSessionsPerClient` of its client, or past `maxSessions` in all, first
 *   ends the least recently used session with nothing in flight (no call waiting, no GET stream
 *   open) of that client, or of all; only when there is none is it refused, with the seconds
 *   until one can be expected to end (`Retry-After`).
 */
import { sameCaller, shownClient, type Caller } from './caller.js';
import type { GatewayLimits } from './options.js';

/** One session, as the table sees it. */
export interface Tenant {
  readonly id: string;
  /** Who opened it. */
  readonly caller: Caller;
  /** Requests of it wait for their responses: it is not idle. */
  readonly busy: boolean;
  /** Its GET stream is open: its client is there, and it is not ended to make room. */
  readonly streaming: boolean;
  /** When the earliest of its waiting calls times out, if a call waits and calls time out. */
  readonly settlesAt: number | undefined;
  /** Ends it: it was idle too long, or makes room for another. */
  end(): void;
}

/** The limits the table keeps. */
export type TableLimits = Pick<GatewayLimits, 'maxSessions' | 'maxSessionsPerClient' | 'idleMs' | 'unusedIdleMs'>;

/** Whether a new session may open: yes (room was made if needed), or not before `retryAfter` seconds. */
export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfter: number; readonly reason: string };

interface Entry<T> {
  readonly tenant: T;
  /** When it last had a request (or, while busy, was last seen busy). */
  lastUsed: number;
  /** Whether it has had a request since its `initialize`, or a GET stream. */
  used: boolean;
}

/** The sessions, by id. */
export class SessionTable<T extends Tenant> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly limits: TableLimits;
  private readonly warn: (text: string) => void;
  private readonly sweeper: NodeJS.Timeout;

  /** @param warn - Takes a line for the log when a session is ended to make room. */
  constructor(limits: TableLimits, warn: (text: string) => void) {
    this.limits = limits;
    this.warn = warn;
    this.sweeper = setInterval(() => this.sweep(Date.now()), Math.min(1_000, Math.max(25, Math.min(limits.idleMs, limits.unusedIdleMs) / 4)));
    this.sweeper.unref();
  }

  /** The sessions open. */
  get size(): number {
    return this.entries.size;
  }

  /** Every session. */
  tenants(): T[] {
    return [...this.entries.values()].map((entry) => entry.tenant);
  }

  /** Makes room for a new session of `caller`, ending the least recently used idle one of its client, or of all, where a bound is reached. */
  admit(caller: Caller, now: number = Date.now()): Admission {
    const mine = this.admitClient(caller, now);
    if (!mine.ok) return mine;
    const all = [...this.entries.values()];
    if (all.length >= this.limits.maxSessions && !this.evict(all, undefined)) return this.refusal(all, now, `the limit of ${this.limits.maxSessions} sessions is reached`);
    return { ok: true };
  }

  /**
   * Makes room for one more session of `caller`'s client within the per-client bound only (a
   * pooled process, already counted in all, about to serve it), ending its least recently used
   * idle one if need be.
   */
  admitClient(caller: Caller, now: number = Date.now()): Admission {
    const mine = [...this.entries.values()].filter((entry) => entry.tenant.caller.client === caller.client);
    if (mine.length >= this.limits.maxSessionsPerClient && !this.evict(mine, caller.client)) {
      return this.refusal(mine, now, `the limit of ${this.limits.maxSessionsPerClient} sessions per client is reached`);
    }
    return { ok: true };
  }

  /** Adds a session just opened (by its `initialize`: not in use yet). */
  add(tenant: T, now: number = Date.now()): void {
    this.entries.set(tenant.id, { tenant, lastUsed: now, used: false });
  }

  /** The session `id` names, if it exists and `caller` opened it. */
  find(id: string, caller: Caller): T | undefined {
    const entry = this.entries.get(id);
    return entry !== undefined && sameCaller(entry.tenant.caller, caller) ? entry.tenant : undefined;
  }

  /** A request of session `id` came; `used` when it puts the session in use (any but a notification). */
  touch(id: string, used: boolean, now: number = Date.now()): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.lastUsed = now;
    entry.used ||= used;
  }

  /** Takes a session out (it ended). */
  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Stops the idle sweep. */
  close(): void {
    clearInterval(this.sweeper);
  }

  /** Ends the sessions idle past their time; a busy one counts as used now. */
  private sweep(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.tenant.busy) entry.lastUsed = now;
      else if (now >= this.deadline(entry)) {
        this.entries.delete(id);
        entry.tenant.end();
      }
    }
  }

  /** When a session not busy is ended for being idle. */
  private deadline(entry: Entry<T>): number {
    return entry.lastUsed + (entry.used ? this.limits.idleMs : this.limits.unusedIdleMs);
  }

  /** Ends the least recently used of `entries` with nothing in flight; false when there is none. */
  private evict(entries: readonly Entry<T>[], client: string | undefined): boolean {
    let victim: Entry<T> | undefined;
    for (const entry of entries) {
      if (entry.tenant.busy || entry.tenant.streaming) continue;
      if (victim === undefined || entry.lastUsed < victim.lastUsed) victim = entry;
    }
    if (victim === undefined) return false;
    this.entries.delete(victim.tenant.id);
    victim.tenant.end();
    const scope = client === undefined ? `the limit of ${this.limits.maxSessions} sessions is reached` : `${shownClient(client)} is at the limit of ${this.limits.maxSessionsPerClient} sessions per client`;
    this.warn(`ended the least recently used idle session to make room (${scope})`);
    return true;
  }

  /** A refusal, with the seconds until the soonest of `entries` can be expected to end or to settle its calls. */
  private refusal(entries: readonly Entry<T>[], now: number, reason: string): Admission {
    let soonest = Infinity;
    for (const entry of entries) soonest = Math.min(soonest, (entry.tenant.busy ? entry.tenant.settlesAt : undefined) ?? this.deadline(entry));
    return { ok: false, retryAfter: Math.max(1, Math.ceil((soonest - now) / 1_000)), reason };
  }
}

/**
 * The client that opened each session a `--url` gateway saw opened, by session id (the
 * upstream's), at most `max` of them, the oldest forgotten first. A session not held here (opened
 * through another replica, or forgotten) is for the upstream to judge.
 */
export class SessionOwners {
  private readonly owners = new Map<string, string>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Binds session `id`, just opened, to `client`. */
  bind(id: string, client: string): void {
    this.owners.set(id, client);
    if (this.owners.size > this.max) this.owners.delete(this.owners.keys().next().value!);
  }

  /** Whether `client` may name session `id`: it is not bound here, or bound to `client`. */
  allows(id: string, client: string): boolean {
    const owner = this.owners.get(id);
    return owner === undefined || owner === client;
  }

  /** Forgets session `id` (it was deleted). */
  forget(id: string): void {
    this.owners.delete(id);
  }
}
