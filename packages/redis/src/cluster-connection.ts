// A node-redis Redis Cluster client (`createCluster`) seen as the stores' RedisPublisher (issue 24):
// every command the stores send names the key that routes it, so it goes to that key's slot's master.

import type { RedisPublisher } from './redis-connection.ts';

/** What the stores need of a node-redis cluster client; `createCluster()` satisfies it. */
export interface RedisClusterClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  duplicate(): unknown;
}

/** A RedisPublisher over a cluster; `isCluster` tells the bus to use sharded pub/sub. */
export interface ClusterPublisher extends RedisPublisher {
  readonly isCluster: true;
}

/**
 * The cluster as the stores' connection. A script is routed by its first key (every script of the
 * stores touches keys of one slot only); `sendCommand(args)` by `args[1]`, the key (or the sharded
 * channel) of each command the stores send that way (`DEL`, `SPUBLISH`...). `duplicate()` is a
 * cluster client of its own, for the bus's subscriptions. The cluster stays the caller's.
 */
export function clusterConnection(cluster: RedisClusterClient): ClusterPublisher {
  return {
    isCluster: true,
    eval: (script, options) => cluster.eval(script, options),
    hGetAll: (key) => cluster.hGetAll(key),
    sendCommand: (args) => cluster.sendCommand(args[1], false, args),
    duplicate: () => cluster.duplicate(),
  };
}

/** Whether `connection` is a cluster's (clusterConnection's). */
export function isCluster(connection: RedisPublisher): connection is ClusterPublisher {
  return (connection as Partial<ClusterPublisher>).isCluster === true;
}
