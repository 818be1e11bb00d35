// One call that gives createHttpHandler its three Redis seams over one connection (issue 24).

import { createClient } from 'redis';
import type { KeyOptions } from './keys.ts';
import type { RedisPublisher } from './redis-connection.ts';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.ts';
import { RedisMessageBus } from './redis-message-bus.ts';
import { RedisSessionStore } from './redis-session-store.ts';
import { RedisRequestLeases, type RedisRequestLeasesOptions } from './request-leases.ts';
import { loadRequestStateKeys } from './request-state-keys.ts';

/** Where the stores connect: a URL (the stores own the connection) or a connected node-redis client (the caller's). */
export type RedisStoresOptions = (
  | { readonly url: string; readonly client?: never }
  | { readonly client: RedisPublisher; readonly url?: never }
) &
  KeyOptions &
  Pick<RedisEventStoreOptions, 'maxEventsPerStream' | 'streamTtlMs'> &
  Pick<RedisRequestLeasesOptions, 'leaseMs' | 'renewMs'> & {
    /** Connection errors and unreadable bus messages (default: ignored; requests that need Redis fail). */
    readonly onError?: (error: Error) => void;
  };

/** The seams to give `createHttpHandler(server, { sessions, bus, eventStore, leases })`, and how to let go of them. */
export interface RedisStores extends AsyncDisposable {
  readonly sessions: RedisSessionStore;
  readonly bus: RedisMessageBus;
  readonly eventStore: RedisEventStore;
  /** Leases on in-flight requests of SSE streams: a stream resumed after its node died ends with an error response. */
  readonly leases: RedisRequestLeases;
  /**
   * The nodes' shared keys for 2026-07-28 `requestState` (made by the first node that asks): give
   * them to the server (`server.setRequestStateKeys({ keys })`) so that a round sealed by one node
   * is opened by any.
   */
  requestStateKeys(): Promise<string[]>;
  /** Ends the bus's subscriber connection, and the main connection when the stores opened it. */
  close(): Promise<void>;
}

/**
 * Creates the session store, message bus and event store over one Redis connection (the bus adds a
 * subscriber connection of its own). With `url` it connects first and owns the connection; with
 * `client` it uses the caller's connected client and leaves it open on `close`. Every node of one
 * MCP server is given the same Redis and `prefix`.
 */
export async function createRedisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const onError = options.onError ?? (() => {});
  let owned: ReturnType<typeof createClient> | undefined;
  let client: RedisPublisher;
  if (options.client !== undefined) client = options.client;
  else {
    // No offline queue: while Redis is down a command fails at once (503) instead of waiting.
    owned = createClient({ url: options.url, disableOfflineQueue: true });
    owned.on('error', onError);
    await owned.connect();
    client = owned;
  }
  const keys: KeyOptions = options.prefix === undefined ? {} : { prefix: options.prefix };
  const sessions = new RedisSessionStore(client, keys);
  const bus = new RedisMessageBus(client, { ...keys, onError });
  const eventStore = new RedisEventStore(client, {
    ...keys,
    ...(options.maxEventsPerStream === undefined ? {} : { maxEventsPerStream: options.maxEventsPerStream }),
    ...(options.streamTtlMs === undefined ? {} : { streamTtlMs: options.streamTtlMs }),
  });
  const leases = new RedisRequestLeases(client, {
    ...keys,
    onError,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.renewMs === undefined ? {} : { renewMs: options.renewMs }),
    ...(options.streamTtlMs === undefined ? {} : { requestsTtlMs: options.streamTtlMs }),
  });
  const close = async (): Promise<void> => {
    await leases.close();
    await bus.close();
    if (owned?.isOpen) owned.destroy();
  };
  const requestStateKeys = (): Promise<string[]> => loadRequestStateKeys(client, keys);
  return { sessions, bus, eventStore, leases, requestStateKeys, close, [Symbol.asyncDispose]: close };
}
