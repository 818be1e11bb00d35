// Handshake-era session records in Redis (issue 24): a hash per session under its hash tag, idle
// expiry by PEXPIRE, and the caps kept in sorted sets scored by expiry time; every method one atomic
// Lua script.

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
import { CREATE, COUNT, DELETE, TOUCH, UPDATE } from './session-scripts.ts';
import { orUnavailable } from './unavailable.ts';

/** A score past any real expiry: the rank of a session that never expires (by last touch still). */
const NEVER_MS = 1e15;

/** Rounds of asking `isPinned` about the next eviction candidates before a create gives up. */
const MAX_CREATE_ROUNDS = 64;

/**
 * A SessionStore on one Redis. `mcp:{<id>}:session` is a hash with one field per record property
 * (its value as JSON; `_idle` and `_clientSet` beside them), expiring `idleTimeoutMs` after the last
 * `touch` (PEXPIRE). `mcp:sessions` and `mcp:client:<key>:sessions` are sorted sets of session ids
 * scored by expiry time (lastActiveAt + idle timeout), so the lowest score is the least recently
 * touched session (InMemorySessionStore's eviction order, ties by id) and expired entries are a
 * range. `create` checks the caps, evicts and inserts in one script; `isPinned` is a function of the
 * calling handler, so the script asks the caller about candidates it has not judged yet (up to 32 at
 * a time, oldest first) and is run again with the answers. `update` checks the revision and writes in
 * one script. The caps' sorted sets name many sessions, so this store needs one Redis (or one Cluster
 * slot for them), not yet a Cluster. A failure to reach Redis rejects with mcpwire's
 * StoreUnavailableError (the handler answers 503).
 */
export class RedisSessionStore implements SessionStore {
  /**
   * A session's activity is written at most once a second (the handler coalesces touches): one
   * round trip per established session's POST instead of three. Records may expire up to that much
   * early, and the caps rank sessions touched within one second as equals.
   */
  readonly touchPeriodMs: number;
  #redis: RedisConnection;
  #keys: RedisKeys;

  constructor(redis: RedisConnection, options: KeyOptions & { touchPeriodMs?: number } = {}) {
    this.#redis = redis;
    this.#keys = new RedisKeys(options);
    this.touchPeriodMs = options.touchPeriodMs ?? 1_000;
  }

  async create(record: SessionRecord, limits: SessionCreateLimits): Promise<SessionCreation> {
    const keys = [this.#keys.session(record.id), this.#keys.allSessions];
    if (record.clientKey !== undefined) keys.push(this.#keys.clientSessions(record.clientKey));
    const idle = Number.isFinite(limits.idleTimeoutMs) ? String(Math.max(1, limits.idleTimeoutMs)) : '';
    const score = record.lastActiveAt + (idle === '' ? NEVER_MS : Number(idle));
    const judged: Record<string, boolean> = {};
    const evicted: string[] = [];
    for (let round = 0; round < MAX_CREATE_ROUNDS; round++) {
      const args = [
        this.#keys.prefix,
        String(Date.now()),
        capOf(limits.maxSessions),
        capOf(limits.maxSessionsPerClient),
        JSON.stringify(judged),
        idle,
        String(score),
        record.id,
        ...toFields(record),
      ];
      const [kind, cap, ask, gone] = (await this.#eval(CREATE, keys, args)) as [
        string,
        string,
        string[],
        string[],
      ];
      evicted.push(...gone);
      if (kind === 'ok') return { record, evicted };
      const which = cap === 'maxSessions' ? 'maxSessions' : 'maxSessionsPerClient';
      if (kind === 'refused') return { refused: { cap: which, limit: limits[which] } };
      for (const id of ask) judged[id] = limits.isPinned?.(id) ?? false;
    }
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
    const keys = [this.#keys.session(id), this.#keys.allSessions];
    await this.#eval(TOUCH, keys, [this.#keys.prefix, id, String(at)]);
  }

  async delete(id: string): Promise<boolean> {
    const keys = [this.#keys.session(id), this.#keys.allSessions];
    return (await this.#eval(DELETE, keys, [this.#keys.prefix, id])) === 1;
  }

  #eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return orUnavailable('session store', () => this.#redis.eval(script, { keys, arguments: args }));
  }

  async count(clientKey?: string): Promise<number> {
    const set = clientKey === undefined ? this.#keys.allSessions : this.#keys.clientSessions(clientKey);
    const keys = [set, this.#keys.allSessions];
    return (await this.#eval(COUNT, keys, [this.#keys.prefix, String(Date.now())])) as number;
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
