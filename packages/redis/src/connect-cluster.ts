// Connecting to a Redis Cluster from its nodes' URLs (createRedisStores' `clusterUrls`, the CLI's
// --redis-cluster): node-redis's createCluster, with the credentials every discovered node needs.

import { createCluster } from 'redis';
import type { RedisClusterClient } from './cluster-connection.ts';

/** A connected cluster client the stores own: they end it with `destroy()`. */
export interface OwnedCluster extends RedisClusterClient {
  readonly isOpen: boolean;
  destroy(): void;
}

/**
 * Connects a cluster client to the cluster that `urls` (redis:// or rediss://, at least one) belong
 * to: they are the root nodes it discovers the slots from; the nodes it discovers get the first URL's
 * user, password and TLS. No offline queue, as for one Redis: while a slot's master is unreachable a
 * command for it fails at once (503) instead of waiting, and a slow one after `commandOptions.timeout`.
 * Rejects when no root node answers.
 */
export async function connectCluster(
  urls: readonly string[],
  onError: (error: Error) => void,
  commandOptions: { readonly timeout: number; readonly rejectInFlight: boolean },
): Promise<OwnedCluster> {
  const first = urls[0];
  if (first === undefined) throw new Error('A Redis Cluster needs the URL of at least one of its nodes');
  const { username, password, protocol } = new URL(first);
  const cluster = createCluster({
    rootNodes: urls.map((url) => ({ url })),
    commandOptions,
    defaults: {
      disableOfflineQueue: true,
      ...(username === '' ? {} : { username: decodeURIComponent(username) }),
      ...(password === '' ? {} : { password: decodeURIComponent(password) }),
      ...(protocol === 'rediss:' ? { socket: { tls: true } } : {}),
    },
  });
  cluster.on('error', onError);
  cluster.on('node-error', onError);
  await cluster.connect();
  return cluster;
}
