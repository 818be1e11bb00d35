// Where handshake-era sessions are kept (issue 23): the SessionStore interface a handler reads and
// writes session records through, and its in-memory default. A store shared by several handlers (in
// one process or, with a distributed implementation, many) lets any of them serve any session.

import type { SessionChange, SessionFacts, SessionRecord } from '../../protocol/session-record.ts';

export type { SessionChange, SessionRecord };

/** A value now, or a promise of it: the in-memory store answers at once, a remote one later. */
export type Awaitable<T> = T | Promise<T>;

/** The caps and expiry `create` applies (the handler's options). */
export interface SessionCreateLimits {
  /** Sessions in the store at most. */
  readonly maxSessions: number;
  /** Sessions of one `clientKey` at most (records without a key count only against `maxSessions`). */
  readonly maxSessionsPerClient: number;
  /** A record untouched this long expires (Infinity: never). Kept with the record; `touch` restarts it. */
  readonly idleTimeoutMs: number;
  /**
   * True for a session that must not be evicted (the caller has a request of it in flight). Asked
   * only at a cap, about candidates for eviction.
   */
  readonly isPinned?: (id: string) => boolean;
}

/** Why `create` stored nothing: every session under the named cap is pinned. */
export interface SessionRefusal {
  readonly cap: 'maxSessions' | 'maxSessionsPerClient';
  readonly limit: number;
}

/**
 * The outcome of `create`: the stored record and the ids of the sessions evicted to make room for it
 * (ended: the caller closes whatever it holds of them), or the refusal.
 */
export type SessionCreation =
  | { readonly record: SessionRecord; readonly evicted: readonly string[] }
  | { readonly refused: SessionRefusal };

/** The outcome of `update`: the new record, or (stale revision, or gone) the current one if any. */
export type SessionUpdate =
  | { readonly ok: true; readonly record: SessionRecord }
  | { readonly ok: false; readonly current: SessionRecord | undefined };

/**
 * Keeps handshake-era session records. Every method may answer at once or with a promise; a
 * distributed implementation must make each one atomic on its own:
 *
 * - `create` stores a new record within the caps, evicting first where a cap is reached (past the
 *   client's cap, that client's least recently touched session not pinned; at the global cap, the
 *   least recently touched of all), or refuses when every candidate is pinned. Check and insert are
 *   one step, so concurrent creates cannot exceed a cap.
 * - `get` returns the record, or undefined when it was deleted, evicted or expired.
 * - `update` applies a change only if the record's revision is still `expectedRevision` (a fence:
 *   a writer that read an older record re-reads and tries again), and raises the revision by one.
 * - `touch` restarts the idle time (`lastActiveAt = at`) without changing the revision.
 * - `delete` removes the record (true if there was one).
 * - `count` counts live records, all or those of one client key.
 *
 * Records expire `idleTimeoutMs` after their last touch (`create`'s limits).
 *
 * `touchPeriodMs`, for a store whose touch is a round trip (one on another machine): the handler then
 * tells it of a session's activity at most once per that period (and never less often than 1/60 of
 * the idle timeout), so records expire up to that much early and eviction ranks sessions touched
 * within one period as equals. Absent: every touch reaches the store.
 *
 * `liveIdleMs`, for a store other processes read too: a handler lets go of a session's live objects
 * (not its record) once it has been idle here that long with nothing in flight and no stream open,
 * so a node holds memory for its active sessions only; the session's next request, on any handler,
 * brings it back from its record. Absent: live objects stay until the idle timeout.
 *
 * `recordCacheMs`, for a store whose read is a round trip, shared by handlers that share a message
 * bus: a handler serves a request of a session live here from the record it holds, without reading
 * the store, for up to this long after it last read it (and at most 1/60 of the idle timeout). The
 * bus keeps that record current (a session ended or changed elsewhere is closed or updated here when
 * its message arrives); when a bus message is lost (the bus is at most once), a session deleted,
 * evicted or expired elsewhere is still served here for at most this long, and its facts are stale
 * for as long (its writes stay fenced by revision). Absent: every request reads the record.
 */
export interface SessionStore {
  readonly touchPeriodMs?: number;
  readonly liveIdleMs?: number;
  readonly recordCacheMs?: number;
  create(record: SessionRecord, limits: SessionCreateLimits): Awaitable<SessionCreation>;
  get(id: string): Awaitable<SessionRecord | undefined>;
  update(id: string, expectedRevision: number, change: SessionChange): Awaitable<SessionUpdate>;
  touch(id: string, at: number): Awaitable<void>;
  delete(id: string): Awaitable<boolean>;
  count(clientKey?: string): Awaitable<number>;
}

/** Writes to one record that lose to other writers this many times in a row give up. */
const MAX_UPDATE_ATTEMPTS = 8;

/**
 * Stores a change made from the latest facts, fenced by the record's revision: on a stale revision
 * (another writer came first), `adopt`s the record the store returned and makes the change again
 * from `latest()`. Resolves with the stored record, or undefined when the record is gone; rejects
 * after MAX_UPDATE_ATTEMPTS lost races.
 */
export async function updateFenced(
  store: SessionStore,
  latest: () => SessionRecord,
  adopt: (record: SessionRecord) => void,
  change: (facts: SessionFacts) => SessionChange,
): Promise<SessionRecord | undefined> {
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
    const record = latest();
    const pending = store.update(record.id, record.revision, change(record));
    const outcome = pending instanceof Promise ? await pending : pending;
    if (outcome.ok) return outcome.record;
    if (outcome.current === undefined) return undefined;
    adopt(outcome.current);
  }
  throw new Error(`Session ${latest().id}: the record kept changing under ${MAX_UPDATE_ATTEMPTS} writes`);
}

/**
 * The default store: records in one Map of this process, answered synchronously (no promise on the
 * single-process path). The Map's order is the order of touches (a touch moves the record to the end,
 * unless it is there already), so eviction has no ties; finding whom to evict is a walk from the front,
 * paid only at a cap (at a client's cap, the walk passes other clients' older records). Per client only
 * a count is kept. Expired records are dropped when looked up and before a cap is applied. The idle
 * timeout is kept once for the store (a record created with another one keeps its own beside it).
 */
export class InMemorySessionStore implements SessionStore {
  #records = new Map<string, SessionRecord>();
  /** Live records per client key, and one key string per client, shared by its records. */
  #clients = new Map<string, { key: string; count: number }>();
  /** The id touched or created last (already at the end of `#records`). */
  #newest: string | undefined;
  #idleMs: number | undefined;
  /** Idle timeouts of records created with one other than `#idleMs` (rare: handlers that differ). */
  #otherIdleMs: Map<string, number> | undefined;

  create(record: SessionRecord, limits: SessionCreateLimits): SessionCreation {
    const evicted: string[] = [];
    const { maxSessions, maxSessionsPerClient } = limits;
    const key = record.clientKey;
    let client = key === undefined ? undefined : this.#clients.get(key);
    if (client !== undefined && client.count >= maxSessionsPerClient) {
      this.#dropExpired(key);
      client = this.#clients.get(key!);
      if (
        client !== undefined &&
        client.count >= maxSessionsPerClient &&
        !this.#evictOne(key, limits, evicted)
      )
        return { refused: { cap: 'maxSessionsPerClient', limit: maxSessionsPerClient } };
    }
    if (this.#records.size >= maxSessions) {
      this.#dropExpired(undefined);
      if (this.#records.size >= maxSessions && !this.#evictOne(undefined, limits, evicted))
        return { refused: { cap: 'maxSessions', limit: maxSessions } };
    }
    client = key === undefined ? undefined : this.#clients.get(key);
    const stored = client === undefined || client.key === key ? record : { ...record, clientKey: client.key };
    this.#idleMs ??= limits.idleTimeoutMs;
    if (limits.idleTimeoutMs !== this.#idleMs)
      (this.#otherIdleMs ??= new Map()).set(stored.id, limits.idleTimeoutMs);
    this.#records.set(stored.id, stored);
    this.#newest = stored.id;
    if (key !== undefined) {
      if (client === undefined) this.#clients.set(key, { key, count: 1 });
      else client.count++;
    }
    return { record: stored, evicted };
  }

  get(id: string): SessionRecord | undefined {
    return this.#live(id);
  }

  update(id: string, expectedRevision: number, change: SessionChange): SessionUpdate {
    const current = this.#live(id);
    if (current === undefined || current.revision !== expectedRevision) return { ok: false, current };
    const record = { ...current, ...change, revision: expectedRevision + 1 };
    // Same key, same place in the touch order.
    this.#records.set(id, record);
    return { ok: true, record };
  }

  touch(id: string, at: number): void {
    const record = this.#records.get(id);
    if (record === undefined) return;
    (record as { lastActiveAt: number }).lastActiveAt = at;
    if (this.#newest === id) return;
    // Last touched, last in line for eviction.
    this.#records.delete(id);
    this.#records.set(id, record);
    this.#newest = id;
  }

  delete(id: string): boolean {
    const record = this.#records.get(id);
    if (record === undefined) return false;
    this.#records.delete(id);
    this.#otherIdleMs?.delete(id);
    if (this.#newest === id) this.#newest = undefined;
    const key = record.clientKey;
    const client = key === undefined ? undefined : this.#clients.get(key);
    if (client !== undefined && --client.count === 0) this.#clients.delete(key!);
    return true;
  }

  count(clientKey?: string): number {
    if (clientKey !== undefined && !this.#clients.has(clientKey)) return 0;
    this.#dropExpired(clientKey);
    return clientKey === undefined ? this.#records.size : (this.#clients.get(clientKey)?.count ?? 0);
  }

  #live(id: string): SessionRecord | undefined {
    const record = this.#records.get(id);
    if (record === undefined || !this.#isExpired(record, Date.now())) return record;
    this.delete(id);
    return undefined;
  }

  #isExpired(record: SessionRecord, now: number): boolean {
    const idleMs = this.#otherIdleMs?.get(record.id) ?? this.#idleMs ?? Infinity;
    return now - record.lastActiveAt >= idleMs;
  }

  /** Drops the expired records (of one client, or all). */
  #dropExpired(clientKey: string | undefined): void {
    const now = Date.now();
    const expired: string[] = [];
    for (const record of this.#records.values()) {
      if (clientKey !== undefined && record.clientKey !== clientKey) continue;
      if (this.#isExpired(record, now)) expired.push(record.id);
    }
    for (const id of expired) this.delete(id);
  }

  /** Deletes the least recently touched record (of one client, or of all) that is not pinned, if any. */
  #evictOne(clientKey: string | undefined, limits: SessionCreateLimits, evicted: string[]): boolean {
    for (const record of this.#records.values()) {
      if (clientKey !== undefined && record.clientKey !== clientKey) continue;
      if (limits.isPinned?.(record.id)) continue;
      this.delete(record.id);
      evicted.push(record.id);
      return true;
    }
    return false;
  }
}
