// @mcpwire/redis: mcpwire's session store, message bus and event store on Redis (issue 24).

export { RedisSessionStore } from './redis-session-store.ts';
export type { RedisConnection } from './redis-connection.ts';
export type { KeyOptions } from './keys.ts';
export { RedisMessageBus, type RedisMessageBusOptions } from './redis-message-bus.ts';
export { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.ts';
export type { RedisPublisher, RedisSubscriber } from './redis-connection.ts';
