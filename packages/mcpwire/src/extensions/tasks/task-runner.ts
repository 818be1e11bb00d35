// The receiver's task engine, the same for a Server (tools/call) and a Client (elicitation, sampling):
// it creates a record, runs the work in the background, owns every status move, input rounds, ttl
// expiry and cancellation, and reads time only from its TaskClock.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import { systemClock, type TaskClock } from './task-clock.ts';
import { Control, TaskEndedError } from './task-control.ts';
import {
  isExpired,
  isTerminal,
  isVisibleTo,
  requestorKey,
  withAnswers,
  withStatus,
  type TaskError,
  type TaskRecord,
  type TaskRequestor,
} from './task-record.ts';
import {
  cappedTtl,
  tooManyTasks,
  withOutcome,
  type CancelOutcome,
  type StartTaskOptions,
  type TaskOutcome,
  type TaskRerunner,
  type TaskRunnerOptions,
  type TaskWork,
} from './task-work.ts';
import { MemoryTaskStore, type TaskPage, type TaskStore } from './task-store.ts';

/**
 * Runs tasks. Records live in the store; what lives only here is the running work of this process
 * (its abort controllers, input waiters and expiry timers), released by `close`.
 */
export class TaskRunner {
  #store: TaskStore;
  readonly clock: TaskClock;
  readonly pollIntervalMs: number;
  readonly #options: TaskRunnerOptions;
  /** The work running in this process, by task, with the requestor it counts against. */
  readonly #running = new Map<string, { controller: AbortController; owner: string }>();
  /** Tasks in `#running` per requestor key (TASK-21). */
  readonly #activeByOwner = new Map<string, number>();
  readonly #timers = new Map<string, unknown>();
  readonly #listeners = new Set<(taskId: string, record: TaskRecord | undefined) => void>();
  readonly #local = new Map<string, Set<(record: TaskRecord | undefined) => void>>();
  /** With a shared store: the watch of each task this process runs, until it is terminal. */
  readonly #following = new Map<string, () => void>();
  /** How a claimed task's request runs again, by request method (`setRerunner`). */
  readonly #rerunners = new Map<string, TaskRerunner>();
  #stopClaims: (() => void) | undefined;

  constructor(options: TaskRunnerOptions = {}) {
    this.#options = options;
    this.#store = options.store ?? new MemoryTaskStore();
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
  }

  /**
   * Says how a task of `requestMethod` with a `rerun` runs again: a shared store's claim of one whose
   * worker died (TaskStore.onRerun) then runs it here. Without a rerunner the store fails such tasks.
   */
  setRerunner(requestMethod: string, rerunner: TaskRerunner): void {
    this.#rerunners.set(requestMethod, rerunner);
    this.#listenForClaims();
  }

  /** Where the records live (the `store` option, or one given later to `useStore`). */
  get store(): TaskStore {
    return this.#store;
  }

  /**
   * Moves the runner to another store before it runs anything (e.g. `@mcpwire/redis`'s task store,
   * given by `serve --redis` to a server built elsewhere). Throws while tasks of this process run.
   */
  useStore(store: TaskStore): void {
    if (this.#running.size > 0)
      throw new TypeError('TaskRunner.useStore: tasks are running on the current store');
    this.#stopClaims?.();
    this.#stopClaims = undefined;
    this.#store = store;
    this.#listenForClaims();
  }

  /**
   * Calls `listener` on every later change of the task (undefined: deleted): through the store's
   * watch, which sees changes made by other processes on a shared store, else this runner's own.
   * Returns the unsubscribe function.
   */
  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    return this.#watch(taskId, listener);
  }

  /**
   * Creates a task in `working` (TASK-7), resolves with its record once the store has it (S26-TASK-6),
   * and runs `work` in the background. The record's `ttlMs` is what will be honoured (TASK-10).
   * Rejects with RpcError TOO_MANY_TASKS when the owner is at `maxTasksPerRequestor` (over every
   * process sharing the store when it has `createWithin`, else in this one).
   */
  async start(work: TaskWork, options: StartTaskOptions): Promise<TaskRecord> {
    const owner = requestorKey(options);
    const active = this.#activeByOwner.get(owner) ?? 0;
    const limit = this.#options.maxTasksPerRequestor ?? 100;
    // A store shared by processes counts across them (createWithin); else this process counts.
    const isCountedByStore = this.store.createWithin !== undefined;
    if (active >= limit && !isCountedByStore) throw tooManyTasks(limit);
    const now = this.clock.now();
    const record: TaskRecord = {
      taskId: this.#options.createId?.() ?? crypto.randomUUID(),
      status: 'working',
      era: options.era,
      requestMethod: options.requestMethod,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: cappedTtl(options.ttlMs, this.#options),
      pollIntervalMs: this.pollIntervalMs,
    };
    if (options.owner !== undefined) record.owner = options.owner;
    else if (options.session !== undefined) record.session = options.session;
    if (options.rerun !== undefined)
      record.rerun = { ...options.rerun, runs: 1, maxRuns: this.#options.maxTaskRuns ?? 3 };
    const controller = new AbortController();
    // The slot is taken before the store's await, so concurrent starts cannot pass the limit.
    this.#running.set(record.taskId, { controller, owner });
    this.#activeByOwner.set(owner, active + 1);
    try {
      if (!isCountedByStore) await this.store.create(record);
      else if (!(await this.store.createWithin!(record, limit))) throw tooManyTasks(limit);
    } catch (error) {
      this.#release(record.taskId);
      throw error;
    }
    this.#launch(record, work, controller);
    return record;
  }

  /**
   * The record, or undefined if unknown, expired (then deleted) or not visible to `requestor`
   * (TASK-19; default: the requestor without principal or session).
   */
  async get(taskId: string, requestor: TaskRequestor = {}): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    if (!record || !isVisibleTo(record, requestor)) return undefined;
    if (isExpired(record, this.clock.now())) {
      await this.#expire(taskId);
      return undefined;
    }
    return record;
  }

  /**
   * The records visible to the requestor `owner` and `session` (undefined: the tasks created without
   * one), a page at a time, as `get` would show them (TASK-16/19); undefined for a cursor the store
   * did not make.
   */
  list(options: TaskRequestor & { cursor?: string; limit?: number } = {}): Promise<TaskPage | undefined> {
    return this.store.list({
      owner: options.owner,
      session: options.session,
      cursor: options.cursor,
      limit: options.limit ?? 50,
    });
  }

  /**
   * Cancels a task that is not terminal: `cancelled` is stored before this resolves and stays even if
   * the work completes later (TASK-17); the work's signal aborts. Undefined for an unknown task.
   */
  async cancel(
    taskId: string,
    requestor: TaskRequestor = {},
    statusMessage?: string,
  ): Promise<CancelOutcome | undefined> {
    if (!(await this.get(taskId, requestor))) return undefined;
    let wasTerminal = false;
    const record = await this.#move(taskId, (current) => {
      wasTerminal = isTerminal(current.status);
      if (wasTerminal) return undefined;
      delete current.inputRequests;
      delete current.inputResponses;
      return withStatus(
        current,
        'cancelled',
        statusMessage ?? 'Cancelled by the requestor',
        this.clock.now(),
      );
    });
    if (!record) return undefined;
    if (!wasTerminal) this.#stop(taskId, new TaskEndedError(taskId, 'cancelled'));
    return { record, wasTerminal };
  }

  /**
   * Delivers input responses (S26-TASK-10): keys not outstanding are ignored; a partial set leaves
   * the task `input_required` with the rest. Undefined for an unknown task.
   */
  async answer(
    taskId: string,
    responses: Record<string, JsonObject>,
    requestor: TaskRequestor = {},
  ): Promise<TaskRecord | undefined> {
    if (!(await this.get(taskId, requestor))) return undefined;
    return this.#move(taskId, (current) => withAnswers(current, responses, this.clock.now()));
  }

  /**
   * Resolves with the record once it is terminal (TASK-12: `tasks/result` blocks), or undefined if
   * it is deleted or expires first. Rejects with the signal's reason if `signal` aborts.
   */
  waitForTerminal(taskId: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    return new Promise((resolve, reject) => {
      let stop = (): void => {};
      const check = (record: TaskRecord | undefined): void => {
        if (record && !isTerminal(record.status)) return;
        stop();
        resolve(record);
      };
      const onAbort = (): void => {
        stop();
        reject(signal!.reason as Error);
      };
      const unwatch = this.#watch(taskId, check);
      stop = () => {
        unwatch();
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.store.get(taskId).then(check, reject);
    });
  }

  /** Subscribes to every change this runner makes (undefined: deleted); returns the unsubscribe. */
  onChange(listener: (taskId: string, record: TaskRecord | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Aborts all running work of this process and clears its timers; records stay in the store. */
  close(): Promise<void> {
    for (const handle of this.#timers.values()) this.clock.clearTimer(handle);
    this.#timers.clear();
    for (const [taskId, { controller }] of this.#running)
      controller.abort(new TaskEndedError(taskId, 'closed'));
    this.#running.clear();
    this.#activeByOwner.clear();
    for (const unwatch of this.#following.values()) unwatch();
    this.#following.clear();
    this.#stopClaims?.();
    this.#stopClaims = undefined;
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Runs a task whose slot is taken: its expiry timer, its follow on a shared store, its work. */
  #launch(record: TaskRecord, work: TaskWork, controller: AbortController): void {
    const taskId = record.taskId;
    // One past the ttl: the task stays reachable for its whole ttl (S26-TASK-9).
    if (record.ttlMs !== null) {
      const left = Math.max(0, record.createdAt + record.ttlMs + 1 - this.clock.now());
      this.#timers.set(
        taskId,
        this.clock.setTimer(() => void this.#expire(taskId), left),
      );
    }
    this.#emit(taskId, record);
    if (this.store.shared === true) this.#follow(taskId);
    void this.#run(taskId, work, controller);
  }

  /** Subscribes to the store's claims once a rerunner exists (a store with no listener never claims). */
  #listenForClaims(): void {
    if (this.#stopClaims !== undefined || this.#rerunners.size === 0) return;
    this.#stopClaims = this.#store.onRerun?.((record) => {
      const work = (this.#rerunners.get(record.requestMethod) ?? noRerunner)(record);
      const controller = new AbortController();
      const owner = requestorKey(record);
      this.#running.set(record.taskId, { controller, owner });
      this.#activeByOwner.set(owner, (this.#activeByOwner.get(owner) ?? 0) + 1);
      this.#launch(record, work, controller);
    });
  }

  async #run(taskId: string, work: TaskWork, controller: AbortController): Promise<void> {
    const control = new Control(taskId, controller.signal, {
      move: (change) => this.#move(taskId, change),
      watch: (listener) => this.#watch(taskId, listener),
      read: () => this.store.get(taskId),
      now: () => this.clock.now(),
    });
    let outcome: TaskOutcome;
    try {
      outcome = await work(control);
    } catch (error) {
      outcome = { error: this.#toTaskError(error) };
    }
    this.#release(taskId);
    await this.#move(taskId, (current) => withOutcome(current, outcome, this.clock.now())).catch(
      (error: unknown) => this.#options.onError?.(asError(error)),
    );
  }

  #toTaskError(error: unknown): TaskError {
    if (error instanceof RpcError) return error.toErrorObject() as TaskError;
    this.#options.onError?.(asError(error));
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  }

  async #expire(taskId: string): Promise<void> {
    const timer = this.#timers.get(taskId);
    if (timer !== undefined) this.clock.clearTimer(timer);
    this.#timers.delete(taskId);
    this.#stop(taskId, new TaskEndedError(taskId, 'expired'));
    await this.store.delete(taskId);
    this.#emit(taskId, undefined);
  }

  #stop(taskId: string, reason: Error): void {
    this.#running.get(taskId)?.controller.abort(reason);
    this.#release(taskId);
  }

  /**
   * Watches a task this process runs on a shared store: once it is terminal or gone, whoever ended
   * it (a cancel through another node, a lost lease), the work's signal aborts.
   */
  #follow(taskId: string): void {
    const unwatch = this.store.watch?.(taskId, (record) => {
      if (record && !isTerminal(record.status)) return;
      this.#following.get(taskId)?.();
      this.#following.delete(taskId);
      const why = record === undefined ? 'expired' : record.status === 'cancelled' ? 'cancelled' : 'ended';
      this.#stop(taskId, new TaskEndedError(taskId, why));
    });
    if (unwatch) this.#following.set(taskId, unwatch);
  }

  /** The task no longer counts against its requestor: its work ended, or it was cancelled or expired. */
  #release(taskId: string): void {
    const running = this.#running.get(taskId);
    if (!running) return;
    this.#running.delete(taskId);
    const left = (this.#activeByOwner.get(running.owner) ?? 1) - 1;
    if (left > 0) this.#activeByOwner.set(running.owner, left);
    else this.#activeByOwner.delete(running.owner);
  }

  /** One store update with change events. */
  async #move(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    let isChanged = false;
    const record = await this.store.update(taskId, (current) => {
      const next = change(current);
      isChanged = next !== undefined;
      return next;
    });
    if (isChanged && record) this.#emit(taskId, record);
    return record;
  }

  /** Changes of one task: the store's own watch (other processes too) or this runner's events. */
  #watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    if (this.store.watch) return this.store.watch(taskId, listener);
    let set = this.#local.get(taskId);
    if (!set) this.#local.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#local.delete(taskId);
    };
  }

  #emit(taskId: string, record: TaskRecord | undefined): void {
    for (const listener of this.#local.get(taskId) ?? []) listener(record);
    for (const listener of this.#listeners) listener(taskId, record);
  }
}

/** The work of a claimed task no rerunner knows: it fails (it cannot stay claimed and unrun). */
const noRerunner: TaskRerunner = (record) => () =>
  Promise.reject(new Error(`No rerunner for "${record.requestMethod}"`));

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
