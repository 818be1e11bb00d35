// Handshake-era session records in Redis (issue 24): a hash per session under its hash tag, idle
// expiry by PEXPIRE, and the caps kept in an index of their own slot (sorted sets scored by expiry
// time), so the store runs on one Redis and on a Redis Cluster alike.

import type {
  SessionChange,
  SessionCreateLimits,
  SessionCreation,
  SessionRecord,
  SessionStore,
  SessionUpdate,
} from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import type { RedisConnection } from './redis-connection.ts';
import {
  INDEX_COUNT,
  INDEX_CREATE,
  INDEX_FORGET,
  INDEX_TOUCH,
  TOUCH,
  UPDATE,
  WRITE,
} from './session-scripts.ts';
import { orUnavailable } from './unavailable.ts';

/** A score past any real expiry: the rank of a session that never expires (by last touch still). */
const NEVER_MS = 1e15;

/** Rounds of asking `isPinned` about the next eviction candidates before a create gives up. */
const MAX_CREATE_ROUNDS = 64;

/**
 * A SessionStore on one Redis or a Redis Cluster. `mcp:{<id>}:session` is a hash with one field per
 * record property (its value as JSON; `_idle` beside them), expiring `idleTimeoutMs` after the last
 * `touch` (PEXPIRE). The caps' index is in the `{sessions}` slot: `mcp:{sessions}:all` and
 * `mcp:{sessions}:client:<key>` are sorted sets of session ids scored by expiry time (lastActiveAt +
 * idle timeout), so the lowest score is the least recently touched session (InMemorySessionStore's
 * eviction order, ties by id) and expired entries are a range; `mcp:{sessions}:meta` keeps each id's
 * idle timeout and client set. Each script touches one slot, so a method that needs both the hash
 * and the index sends two (in parallel where it can): `create` writes the hash, then checks the caps,
 * evicts and inserts in the index in one script (deleting the hash again when refused, and the
 * evicted sessions' hashes after); `touch` renews both, and deletes a hash the index no longer has
 * (evicted or expired there while its own delete was lost). The caps are exact over the index; a node
 * that dies between the two writes leaves an index entry without a hash (counted until its idle
 * expiry) or an evicted hash alive until its next touch. `isPinned` is a function of the calling
 * handler, so the index script asks the caller about candidates it has not judged yet (up to 32 at a
 * time, oldest first) and is run again with the answers. `update` checks the revision and writes in
 * one script. A failure to reach Redis rejects with mcpwire's StoreUnavailableError (the handler
 * answers 503).
 */
export class RedisSessionStore implements SessionStore {
  /**
   * A session's activity is written at most once a second (the handler coalesces touches): one
   * round trip per established session's POST instead of three. Records may expire up to that much
   * early, and the caps rank sessions touched within one second as equals.
   */
  readonly touchPeriodMs: number;
  /**
   * A node lets go of an idle session's live objects after 10 s (its record stays here; its next
   * request, on any node, brings it back), so idle sessions cost a node no memory.
   */
  readonly liveIdleMs: number;
  /**
   * A node serves a request of a session live on it from the record it holds for 1 s after reading
   * it (the bus brings changes and ends; a lost bus message is out of date for at most that long):
   * an established session's POST makes no round trip, but for one read per session per second.
   */
  readonly recordCacheMs: number;
  #redis: RedisConnection;
  #keys: RedisKeys;

  constructor(
    redis: RedisConnection,
    options: KeyOptions & { touchPeriodMs?: number; liveIdleMs?: number; recordCacheMs?: number } = {},
  ) {
    this.#redis = redis;
    this.#keys = new RedisKeys(options);
    this.touchPeriodMs = options.touchPeriodMs ?? 1_000;
    this.liveIdleMs = options.liveIdleMs ?? 10_000;
    this.recordCacheMs = options.recordCacheMs ?? 1_000;
  }

  async create(record: SessionRecord, limits: SessionCreateLimits): Promise<SessionCreation> {
    const hash = this.#keys.session(record.id);
    const index = this.#indexKeys();
    const clientSet = record.clientKey === undefined ? '' : this.#keys.clientSessions(record.clientKey);
    if (clientSet !== '') index.push(clientSet);
    const idle = Number.isFinite(limits.idleTimeoutMs) ? String(Math.max(1, limits.idleTimeoutMs)) : '';
    const score = record.lastActiveAt + (idle === '' ? NEVER_MS : Number(idle));
    // The hash first: an index entry never names a session that was not written.
    await this.#eval(WRITE, [hash], [idle, ...toFields(record)]);
    const judged: Record<string, boolean> = {};
    const evicted: string[] = [];
    for (let round = 0; round < MAX_CREATE_ROUNDS; round++) {
      const args = [
        String(Date.now()),
        capOf(limits.maxSessions),
        capOf(limits.maxSessionsPerClient),
        JSON.stringify(judged),
        String(score),
        record.id,
        `${idle}|${clientSet}`,
      ];
      const [kind, cap, ask, gone] = (await this.#eval(INDEX_CREATE, index, args)) as [
        string,
        string,
        string[],
        string[],
      ];
      evicted.push(...gone);
      await this.#deleteHashes(gone);
      if (kind === 'ok') return { record, evicted };
      const which = cap === 'maxSessions' ? 'maxSessions' : 'maxSessionsPerClient';
      if (kind === 'refused') {
        await this.#deleteHashes([record.id]);
        return { refused: { cap: which, limit: limits[which] } };
      }
      for (const id of ask) judged[id] = limits.isPinned?.(id) ?? false;
    }
    await this.#deleteHashes([record.id]);
    throw new Error(
      `Session ${record.id}: the eviction candidates kept changing over ${MAX_CREATE_ROUNDS} rounds`,
    );
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const fields = await orUnavailable('session store', () => this.#redis.hGetAll(this.#keys.session(id)));
    return fromFields(fields);
  }

  async update(id: string, expectedRevision: number, change: SessionChange): Promise<SessionUpdate> {
    const args = [String(expectedRevision), ...toFields(change)];
    const [ok, flat] = (await this.#eval(UPDATE, [this.#keys.session(id)], args)) as [number, string[]?];
    const record = flat === undefined ? undefined : fromFields(pairsOf(flat));
    if (ok === 1 && record !== undefined) return { ok: true, record };
    return { ok: false, current: record };
  }

  async touch(id: string, at: number): Promise<void> {
    const [inHash, inIndex] = await Promise.all([
      this.#eval(TOUCH, [this.#keys.session(id)], [String(at)]),
      this.#eval(INDEX_TOUCH, this.#indexKeys(), [id, String(at)]),
    ]);
    if (inHash === 1 && inIndex === 0) await this.#deleteHashes([id]);
  }

  async delete(id: string): Promise<boolean> {
    const [deleted] = await Promise.all([
      orUnavailable('session store', () => this.#redis.sendCommand(['DEL', this.#keys.session(id)])),
      this.#eval(INDEX_FORGET, this.#indexKeys(), [id]),
    ]);
    return deleted === 1;
  }

  async count(clientKey?: string): Promise<number> {
    const set = clientKey === undefined ? this.#keys.allSessions : this.#keys.clientSessions(clientKey);
    return (await this.#eval(INDEX_COUNT, [...this.#indexKeys(), set], [String(Date.now())])) as number;
  }

  /** The index's keys every index script starts with: all sessions, meta. */
  #indexKeys(): string[] {
    return [this.#keys.allSessions, this.#keys.sessionIndexMeta];
  }

  /** Deletes sessions' hashes, one command each (their slots differ), in parallel. */
  async #deleteHashes(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map((id) =>
        orUnavailable('session store', () => this.#redis.sendCommand(['DEL', this.#keys.session(id)])),
      ),
    );
  }

  #eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return orUnavailable('session store', () => this.#redis.eval(script, { keys, arguments: args }));
  }
}

/** A cap as the script reads it (Lua has no Infinity). */
function capOf(limit: number): string {
  return Number.isFinite(limit) ? String(limit) : String(Number.MAX_SAFE_INTEGER);
}

/** A record or change as hash fields: each defined property's value as JSON, flattened pairs. */
function toFields(values: SessionChange | SessionRecord): string[] {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) pairs.push(name, JSON.stringify(value));
  }
  return pairs;
}

function pairsOf(flat: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
  return fields;
}

/** The record a hash holds; undefined for none (no `id` field: gone). Our own fields start with `_`. */
function fromFields(fields: Record<string, string>): SessionRecord | undefined {
  if (fields.id === undefined) return undefined;
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith('_')) record[name] = JSON.parse(value) as unknown;
  }
  return record as unknown as SessionRecord;
}
