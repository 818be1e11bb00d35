// The live handshake-era sessions of one handler: created by `initialize` up to a cap, found by id
// and principal, closed on DELETE, on idle expiry, or when the handler closes.

import { HttpSession, type HttpSessionSettings } from './http-session.ts';
import type { ChannelServer } from './options.ts';

/** Limits of the registry. */
export interface SessionLimits {
  maxSessions: number;
  idleTimeoutMs: number;
}

/**
 * Sessions by id. A session is bound to the principal that created it: looking it up as anyone
 * else finds nothing (SEC-7). Each has an idle timer, restarted by `touch`; when it fires while the
 * session has no request in flight and no stream attached, the session closes, which also closes its
 * server session.
 */
export class SessionRegistry {
  #sessions = new Map<string, { session: HttpSession; timer: ReturnType<typeof setTimeout> | undefined }>();
  #limits: SessionLimits;
  #settings: HttpSessionSettings;

  constructor(limits: SessionLimits, settings: HttpSessionSettings) {
    this.#limits = limits;
    this.#settings = settings;
  }

  /** Live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Creates a session served by `server`, or undefined when the cap is reached. */
  create(server: ChannelServer, principal: string | undefined): HttpSession | undefined {
    if (this.#sessions.size >= this.#limits.maxSessions) return undefined;
    const session = new HttpSession(principal, this.#settings, () => this.#forget(session.id));
    this.#sessions.set(session.id, { session, timer: undefined });
    this.touch(session);
    server.connect(session);
    return session;
  }

  /** The session with this id if `principal` owns it. */
  get(id: string, principal: string | undefined): HttpSession | undefined {
    const entry = this.#sessions.get(id);
    return entry && entry.session.principal === principal ? entry.session : undefined;
  }

  /** Restarts the session's idle timer (any traffic counts). */
  touch(session: HttpSession): void {
    const entry = this.#sessions.get(session.id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (session.isBusy) this.touch(session);
      else void session.close();
    }, this.#limits.idleTimeoutMs);
    (entry.timer as { unref?: () => void }).unref?.();
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map(({ session }) => session.close()));
  }

  #forget(id: string): void {
    const entry = this.#sessions.get(id);
    if (entry) clearTimeout(entry.timer);
    this.#sessions.delete(id);
  }
}
