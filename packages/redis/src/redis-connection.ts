// The few Redis commands the stores send, as structural types: a node-redis client satisfies them,
// and the stores do not depend on the client's generic parameters (modules, RESP version).

/** What the stores need of a node-redis client (`createClient()` or one of its `duplicate()`s). */
export interface RedisConnection {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  sendCommand(args: string[]): Promise<unknown>;
}

/** A connection in subscriber mode (RedisMessageBus's own, made by `duplicate()`): a client or a cluster. */
export interface RedisSubscriber {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** A client's connection is ready (again, resubscribed). */
  on(event: 'ready', listener: () => void): unknown;
  /** A cluster node's connection is ready (again, resubscribed); with the node (`{ host, port }`). */
  on(event: 'node-ready', listener: (node: unknown) => void): unknown;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Sharded pub/sub (Redis 7), what the bus uses on a Redis Cluster. */
  sSubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  sUnsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  destroy(): void;
}

/**
 * A connection the bus can publish on and make its subscriber from. `duplicate()` returns a client
 * of the same kind, read as a RedisSubscriber (node-redis's generic client type does not compare
 * structurally with it under exactOptionalPropertyTypes).
 */
export interface RedisPublisher extends RedisConnection {
  duplicate(): unknown;
}
