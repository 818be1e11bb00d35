// Where task records live: the TaskStore contract (async, records are plain JSON, so a durable store
// such as Redis drops in) and the in-memory default.

import { isVisibleTo, type TaskRecord } from './task-record.ts';

/** One page of `list`. */
export interface TaskPage {
  records: TaskRecord[];
  /** Present when more records follow; opaque to callers (TASK-16). */
  nextCursor?: string;
}

/**
 * A place to keep task records. Every method is async and every record crosses it by value (a
 * store never hands out an object it keeps), so an implementation may serialise them.
 */
export interface TaskStore {
  /** Stores a new record; resolves once a `get` anywhere would see it (S26-TASK-6: durably created). */
  create(record: TaskRecord): Promise<void>;
  /**
   * Optional: creates the record only if its requestor (its `owner`, else its `session`, else
   * nobody in particular) has fewer than `limit` records that are not terminal, counted over every
   * process sharing the store, as one atomic check-and-create; resolves false, creating nothing, at
   * the limit. A runner whose store has it counts `maxTasksPerRequestor` there, not per process.
   */
  createWithin?(record: TaskRecord, limit: number): Promise<boolean>;
  /** The record, or undefined if unknown or deleted. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Atomically reads, changes and writes a record: `change` gets a copy and returns the new record,
   * or undefined to leave it as it is. Resolves with the record as stored afterwards (undefined if
   * there is none). `change` may be called more than once by a store that retries on conflict.
   */
  update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>;
  /** Removes a record; a no-op for an unknown id. */
  delete(taskId: string): Promise<void>;
  /**
   * Records whose `owner` and `session` equal the given ones (undefined: records without one), in
   * creation order; `cursor` is a `nextCursor` of an earlier page. Resolves undefined for a cursor
   * this store did not make.
   */
  list(options: {
    owner: string | undefined;
    session?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  }): Promise<TaskPage | undefined>;
  /**
   * Optional: calls `listener` after every change of the record (undefined once deleted), from any
   * process sharing the store (a Redis store would use pub/sub). Returns the unsubscribe function.
   * Without it, a runner sees only the changes made through itself.
   */
  watch?(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void;
  /**
   * Optional, for a shared store: calls `listener` with a task this process has just claimed (one
   * fenced transition, so exactly one process claims it) because its worker died and its `rerun`
   * allows another run; the runner then runs the task's request again here. Returns the unsubscribe.
   * A store with no listener never claims: it fails such a task as it fails any other.
   */
  onRerun?(listener: (record: TaskRecord) => void): () => void;
  /**
   * True for a store other processes change too (Redis): a runner then watches each task it runs,
   * and aborts the work when the task ends elsewhere (cancelled through another node, or failed
   * because this process lost its lease). Requires `watch`.
   */
  readonly shared?: boolean;
}

/** The default store: a Map in this process. Records are copied in and out, as a durable store would. */
export class MemoryTaskStore implements TaskStore {
  #records = new Map<string, TaskRecord>();
  #watchers = new Map<string, Set<(record: TaskRecord | undefined) => void>>();

  create(record: TaskRecord): Promise<void> {
    if (this.#records.has(record.taskId))
      return Promise.reject(new Error(`Task "${record.taskId}" already exists`));
    this.#records.set(record.taskId, structuredClone(record));
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#records.get(taskId);
    return Promise.resolve(record && structuredClone(record));
  }

  update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    const current = this.#records.get(taskId);
    if (!current) return Promise.resolve(undefined);
    const next = change(structuredClone(current));
    if (next === undefined) return Promise.resolve(structuredClone(current));
    this.#records.set(taskId, structuredClone(next));
    this.#notify(taskId, next);
    return Promise.resolve(structuredClone(next));
  }

  delete(taskId: string): Promise<void> {
    if (this.#records.delete(taskId)) this.#notify(taskId, undefined);
    return Promise.resolve();
  }

  list(options: {
    owner: string | undefined;
    session?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  }): Promise<TaskPage | undefined> {
    const all = [...this.#records.values()].filter((record) => isVisibleTo(record, options));
    let start = 0;
    if (options.cursor !== undefined) {
      // The cursor is the id of the last record of the previous page.
      const index = all.findIndex((record) => record.taskId === options.cursor);
      if (index === -1) return Promise.resolve(undefined);
      start = index + 1;
    }
    const page = all.slice(start, start + options.limit).map((record) => structuredClone(record));
    const last = page.at(-1);
    return Promise.resolve(
      start + options.limit < all.length && last
        ? { records: page, nextCursor: last.taskId }
        : { records: page },
    );
  }

  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    let set = this.#watchers.get(taskId);
    if (!set) this.#watchers.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#watchers.delete(taskId);
    };
  }

  /** Number of records kept (for tests and metrics). */
  get size(): number {
    return this.#records.size;
  }

  #notify(taskId: string, record: TaskRecord | undefined): void {
    const set = this.#watchers.get(taskId);
    if (!set) return;
    for (const listener of [...set]) listener(record && structuredClone(record));
  }
}
