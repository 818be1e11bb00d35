// Resumable SSE events in Redis Streams (issue 24, HTTP-22..24): each handshake-era stream is a
// Redis Stream, written before the event goes to a socket, so Last-Event-ID replays on any node.

import type { EventStore, StoredEvent } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import type { RedisConnection } from './redis-connection.ts';

/** Limits of the Redis event store. */
export interface RedisEventStoreOptions extends KeyOptions {
  /** Events kept per stream, about (XADD MAXLEN ~): older ones are trimmed. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** A stream not written this long is dropped (its session's node may have died). Default 1 day. */
  readonly streamTtlMs?: number;
}

/** The part of an event id after the stream id: a Redis Stream entry id. */
const ENTRY_ID = /^\d+-\d+$/;

/**
 * An EventStore on Redis: stream `<streamId>` is the Redis Stream `mcp:{<streamId>}:events` (field
 * `data`), trimmed to about `maxEventsPerStream` and expiring `streamTtlMs` after its last write.
 * Event ids are `<streamId>:<entry id>`, so an id names its stream (HTTP-22 SHOULD) and is unique
 * across streams. `replayAfter` gives undefined for an id whose entry is no longer there (trimmed,
 * dropped, expired or never written), so a client never silently misses events.
 */
export class RedisEventStore implements EventStore {
  #redis: RedisConnection;
  #keys: RedisKeys;
  #maxEvents: number;
  #ttlMs: number;

  constructor(redis: RedisConnection, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.#keys = new RedisKeys(options);
    this.#maxEvents = Math.max(1, options.maxEventsPerStream ?? 1_000);
    this.#ttlMs = Math.max(1, options.streamTtlMs ?? 86_400_000);
  }

  async append(streamId: string, data: string): Promise<string> {
    const key = this.#keys.events(streamId);
    const [entryId] = (await this.#redis.eval(APPEND, {
      keys: [key],
      arguments: [String(this.#maxEvents), String(this.#ttlMs), data],
    })) as [string];
    return `${streamId}:${entryId}`;
  }

  async replayAfter(lastEventId: string): Promise<{ streamId: string; events: StoredEvent[] } | undefined> {
    const colon = lastEventId.lastIndexOf(':');
    const streamId = lastEventId.slice(0, colon);
    const entryId = lastEventId.slice(colon + 1);
    if (colon <= 0 || !ENTRY_ID.test(entryId)) return undefined;
    const key = this.#keys.events(streamId);
    const entries = (await this.#redis.eval(REPLAY, { keys: [key], arguments: [entryId] })) as
      [string, string[]][] | null;
    if (entries === null) return undefined;
    const events = entries.map(([id, fields]) => ({ id: `${streamId}:${id}`, data: fields[1] ?? '' }));
    return { streamId, events };
  }

  async drop(streamId: string): Promise<void> {
    await this.#redis.sendCommand(['DEL', this.#keys.events(streamId)]);
  }
}

/** KEYS: the stream. ARGV: max events, ttl ms, data. Appends, trims, renews the expiry; the entry id. */
const APPEND = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'data', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {id}
`;

/**
 * KEYS: the stream. ARGV: the last event's entry id. The entries after it, or nil when that entry is
 * not in the stream (so the events right after it may have been trimmed).
 */
const REPLAY = `
if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return nil end
return redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')
`;
