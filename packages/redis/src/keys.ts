// The Redis key layout (docs/design.md, "Many nodes on Redis"): every key of one session carries the
// `{<sessionId>}` hash tag, so the keys of a session share a Redis Cluster slot.

/** A prefix of every key; `mcp` unless the caller chose another (two servers on one Redis). */
export interface KeyOptions {
  readonly prefix?: string;
}

/** The names of the keys a store uses, under one prefix. */
export class RedisKeys {
  readonly prefix: string;

  constructor(options: KeyOptions = {}) {
    this.prefix = options.prefix ?? 'mcp';
  }

  /** The session's record: a hash, one field per record property (its value as JSON). */
  session(id: string): string {
    return `${this.prefix}:{${id}}:session`;
  }

  /** Every session, scored by when it expires (lastActiveAt + idle timeout): the global cap. */
  get allSessions(): string {
    return `${this.prefix}:sessions`;
  }

  /** One client key's sessions, scored as `allSessions`: the per-client cap. */
  clientSessions(clientKey: string): string {
    return `${this.prefix}:client:${encodeURIComponent(clientKey)}:sessions`;
  }

  /** One resumable SSE stream's events (a Redis Stream). */
  events(streamId: string): string {
    return `${this.prefix}:{${streamId}}:events`;
  }

  /**
   * The lease on the requests of one SSE stream (request-leases.ts): `alive`, a string with a short
   * expiry renewed by the node running them; `requests`, their ids as JSON, until answered or claimed.
   */
  requestLease(streamId: string, part: 'alive' | 'requests'): string {
    return `${this.prefix}:{${streamId}}:lease:${part}`;
  }

  /** The requestState key ring: a list, the first key signs, all verify (request-state-keys.ts). */
  get requestStateKeys(): string {
    return `${this.prefix}:request-state-keys`;
  }

  /** A bus topic's pub/sub channel. */
  topic(topic: string): string {
    return `${this.prefix}:bus:${topic}`;
  }
}
