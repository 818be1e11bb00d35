// The live handshake-era sessions of one handler: created by `initialize` within two caps (all
// sessions, and each client's), found by id and principal, closed on DELETE, on idle expiry, when a
// cap needs room for a newcomer, or when the handler closes.

import { HttpSession, type HttpSessionSettings, type SessionOwner } from './http-session.ts';
import type { ChannelServer } from './options.ts';

/** Limits of the registry. */
export interface SessionLimits {
  maxSessions: number;
  /** Sessions of one client key at most (principal, address, or the `clientKey` hook's answer). */
  maxSessionsPerClient: number;
  idleTimeoutMs: number;
}

/** Why `create` made no session: every session under the named cap has a request in flight. */
export interface SessionRefusal {
  readonly cap: 'maxSessions' | 'maxSessionsPerClient';
  readonly limit: number;
}

/**
 * Sessions by id. A session is bound to the principal that created it: looking it up as anyone
 * else finds nothing (SEC-7). Idle expiry is one sweep, not a timer per session: `touch` stamps the
 * session, and a timer that runs while sessions exist closes those untouched for `idleTimeoutMs`
 * (checked every 1/60 of it, so a session lives at most that much longer) unless a request is in
 * flight or a stream attached; closing a session also closes its server session.
 *
 * At a cap, `create` evicts rather than refuses (issue 21: a refusal let one client lock everyone
 * out): past its client's cap, that client's longest-idle session; at the global cap, the
 * longest-idle of all. An evicted session is closed as an expired one is: its streams end and its
 * id then gets 404, so its client initialises again. Sessions with a request in flight are never
 * evicted (their work would be lost mid-way); when every candidate has one, `create` refuses.
 * `touch` only stamps a session (every request does it); finding the longest-idle is a scan, paid
 * only by an `initialize` at a cap.
 */
export class SessionRegistry implements SessionOwner {
  #sessions = new Map<string, HttpSession>();
  #byClient = new Map<string, Set<HttpSession>>();
  #limits: SessionLimits;
  #settings: HttpSessionSettings;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #touches = 0;

  constructor(limits: SessionLimits, settings: HttpSessionSettings) {
    this.#limits = limits;
    this.#settings = settings;
  }

  /** Live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Seconds until the next idle sweep could free a session (the `Retry-After` of a 503); at least 1. */
  get retryAfterSeconds(): number {
    const idleMs = this.#limits.idleTimeoutMs;
    if (!Number.isFinite(idleMs)) return 60;
    return Math.max(1, Math.ceil(sweepPeriodMs(idleMs) / 1000));
  }

  /**
   * Creates a session served by `server` for `owner` (its principal, and the client key its
   * per-client cap counts; no key: only the global cap applies). Evicts first where a cap is
   * reached; the refusal when nothing under that cap can be evicted.
   */
  create(
    server: ChannelServer,
    owner: { principal: string | undefined; clientKey: string | undefined },
  ): HttpSession | SessionRefusal {
    const { maxSessions, maxSessionsPerClient } = this.#limits;
    const own = owner.clientKey === undefined ? undefined : (this.#byClient.get(owner.clientKey) ?? NONE);
    if (own !== undefined && own.size >= maxSessionsPerClient && !evictOne(own)) {
      return { cap: 'maxSessionsPerClient', limit: maxSessionsPerClient };
    }
    if (this.#sessions.size >= maxSessions && !evictOne(this.#sessions.values())) {
      return { cap: 'maxSessions', limit: maxSessions };
    }
    // One key string per client, shared by its sessions (an idle session stays small).
    const clientKey = own?.values().next().value?.clientKey ?? owner.clientKey;
    const session = new HttpSession({ principal: owner.principal, clientKey }, this.#settings, this);
    session.touchOrder = ++this.#touches;
    this.#sessions.set(session.id, session);
    if (clientKey !== undefined) {
      const sessions = this.#byClient.get(clientKey) ?? new Set();
      this.#byClient.set(clientKey, sessions.add(session));
    }
    if (Number.isFinite(this.#limits.idleTimeoutMs)) this.#sweeper ??= this.#startSweeper();
    server.connect(session);
    return session;
  }

  /** The session with this id if `principal` owns it. */
  get(id: string, principal: string | undefined): HttpSession | undefined {
    const session = this.#sessions.get(id);
    return session && session.principal === principal ? session : undefined;
  }

  /** Restarts the session's idle time (any traffic counts) and makes it the last to be evicted. */
  touch(session: HttpSession): void {
    session.lastActiveAt = Date.now();
    session.touchOrder = ++this.#touches;
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
  }

  /** A session closed: it is no longer found. */
  forget(session: HttpSession): void {
    this.#sessions.delete(session.id);
    const key = session.clientKey;
    const own = key === undefined ? undefined : this.#byClient.get(key);
    if (own?.delete(session) && own.size === 0) this.#byClient.delete(key!);
    if (this.#sessions.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }

  #startSweeper(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => this.#sweep(), sweepPeriodMs(this.#limits.idleTimeoutMs));
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #sweep(): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      if (now - session.lastActiveAt < this.#limits.idleTimeoutMs) continue;
      // Busy (a request in flight, a stream attached) counts as activity.
      if (session.isBusy) session.lastActiveAt = now;
      else void session.close();
    }
  }
}

const NONE: ReadonlySet<HttpSession> = new Set();

/** Closes the least recently touched session of `candidates` with no request in flight, if any. */
function evictOne(candidates: Iterable<HttpSession>): boolean {
  let idlest: HttpSession | undefined;
  for (const session of candidates) {
    if (session.hasRequestsInFlight) continue;
    if (idlest === undefined || session.touchOrder < idlest.touchOrder) idlest = session;
  }
  if (idlest === undefined) return false;
  void idlest.close(); // synchronous: it is forgotten before close resolves
  return true;
}

/** The idle sweep's period: 1/60 of the idle timeout, within setInterval's range (a larger delay would become 1 ms). */
function sweepPeriodMs(idleMs: number): number {
  return Math.min(Math.max(1, Math.floor(idleMs / 60)), 2 ** 31 - 1);
}
