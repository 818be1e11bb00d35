// The few Redis commands the stores send, as a structural type: a node-redis client satisfies it,
// and the stores do not depend on the client's generic parameters.

/** What the stores need of a node-redis client (`createClient()` or one of its `duplicate()`s). */
export interface RedisConnection {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
}
