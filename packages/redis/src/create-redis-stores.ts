// One call that gives createHttpHandler its three Redis seams over one connection (issue 24), to one
// Redis or to a Redis Cluster, and the tasks extension its store.

import { createClient } from 'redis';
import { clusterConnection, type RedisClusterClient } from './cluster-connection.ts';
import { connectCluster } from './connect-cluster.ts';
import type { KeyOptions } from './keys.ts';
import type { RedisPublisher } from './redis-connection.ts';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.ts';
import { RedisMessageBus } from './redis-message-bus.ts';
import { RedisSessionStore } from './redis-session-store.ts';
import { RedisRequestLeases, type RedisRequestLeasesOptions } from './request-leases.ts';
import { loadRequestStateKeys } from './request-state-keys.ts';
import { RedisTaskStore } from './redis-task-store.ts';

/**
 * Where the stores connect: a URL (the stores own the connection) or a connected node-redis client
 * (the caller's); on a Redis Cluster, its nodes' URLs (the stores own the cluster client; the first
 * URL's user, password and scheme apply to every node) or a connected `createCluster()` (the caller's).
 */
export type RedisStoresOptions = (
  | { readonly url: string; readonly client?: never; readonly cluster?: never; readonly clusterUrls?: never }
  | {
      readonly client: RedisPublisher;
      readonly url?: never;
      readonly cluster?: never;
      readonly clusterUrls?: never;
    }
  | {
      readonly clusterUrls: readonly string[];
      readonly url?: never;
      readonly client?: never;
      readonly cluster?: never;
    }
  | {
      readonly cluster: RedisClusterClient;
      readonly url?: never;
      readonly client?: never;
      readonly clusterUrls?: never;
    }
) &
  KeyOptions &
  Pick<RedisEventStoreOptions, 'maxEventsPerStream' | 'streamTtlMs'> &
  Pick<RedisRequestLeasesOptions, 'leaseMs' | 'renewMs'> & {
    /** Connection errors and unreadable bus messages (default: ignored; requests that need Redis fail). */
    readonly onError?: (error: Error) => void;
    /** The task store's worker lease (ms): a task whose node died fails this long after. Default 10 s. */
    readonly taskLeaseMs?: number;
    /** RedisSessionStore's `recordCacheMs`: how long a node serves a live session from its record. Default 1 s. */
    readonly recordCacheMs?: number;
    /**
     * With `url` or `clusterUrls`: how long a command may wait for Redis (ms, sent or not) before it
     * fails, and the request that needed it gets 503 with Retry-After (a stuck or overloaded Redis
     * holds no request longer). Default {@link DEFAULT_COMMAND_TIMEOUT_MS}. A timed-out write may
     * still have been applied: every write is fenced or idempotent. A caller's `client` or `cluster`
     * keeps its own command options.
     */
    readonly commandTimeoutMs?: number;
  };

/** The default bound on one Redis command's wait (ms): `createRedisStores({ commandTimeoutMs })`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;

/** The seams to give `createHttpHandler(server, { sessions, bus, eventStore, leases })`, and how to let go of them. */
export interface RedisStores extends AsyncDisposable {
  readonly sessions: RedisSessionStore;
  readonly bus: RedisMessageBus;
  readonly eventStore: RedisEventStore;
  /** Leases on in-flight requests of SSE streams: a stream resumed after its node died ends with an error response. */
  readonly leases: RedisRequestLeases;
  /**
   * The tasks extension's store (`tasks({ store })`, or `runner.useStore(store)` on a server built
   * elsewhere): a task created through one node is read, cancelled and awaited through any.
   */
  readonly tasks: RedisTaskStore;
  /**
   * The nodes' shared keys for 2026-07-28 `requestState` (made by the first node that asks): give
   * them to the server (`server.setRequestStateKeys({ keys })`) so that a round sealed by one node
   * is opened by any.
   */
  requestStateKeys(): Promise<string[]>;
  /** Ends the bus's subscriber connection, and the main connection when the stores opened it. */
  close(): Promise<void>;
}

/** What `close` ends of a connection the stores opened. */
interface Owned {
  readonly isOpen: boolean;
  destroy(): void;
}

/**
 * Creates the session store, message bus and event store over one Redis connection (the bus adds a
 * subscriber connection of its own). With `url` or `clusterUrls` it connects first and owns the
 * connection; with `client` or `cluster` it uses the caller's connected one and leaves it open on
 * `close`. Every node of one MCP server is given the same Redis (or cluster) and `prefix`.
 */
export async function createRedisStores(options: RedisStoresOptions): Promise<RedisStores> {
  const onError = options.onError ?? (() => {});
  // rejectInFlight: the timeout also ends a command already sent, whose reply is then dropped.
  const commandOptions = {
    timeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    rejectInFlight: true,
  } as const;
  let owned: Owned | undefined;
  let client: RedisPublisher;
  if (options.client !== undefined) client = options.client;
  else if (options.cluster !== undefined) client = clusterConnection(options.cluster);
  else if (options.clusterUrls !== undefined) {
    const cluster = await connectCluster(options.clusterUrls, onError, commandOptions);
    owned = cluster;
    client = clusterConnection(cluster);
  } else {
    // No offline queue: while Redis is down a command fails at once (503) instead of waiting; while
    // it is slow, after commandTimeoutMs.
    const single = createClient({ url: options.url, disableOfflineQueue: true, commandOptions });
    single.on('error', onError);
    await single.connect();
    owned = single;
    client = single;
  }
  const keys: KeyOptions = options.prefix === undefined ? {} : { prefix: options.prefix };
  const sessions = new RedisSessionStore(client, {
    ...keys,
    ...(options.recordCacheMs === undefined ? {} : { recordCacheMs: options.recordCacheMs }),
  });
  const bus = new RedisMessageBus(client, { ...keys, onError });
  const eventStore = new RedisEventStore(client, {
    ...keys,
    ...(options.maxEventsPerStream === undefined ? {} : { maxEventsPerStream: options.maxEventsPerStream }),
    ...(options.streamTtlMs === undefined ? {} : { streamTtlMs: options.streamTtlMs }),
  });
  const tasks = new RedisTaskStore(client, bus, {
    ...keys,
    onError,
    ...(options.taskLeaseMs === undefined ? {} : { leaseMs: options.taskLeaseMs }),
  });
  await tasks.start();
  const leases = new RedisRequestLeases(client, {
    ...keys,
    onError,
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.renewMs === undefined ? {} : { renewMs: options.renewMs }),
    ...(options.streamTtlMs === undefined ? {} : { requestsTtlMs: options.streamTtlMs }),
  });
  const close = async (): Promise<void> => {
    await leases.close();
    await tasks.close();
    await bus.close();
    if (owned?.isOpen) owned.destroy();
  };
  const requestStateKeys = (): Promise<string[]> => loadRequestStateKeys(client, keys);
  return { sessions, bus, eventStore, tasks, leases, requestStateKeys, close, [Symbol.asyncDispose]: close };
}
