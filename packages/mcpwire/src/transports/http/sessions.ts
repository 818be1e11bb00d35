// The live handshake-era sessions of one handler: created by `initialize` up to a cap, found by id
// and principal, closed on DELETE, on idle expiry, or when the handler closes.

import { HttpSession, type HttpSessionSettings, type SessionOwner } from './http-session.ts';
import type { ChannelServer } from './options.ts';

/** Limits of the registry. */
export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
}

/**
 * Sessions by id. A session is bound to the principal that created it: looking it up as anyone
 * else finds nothing (SEC-7). Idle expiry is one sweep, not a timer per session: `touch` stamps the
 * session, and a timer that runs while sessions exist closes those untouched for `idleTimeoutMs`
 * (checked every 1/60 of it, so a session lives at most that much longer) unless a request is in
 * flight or a stream attached; closing a session also closes its server session.
 */
export class SessionRegistry implements SessionOwner {
  #sessions = new Map<string, HttpSession>();
  #limits: SessionLimits;
  #settings: HttpSessionSettings;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(limits: SessionLimits, settings: HttpSessionSettings) {
    this.#limits = limits;
    this.#settings = settings;
  }

  /** Live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** The cap on live sessions. */
  get maxSessions(): number {
    return this.#limits.maxSessions;
  }

  /** Seconds until the next idle sweep could free a session (the `Retry-After` of a 503); at least 1. */
  get retryAfterSeconds(): number {
    const idleMs = this.#limits.idleTimeoutMs;
    if (!Number.isFinite(idleMs)) return 60;
    return Math.max(1, Math.ceil(sweepPeriodMs(idleMs) / 1000));
  }

  /** Creates a session served by `server`, or undefined when the cap is reached. */
  create(server: ChannelServer, principal: string | undefined): HttpSession | undefined {
    if (this.#sessions.size >= this.#limits.maxSessions) return undefined;
    const session = new HttpSession(principal, this.#settings, this);
    this.#sessions.set(session.id, session);
    if (Number.isFinite(this.#limits.idleTimeoutMs)) this.#sweeper ??= this.#startSweeper();
    server.connect(session);
    return session;
  }

  /** The session with this id if `principal` owns it. */
  get(id: string, principal: string | undefined): HttpSession | undefined {
    const session = this.#sessions.get(id);
    return session && session.principal === principal ? session : undefined;
  }

  /** Restarts the session's idle time (any traffic counts). */
  touch(session: HttpSession): void {
    session.lastActiveAt = Date.now();
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
  }

  /** A session closed: it is no longer found. */
  forget(session: HttpSession): void {
    this.#sessions.delete(session.id);
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

/** The idle sweep's period: 1/60 of the idle timeout, within setInterval's range (a larger delay would become 1 ms). */
function sweepPeriodMs(idleMs: number): number {
  return Math.min(Math.max(1, Math.floor(idleMs / 60)), 2 ** 31 - 1);
}
