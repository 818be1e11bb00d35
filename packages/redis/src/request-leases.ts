// Leases on in-flight handshake-era requests in Redis (issue 24, node death): a node answering a POST
// on an SSE stream keeps a short-lived key alive while the requests run; a node resuming the stream
// after the holder went silent claims the requests once that key has expired, and answers them.

import type { LeaseOutcome, RequestLease, RequestLeases } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import type { RedisConnection } from './redis-connection.ts';

/** A JSON-RPC request id, as the library's leases name them. */
type RequestId = Parameters<RequestLeases['hold']>[1][number];

/** Timing of the leases; every node of one server should use the same. */
export interface RedisRequestLeasesOptions extends KeyOptions {
  /** How long a lease lives without renewal: a dead node's requests are answered this long after its last renewal at most. Default 5,000 ms. */
  readonly leaseMs?: number;
  /** How often a node renews the leases it holds (one PEXPIRE each, pipelined). Default 1,500 ms; at most half of `leaseMs`. */
  readonly renewMs?: number;
  /** How long the ids of requests never answered nor claimed are kept (their stream's lifetime). Default 1 day. */
  readonly requestsTtlMs?: number;
  /** A lease found gone while its requests still ran here (this node stalled past `leaseMs`), and Redis failures. */
  readonly onError?: (error: Error) => void;
}

interface Held {
  readonly alive: string;
  isReady: boolean;
}

/** A settle that waits for a held lease to run out adds this to its remaining time, so the key is surely gone. */
const EXPIRY_MARGIN_MS = 50;

/**
 * RequestLeases on Redis: for stream `s`, `mcp:{s}:lease:alive` (`PX leaseMs`, renewed every
 * `renewMs` by the holding node's one timer) and `mcp:{s}:lease:requests` (the request ids as JSON),
 * in one slot. `hold` writes both in one script, not awaited; `end` deletes them (answered) or only
 * the first (given up). `settle` is one script: no requests key, `none`; the first key alive, `held`
 * (it waits that key's remaining time and asks again, up to twice `leaseMs` in all); else it
 * deletes the requests key and answers `lost` with the ids, so exactly one node claims them.
 */
export class RedisRequestLeases implements RequestLeases, AsyncDisposable {
  #redis: RedisConnection;
  #keys: RedisKeys;
  #leaseMs: number;
  #renewMs: number;
  #requestsTtlMs: number;
  #onError: (error: Error) => void;
  #held = new Map<string, Held>();
  #renewer: ReturnType<typeof setInterval> | undefined;
  #waits = new Set<() => void>();

  constructor(redis: RedisConnection, options: RedisRequestLeasesOptions = {}) {
    this.#redis = redis;
    this.#keys = new RedisKeys(options);
    this.#leaseMs = Math.max(2, options.leaseMs ?? 5_000);
    this.#renewMs = Math.max(1, Math.min(options.renewMs ?? 1_500, Math.floor(this.#leaseMs / 2)));
    this.#requestsTtlMs = Math.max(this.#leaseMs, options.requestsTtlMs ?? 86_400_000);
    this.#onError = options.onError ?? (() => {});
  }

  hold(streamId: string, requestIds: readonly RequestId[]): RequestLease {
    const held: Held = { alive: this.#keys.requestLease(streamId, 'alive'), isReady: false };
    this.#held.set(streamId, held);
    this.#renewer ??= this.#startRenewer();
    const requests = this.#keys.requestLease(streamId, 'requests');
    this.#redis
      .eval(HOLD, {
        keys: [held.alive, requests],
        arguments: [String(this.#leaseMs), String(this.#requestsTtlMs), JSON.stringify(requestIds)],
      })
      .then(
        () => (held.isReady = true),
        (error: unknown) => this.#onError(asError(error)),
      );
    return {
      end: (isAnswered) => {
        if (this.#held.get(streamId) === held) this.#forget(streamId);
        // Commands on one connection run in order: this follows HOLD even if it is still on its way.
        const keys = isAnswered ? [held.alive, requests] : [held.alive];
        this.#redis.sendCommand(['DEL', ...keys]).catch((error: unknown) => this.#onError(asError(error)));
      },
    };
  }

  async settle(streamId: string): Promise<LeaseOutcome> {
    const keys = [this.#keys.requestLease(streamId, 'alive'), this.#keys.requestLease(streamId, 'requests')];
    const deadline = Date.now() + 2 * this.#leaseMs;
    for (;;) {
      const [state, value] = (await this.#redis.eval(CLAIM, { keys, arguments: [] })) as [string, unknown];
      if (state === 'lost') return { state, requestIds: parseIds(value) };
      if (state !== 'held') return { state: 'none' };
      const wait = Math.min(Number(value), this.#leaseMs) + EXPIRY_MARGIN_MS;
      if (Date.now() + wait > deadline || !(await this.#sleep(wait))) return { state: 'held' };
    }
  }

  /** Stops renewing (the leases then run out) and ends the waits of `settle` (as `held`). */
  close(): Promise<void> {
    clearInterval(this.#renewer);
    this.#renewer = undefined;
    this.#held.clear();
    for (const wake of this.#waits) wake();
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #forget(streamId: string): void {
    this.#held.delete(streamId);
    if (this.#held.size === 0) {
      clearInterval(this.#renewer);
      this.#renewer = undefined;
    }
  }

  #startRenewer(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => this.#renew(), this.#renewMs);
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  /** One PEXPIRE per lease held, issued in one tick (node-redis pipelines them in one write). */
  #renew(): void {
    for (const [streamId, held] of this.#held) {
      if (!held.isReady) continue;
      this.#redis.sendCommand(['PEXPIRE', held.alive, String(this.#leaseMs)]).then(
        (renewed) => {
          if (renewed !== 0 || this.#held.get(streamId) !== held) return;
          this.#forget(streamId);
          this.#onError(
            new Error(
              `The lease on the requests of stream ${streamId} ran out while they ran here (the node stalled past ${this.#leaseMs} ms): another node may have answered them with an error`,
            ),
          );
        },
        (error: unknown) => this.#onError(asError(error)),
      );
    }
  }

  /** Resolves true after `ms`, or false at once when the leases are closed. */
  #sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waits.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#waits.delete(wake);
        resolve(true);
      }, ms);
      this.#waits.add(wake);
    });
  }
}

/** The request ids a claim returned (JSON written by `hold`); none when unreadable. */
function parseIds(value: unknown): RequestId[] {
  try {
    const ids: unknown = JSON.parse(String(value));
    return Array.isArray(ids)
      ? ids.filter((id): id is RequestId => typeof id === 'string' || typeof id === 'number')
      : [];
  } catch {
    return [];
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** KEYS: alive, requests. ARGV: lease ms, requests ttl ms, the ids as JSON. */
const HOLD = `
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return 1
`;

/**
 * KEYS: alive, requests. {'none'} when no requests are leased; {'held', remaining ms} while alive
 * lives; else the requests are claimed (deleted) and returned: {'lost', ids as JSON}.
 */
const CLAIM = `
local ids = redis.call('GET', KEYS[2])
if not ids then return {'none'} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then return {'held', ttl} end
redis.call('DEL', KEYS[2])
return {'lost', ids}
`;
