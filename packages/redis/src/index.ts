// @mcpwire/redis: mcpwire's session store, message bus and event store on Redis or a Redis Cluster
// (issue 24), so one MCP server runs on many nodes behind any balancer:
// `createHttpHandler(server, await createRedisStores({ url }))` (or `{ clusterUrls }`, `{ cluster }`).

export {
  createRedisStores,
  DEFAULT_COMMAND_TIMEOUT_MS,
  type RedisStores,
  type RedisStoresOptions,
} from './create-redis-stores.ts';
export { RedisSessionStore } from './redis-session-store.ts';
export { RedisMessageBus, type RedisMessageBusOptions } from './redis-message-bus.ts';
export { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.ts';
export {
  DEFAULT_TASK_LEASE_MS,
  RedisTaskStore,
  TASK_CHANGED_TOPIC,
  type RedisTaskStoreOptions,
} from './redis-task-store.ts';
export { RERUN_MESSAGE, WORKER_LOST_MESSAGE } from './lost-task.ts';
export { RedisRequestLeases, type RedisRequestLeasesOptions } from './request-leases.ts';
export type { RedisConnection, RedisPublisher, RedisSubscriber } from './redis-connection.ts';
export { clusterConnection, type ClusterPublisher, type RedisClusterClient } from './cluster-connection.ts';
export { loadRequestStateKeys } from './request-state-keys.ts';
export type { KeyOptions } from './keys.ts';
