// The Redis key layout (docs/design.md, "Many nodes on Redis"): every key of one session carries the
// `{<sessionId>}` hash tag, so the keys of a session share a Redis Cluster slot; the caps' index keys
// share the `{sessions}` tag, so the index is one slot too.

/** A prefix of every key; `mcp` unless the caller chose another (two servers on one Redis). */
export interface KeyOptions {
  readonly prefix?: string;
}

/** What Redis Cluster hashes instead of the whole name: the text between the first `{` and the next `}`. */
const HASH_TAG = /^[^{]*\{[^}]+\}/;

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

  /**
   * The caps' index: every session id, scored by when it expires (lastActiveAt + idle timeout): the
   * global cap. In the `{sessions}` slot with the other index keys, never with a session's keys.
   */
  get allSessions(): string {
    return `${this.prefix}:{sessions}:all`;
  }

  /** The caps' index: one client key's sessions, scored as `allSessions`: the per-client cap. */
  clientSessions(clientKey: string): string {
    return `${this.prefix}:{sessions}:client:${encodeURIComponent(clientKey)}`;
  }

  /**
   * The caps' index: a hash from session id to `<idle ms>|<its clientSessions key>` (either part
   * may be empty), so the index renews a score and forgets a session without reading its hash.
   */
  get sessionIndexMeta(): string {
    return `${this.prefix}:{sessions}:meta`;
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

  /** A task's record: a hash (`record` JSON, `rev`, `status`) under the `{task:<id>}` hash tag. */
  task(id: string): string {
    return `${this.prefix}:{task:${id}}:task`;
  }

  /** The lease of a task's worker (its holder's id, with PX): in the task's slot. */
  taskLease(id: string): string {
    return `${this.prefix}:{task:${id}}:lease`;
  }

  /** One requestor's task ids (a sorted set scored by creation time), for `tasks/list`. */
  requestorTasks(requestor: string): string {
    return `${this.prefix}:tasks:${encodeURIComponent(requestor)}`;
  }

  /**
   * One requestor's task ids that are not terminal (a sorted set), for `maxTasksPerRequestor` over
   * every node: one key, so its check-and-add is one script in one Cluster slot.
   */
  requestorActive(requestor: string): string {
    return `${this.prefix}:active-tasks:${encodeURIComponent(requestor)}`;
  }

  /** A bus topic's pub/sub channel. */
  topic(topic: string): string {
    return `${this.prefix}:bus:${topic}`;
  }

  /**
   * A bus topic's replay log (a Stream of its recent messages, bus-log.ts), in its channel's Cluster
   * slot: the publish script appends to it and publishes in one step. A channel without a hash tag is
   * hashed whole, so the log's tag is the whole channel name.
   */
  topicLog(topic: string): string {
    const channel = this.topic(topic);
    return HASH_TAG.test(channel) ? `${channel}:log` : `{${channel}}:log`;
  }
}
