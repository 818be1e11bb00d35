// Task records in Redis (issue 24): mcpwire's TaskStore seam, so a task created through one node is
// read, listed, cancelled and awaited through any. A hash per task, fenced writes (Lua), expiry at
// the task's ttl, a lease its worker renews, and every change published on the bus.

import type { TaskPage, TaskRecord, TaskStore } from 'mcpwire/extensions/tasks';
import type { JsonObject } from 'mcpwire';
import type { MessageBus } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import type { RedisConnection } from './redis-connection.ts';
import {
  CREATE_TASK,
  DELETE_TASK,
  INDEX_TASK,
  READ_TASK,
  RENEW_LEASE,
  RESERVE_TASK,
  UPDATE_TASK,
} from './task-scripts.ts';
import { toLost, toRerun } from './lost-task.ts';
import { listPage, requestorOf, type ListOptions } from './task-list.ts';
import { orUnavailable } from './unavailable.ts';

/** The bus topic of task changes: `{ taskId, record }` (record null once deleted). */
export const TASK_CHANGED_TOPIC = 'mcpwire/task-changed';

/** The default lease of a task's worker (ms): a task whose worker stopped is failed this long after. */
export const DEFAULT_TASK_LEASE_MS = 10_000;

/** Rounds of a fenced write that lost to another writer before `update` gives up. */
const MAX_UPDATE_ROUNDS = 32;

/** Options of a RedisTaskStore. */
export interface RedisTaskStoreOptions extends KeyOptions {
  /** How long a worker's lease lasts without renewal (ms); renewed every third of it. Default 10 s. */
  readonly leaseMs?: number;
  /** Renewals and bus messages that failed (never thrown). */
  readonly onError?: (error: Error) => void;
}

type Listener = (record: TaskRecord | undefined) => void;

function isTerminal(status: string | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * A TaskStore on Redis. `mcp:{task:<id>}:task` is a hash (`record` JSON, `rev`, `status`) expiring
 * at the task's ttl; `mcp:{task:<id>}:lease` is its worker's lease. `create` takes the lease for
 * this store: it renews the lease of every task it created until the task is terminal, so the
 * process holding the store is the task's worker (mcpwire's TaskRunner runs a task where it creates
 * it). `update` reads, applies the change and writes only if the task is still at the revision and
 * status it read (UPDATE_TASK), reading again when another node wrote first; a terminal task is
 * never written again. A task that is not terminal and whose lease is gone (its worker's process
 * died) is failed with WORKER_LOST_MESSAGE (lost-task.ts) by the first read that finds it so, on any
 * node, or, when its `rerun` has runs left and a runner listens (`onRerun`), claimed by that node,
 * which takes the lease in the same fenced script and runs it again; watched tasks are read every
 * half lease, so waiters see it too. Every write publishes the record
 * on the bus topic {@link TASK_CHANGED_TOPIC}, which `watch` listens to. `list` keeps one sorted set
 * per requestor (principal or session); tasks created by nobody in particular are listed to no one.
 * Call `start()` before use (it subscribes to the bus) and `close()` to stop renewing.
 */
export class RedisTaskStore implements TaskStore, AsyncDisposable {
  readonly shared = true;
  readonly leaseMs: number;
  readonly #redis: RedisConnection;
  readonly #bus: MessageBus;
  readonly #keys: RedisKeys;
  readonly #onError: (error: Error) => void;
  /** This store's lease holder id. */
  readonly #holder = crypto.randomUUID();
  /** Tasks this store leases (it created them and they are not terminal). */
  readonly #held = new Set<string>();
  readonly #watchers = new Map<string, Set<Listener>>();
  #onRerun: ((record: TaskRecord) => void) | undefined;
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  #checkTimer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(redis: RedisConnection, bus: MessageBus, options: RedisTaskStoreOptions = {}) {
    this.#redis = redis;
    this.#bus = bus;
    this.#keys = new RedisKeys(options);
    this.leaseMs = Math.max(30, options.leaseMs ?? DEFAULT_TASK_LEASE_MS);
    this.#onError = options.onError ?? (() => {});
  }

  /** Subscribes to the task changes of every node; resolves once Redis confirmed it. Idempotent. */
  async start(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.#bus.subscribe(TASK_CHANGED_TOPIC, (message) => {
      const taskId = message.taskId;
      if (typeof taskId !== 'string') return;
      const record = (message.record ?? undefined) as TaskRecord | undefined;
      if (record === undefined || isTerminal(record.status)) this.#held.delete(taskId);
      this.#deliver(taskId, record);
    });
  }

  async create(record: TaskRecord): Promise<void> {
    const keys = [this.#keys.task(record.taskId), this.#keys.taskLease(record.taskId)];
    const expireAt = record.ttlMs === null ? '' : String(record.createdAt + record.ttlMs + 1);
    const args = [JSON.stringify(record), record.status, expireAt, String(this.leaseMs), this.#holder];
    if ((await this.#eval(CREATE_TASK, keys, args)) !== 1)
      throw new Error(`Task "${record.taskId}" already exists`);
    this.#publish(record.taskId, record);
    if (!isTerminal(record.status)) this.#hold(record.taskId);
    const requestor = requestorOf(record);
    if (requestor !== undefined)
      await this.#eval(
        INDEX_TASK,
        [this.#keys.requestorTasks(requestor)],
        [String(record.createdAt), record.taskId, expireAt],
      );
  }

  /**
   * `create` within `limit` tasks of the record's requestor that are not terminal, on every node:
   * RESERVE_TASK checks and adds the id in one script; at the limit, the ids of tasks that ended or
   * are gone (a delete, a ttl, a node that died between its terminal write and the removal) are
   * dropped once and the check runs again.
   */
  async createWithin(record: TaskRecord, limit: number): Promise<boolean> {
    const active = this.#activeKey(record);
    const expireAt = record.ttlMs === null ? '' : String(record.createdAt + record.ttlMs + 1);
    const args = [String(limit), record.taskId, String(record.createdAt), expireAt];
    let isReserved = (await this.#eval(RESERVE_TASK, [active], args)) === 1;
    if (!isReserved && (await this.#pruneActive(active)))
      isReserved = (await this.#eval(RESERVE_TASK, [active], args)) === 1;
    if (!isReserved) return false;
    try {
      await this.create(record);
    } catch (error) {
      await this.#redis.sendCommand(['ZREM', active, record.taskId]).catch(() => {});
      throw error;
    }
    return true;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const read = await this.#read(taskId);
    if (read === undefined) return undefined;
    if (read.hasLease || isTerminal(read.status)) return read.record;
    // Not terminal and nobody renews it: its worker is gone. Fail it (fenced: only if still so).
    return this.#failLost(taskId);
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let round = 0; round < MAX_UPDATE_ROUNDS; round++) {
      const read = await this.#read(taskId);
      if (read === undefined) return undefined;
      // TASK-7: a terminal task never changes again, whatever the change would make of it.
      if (isTerminal(read.status)) return read.record;
      const next = change(structuredClone(read.record));
      if (next === undefined) return read.record;
      const outcome = await this.#write(taskId, read, next, 'held');
      if (outcome === 1) return next;
      if (outcome === -1) return undefined;
      // 0: another node wrote first; -2: it is terminal now. Read again: `change` judges the new state.
    }
    throw new Error(`Task "${taskId}": other nodes kept changing it over ${MAX_UPDATE_ROUNDS} rounds`);
  }

  async delete(taskId: string): Promise<void> {
    this.#release(taskId);
    const existed = await this.#eval(
      DELETE_TASK,
      [this.#keys.task(taskId), this.#keys.taskLease(taskId)],
      [],
    );
    if (existed === 1) this.#publish(taskId, undefined);
  }

  list(options: ListOptions): Promise<TaskPage | undefined> {
    const requestor = requestorOf(options);
    if (requestor === undefined)
      return Promise.resolve(options.cursor === undefined ? { records: [] } : undefined);
    return listPage(this.#redis, this.#keys.requestorTasks(requestor), options, (id) => this.get(id));
  }

  /** Claims re-runnable tasks of dead workers for `listener` (one listener: its runner). */
  onRerun(listener: (record: TaskRecord) => void): () => void {
    this.#onRerun = listener;
    return () => {
      if (this.#onRerun === listener) this.#onRerun = undefined;
    };
  }

  watch(taskId: string, listener: Listener): () => void {
    let set = this.#watchers.get(taskId);
    if (!set) this.#watchers.set(taskId, (set = new Set()));
    set.add(listener);
    this.#checkTimer ??= unref(setInterval(() => void this.#checkWatched(), this.leaseMs / 2));
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#watchers.get(taskId) === set) this.#watchers.delete(taskId);
      if (this.#watchers.size === 0 && this.#checkTimer !== undefined) {
        clearInterval(this.#checkTimer);
        this.#checkTimer = undefined;
      }
    };
  }

  /** Stops renewing leases (the tasks still held fail a lease later) and leaves the bus topic. */
  close(): Promise<void> {
    clearInterval(this.#renewTimer);
    clearInterval(this.#checkTimer);
    this.#renewTimer = this.#checkTimer = undefined;
    this.#held.clear();
    this.#watchers.clear();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #read(
    taskId: string,
  ): Promise<{ record: TaskRecord; rev: string; status: string; hasLease: boolean } | undefined> {
    const [json, rev, status, lease] = (await this.#eval(
      READ_TASK,
      [this.#keys.task(taskId), this.#keys.taskLease(taskId)],
      [],
    )) as [string | null, string | null, string | null, number];
    if (json === null || rev === null || status === null) return undefined;
    return { record: JSON.parse(json) as TaskRecord, rev, status, hasLease: lease === 1 };
  }

  /**
   * One fenced write (UPDATE_TASK's reply); a terminal one stops this store renewing the lease.
   * `lease`: 'lost' when the lease must be gone, 'claim' when it must be gone and this store takes it.
   */
  async #write(
    taskId: string,
    read: { rev: string; status: string },
    next: TaskRecord,
    lease: 'held' | 'lost' | 'claim',
  ): Promise<number> {
    const claim = lease === 'claim' ? [this.#holder, String(this.leaseMs)] : ['', ''];
    const outcome = (await this.#eval(
      UPDATE_TASK,
      [this.#keys.task(taskId), this.#keys.taskLease(taskId)],
      [read.rev, read.status, JSON.stringify(next), next.status, lease === 'held' ? '0' : '1', ...claim],
    )) as number;
    if (outcome === 1) this.#publish(taskId, next);
    if (outcome === 1 && isTerminal(next.status)) {
      this.#release(taskId);
      // Frees its requestor's place; a node dying before this leaves an id the next prune drops.
      void this.#redis
        .sendCommand(['ZREM', this.#activeKey(next), taskId])
        .catch((error: unknown) => this.#onError(asError(error)));
    }
    return outcome;
  }

  /** The active set of a record's requestor (requestorKey's form: `anonymous` for nobody in particular). */
  #activeKey(record: TaskRecord): string {
    return this.#keys.requestorActive(requestorOf(record) ?? 'anonymous');
  }

  /** Drops the ids of `active` whose tasks are terminal or gone; resolves true if it dropped any. */
  async #pruneActive(active: string): Promise<boolean> {
    const ids = (await this.#redis.sendCommand(['ZRANGE', active, '0', '-1'])) as string[];
    // Read together: the client pipelines them, so a refusal at the cap costs one round trip of
    // reads, not one per id (up to maxTasksPerRequestor of them).
    const records = await Promise.all(ids.map((taskId) => this.get(taskId)));
    const ended = ids.filter((_taskId, index) => {
      const record = records[index];
      return record === undefined || isTerminal(record.status);
    });
    if (ended.length > 0) await this.#redis.sendCommand(['ZREM', active, ...ended]);
    return ended.length > 0;
  }

  /**
   * Settles a task whose lease is gone, unless it changed meanwhile: claims it for a re-run here when
   * its `rerun` allows another run and a runner listens (the claim takes the lease in the same
   * fenced script, so one node re-runs it), else fails it. Resolves with the record as it is.
   */
  async #failLost(taskId: string): Promise<TaskRecord | undefined> {
    for (let round = 0; round < MAX_UPDATE_ROUNDS; round++) {
      const read = await this.#read(taskId);
      if (read === undefined) return undefined;
      if (read.hasLease || isTerminal(read.status)) return read.record;
      const rerun = read.record.rerun;
      const isClaim = rerun !== undefined && rerun.runs < rerun.maxRuns && this.#onRerun !== undefined;
      const next = isClaim ? toRerun(read.record) : toLost(read.record);
      const outcome = await this.#write(taskId, read, next, isClaim ? 'claim' : 'lost');
      if (outcome === 1 && isClaim) {
        this.#hold(taskId);
        this.#onRerun?.(structuredClone(next));
      }
      if (outcome === 1) return next;
      if (outcome === -1) return undefined;
    }
    throw new Error(`Task "${taskId}": other nodes kept changing it over ${MAX_UPDATE_ROUNDS} rounds`);
  }

  #hold(taskId: string): void {
    this.#held.add(taskId);
    this.#renewTimer ??= unref(setInterval(() => void this.#renew(), this.leaseMs / 3));
  }

  #release(taskId: string): void {
    this.#held.delete(taskId);
    if (this.#held.size === 0 && this.#renewTimer !== undefined) {
      clearInterval(this.#renewTimer);
      this.#renewTimer = undefined;
    }
  }

  async #renew(): Promise<void> {
    await Promise.all(
      [...this.#held].map(async (taskId) => {
        try {
          const kept = await this.#redis.eval(RENEW_LEASE, {
            keys: [this.#keys.taskLease(taskId)],
            arguments: [this.#holder, String(this.leaseMs)],
          });
          // Lost (the task ended elsewhere, or Redis let the lease lapse): nothing left to renew.
          if (kept !== 1) this.#release(taskId);
        } catch (error) {
          this.#onError(asError(error));
        }
      }),
    );
  }

  /** Reads each watched task: a lost worker's task is failed (and published), a vanished one told. */
  async #checkWatched(): Promise<void> {
    await Promise.all(
      [...this.#watchers.keys()].map(async (taskId) => {
        try {
          if ((await this.get(taskId)) === undefined) this.#deliver(taskId, undefined);
        } catch (error) {
          this.#onError(asError(error));
        }
      }),
    );
  }

  #deliver(taskId: string, record: TaskRecord | undefined): void {
    const set = this.#watchers.get(taskId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(record && structuredClone(record));
      } catch (error) {
        this.#onError(asError(error));
      }
    }
  }

  /**
   * Tells every store of the change a script just wrote (at most once, as the bus does: a store
   * waiting on a task also reads it every half lease).
   */
  #publish(taskId: string, record: TaskRecord | undefined): void {
    const message = { taskId, record: (record ?? null) as unknown as JsonObject | null };
    try {
      const pending = this.#bus.publish(TASK_CHANGED_TOPIC, message);
      if (pending instanceof Promise) pending.catch((error: unknown) => this.#onError(asError(error)));
    } catch (error) {
      this.#onError(asError(error));
    }
  }

  #eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return orUnavailable('task store', () => this.#redis.eval(script, { keys, arguments: args }));
  }
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
