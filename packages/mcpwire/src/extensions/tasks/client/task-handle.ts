// One task a client created or resumed: it polls `tasks/get` at the receiver's interval, takes
// handshake-era status notifications and progress, answers a stateless-era task's input requests
// with `tasks/update`, and settles `result()` once the task ends (TASK-11/12, S26-TASK-9/10).

import type { Client } from '../../../client/client.ts';
import { InvalidResultError } from '../../../client/errors.ts';
import type { JsonObject, RequestId } from '../../../jsonrpc/message.ts';
import { RpcError } from '../../../jsonrpc/rpc-error.ts';
import type { Progress, ProgressHandler } from '../../../protocol/progress.ts';
import type { CallToolResult } from '../../../protocol/types/index.ts';
import type { TaskClock } from '../task-clock.ts';
import { isTerminal, type TaskInputRequest, type TaskStatus } from '../task-record.ts';
import { TaskCancelledError, TaskDetachedError } from './task-errors.ts';
import { toTaskView, type DetailedTaskView, type TaskView } from './task-view.ts';

/** How a handle polls. */
export interface TaskHandleOptions {
  /** Where poll timers run; default the real clock (timers that keep the process alive while polling). */
  clock?: TaskClock;
  /** Milliseconds between polls when the receiver suggests none; default 1,000. */
  defaultPollIntervalMs?: number;
}

/** What a handle starts from: a task the receiver reported, or the result of a call that ran at once. */
export type TaskOrigin =
  | {
      kind: 'task';
      era: 'handshake' | 'stateless';
      view: DetailedTaskView;
      /** The creating request's progress token (PROG-5), and what arrived on it before the answer. */
      progressToken?: RequestId;
      progress?: readonly Progress[];
    }
  | { kind: 'result'; result: CallToolResult };

/** Progress updates kept to replay to a listener that subscribes late (the latest ones). */
const PROGRESS_KEPT = 100;

/** Polls stay at least this far apart, whatever the receiver suggests (a 0 would spin). */
const MIN_POLL_MS = 10;

/** Timers that keep the process alive: a command waiting for its task must not exit between polls. */
const pollingClock: TaskClock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A task-augmented tool call. `status` and `onStatus` follow the task (polled, and pushed where
 * the receiver notifies); `result()` resolves with the tool's result once it completed, rejects
 * with the RpcError of a failed task, TaskCancelledError, or TaskDetachedError when the handle or
 * its connection closed first. A call the server answered at once has no `id` and is `completed`.
 */
export class TaskHandle implements AsyncDisposable {
  readonly #client: Client;
  readonly #era: 'handshake' | 'stateless';
  readonly #clock: TaskClock;
  readonly #defaultPollMs: number;
  readonly #progressToken: RequestId | undefined;
  #view: TaskView | undefined;
  #statusListeners = new Set<(task: TaskView) => void>();
  #progressListeners = new Set<ProgressHandler>();
  #lastProgress = -Infinity;
  #progressLog: Progress[] = [];
  readonly #result: Promise<CallToolResult>;
  #settle!: { resolve: (result: CallToolResult) => void; reject: (error: Error) => void };
  #isDone = false;
  #timer: unknown;
  #isPolling = false;
  /** Handshake era: the one blocking `tasks/result`, sent once the task needs input or ended (TASK-9). */
  #payload: Promise<JsonObject> | undefined;
  /** Stateless era: input keys already answered, never answered twice (S26-TASK-10). */
  #answered = new Set<string>();
  #unsubscribe: (() => void)[] = [];
  /** Aborts the blocking `tasks/result` of a handle that stops watching (notifications/cancelled). */
  readonly #stopped = new AbortController();

  constructor(client: Client, origin: TaskOrigin, options: TaskHandleOptions = {}) {
    this.#client = client;
    this.#clock = options.clock ?? pollingClock;
    this.#defaultPollMs = options.defaultPollIntervalMs ?? 1000;
    this.#result = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    // A caller that never asks for the result must not see an unhandled rejection.
    this.#result.catch(() => {});
    if (origin.kind === 'result') {
      this.#era = client.era ?? 'handshake';
      this.#progressToken = undefined;
      this.#isDone = true;
      this.#settle.resolve(origin.result);
      return;
    }
    this.#era = origin.era;
    this.#progressToken = origin.progressToken;
    for (const update of origin.progress ?? []) this.#takeProgress(update);
    this.#unsubscribe.push(
      client.on('notification', ({ method, params }) => this.#handleNotification(method, params)),
      client.on('close', ({ error }) =>
        this.#detach(new TaskDetachedError(origin.view.taskId, 'the connection closed', { cause: error })),
      ),
    );
    // Sets the view at once; a task already ended or waiting for input is acted on now, else polled.
    this.#apply(origin.view).then(
      () => this.#schedule(this.#interval()),
      (error: unknown) => this.#fail(error as Error),
    );
  }

  /** The task's id; undefined when the server answered the call at once (no task was made). */
  get id(): string | undefined {
    return this.#view?.taskId;
  }

  /** The task's status as last reported (`completed` for a call answered at once). */
  get status(): TaskStatus {
    return this.#view?.status ?? 'completed';
  }

  /** The task as last reported; undefined for a call answered at once. */
  get task(): TaskView | undefined {
    return this.#view;
  }

  /** Calls `listener` with the task each time its status or message changes; returns the unsubscribe. */
  onStatus(listener: (task: TaskView) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * Calls `listener` for each progress update of the task (handshake era, PROG-5), first with the
   * ones that arrived before it subscribed (the latest 100, in order); returns the unsubscribe.
   */
  onProgress(listener: ProgressHandler): () => void {
    for (const update of this.#progressLog) listener(update);
    this.#progressListeners.add(listener);
    return () => this.#progressListeners.delete(listener);
  }

  /** The tool's result once the task completed (see the class for the rejections). Idempotent. */
  result(): Promise<CallToolResult> {
    return this.#result;
  }

  /**
   * Asks the receiver to cancel the task (`tasks/cancel`) and resolves with its status afterwards.
   * Cancellation is cooperative: the task may still end `completed` (S26-TASK-11). No request is
   * sent for a task already known to have ended.
   */
  async cancel(): Promise<TaskStatus> {
    const view = this.#view;
    if (!view || this.#isDone || isTerminal(view.status)) return this.status;
    const answer = await this.#client.request('tasks/cancel', { taskId: view.taskId });
    if (this.#era === 'handshake') await this.#apply(this.#parse('tasks/cancel', answer));
    else await this.#pollNow();
    return this.status;
  }

  /** Stops polling and listening; a pending `result()` rejects with TaskDetachedError. The task runs on. */
  close(): void {
    if (this.#view) this.#detach(new TaskDetachedError(this.#view.taskId, 'the handle was closed'));
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  #schedule(ms: number): void {
    if (this.#isDone) return;
    this.#clock.clearTimer(this.#timer);
    this.#timer = this.#clock.setTimer(() => void this.#pollNow(), ms);
  }

  /** One `tasks/get`; schedules the next poll at the interval the receiver suggests now (S26-TASK-9). */
  async #pollNow(): Promise<void> {
    if (this.#isDone || this.#isPolling) return;
    this.#isPolling = true;
    this.#clock.clearTimer(this.#timer);
    try {
      const taskId = this.#view!.taskId;
      await this.#apply(this.#parse('tasks/get', await this.#client.request('tasks/get', { taskId })));
    } catch (error) {
      this.#fail(error as Error);
    } finally {
      this.#isPolling = false;
    }
    this.#schedule(this.#interval());
  }

  /** The receiver's current suggestion (S26-TASK-9: it may change), else the default. */
  #interval(): number {
    return Math.max(MIN_POLL_MS, this.#view?.pollIntervalMs ?? this.#defaultPollMs);
  }

  #parse(method: string, answer: JsonObject): DetailedTaskView {
    const view = toTaskView(this.#era, answer);
    if (typeof view === 'string') throw new InvalidResultError(method, view);
    return view;
  }

  /** Takes a reported state: tells listeners, then acts on it (input, or the end). */
  async #apply(view: DetailedTaskView): Promise<void> {
    if (this.#isDone) return;
    const previous = this.#view;
    // A terminal status never changes again (TASK-7): later reports of another status are stale.
    if (previous && isTerminal(previous.status) && previous.status !== view.status) return;
    const { result: _result, error: _error, inputRequests: _inputs, ...task } = view;
    this.#view = task;
    if (previous?.status !== task.status || previous.statusMessage !== task.statusMessage)
      for (const listener of [...this.#statusListeners]) listener(task);
    if (isTerminal(view.status)) return this.#finish(view);
    if (view.status !== 'input_required') return;
    // TASK-9: tasks/result at once, so the receiver can deliver its requests on that stream.
    if (this.#era === 'handshake') void this.#requestPayload();
    else await this.#answerInputs(view.taskId, view.inputRequests ?? {});
  }

  /** Handshake era: the blocking `tasks/result`; its answer (or error) is the task's outcome (TASK-12). */
  #requestPayload(): Promise<JsonObject> {
    if (this.#payload) return this.#payload;
    const isEarly = !isTerminal(this.#view!.status);
    const payload = this.#client.request(
      'tasks/result',
      { taskId: this.#view!.taskId },
      { timeoutMs: Infinity, maxTotalTimeoutMs: Infinity, signal: this.#stopped.signal },
    );
    this.#payload = payload;
    // Its answer means the task ended: poll now for the final status rather than at the interval.
    const pollNow = (): void => void this.#pollNow();
    payload.then(pollNow, () => {
      // One sent before the end that failed (a receiver that did not block, as TASK-12 asks, or
      // answered before it stored the result) is asked again once the task has ended.
      if (isEarly && this.#payload === payload) this.#payload = undefined;
      pollNow();
    });
    return payload;
  }

  async #finish(view: DetailedTaskView): Promise<void> {
    if (view.status === 'cancelled')
      return this.#fail(new TaskCancelledError(view.taskId, view.statusMessage));
    if (this.#era === 'stateless') {
      if (view.status === 'failed') {
        const error = view.error ?? { code: -32603, message: view.statusMessage ?? 'the task failed' };
        return this.#fail(new RpcError(error.code, error.message, error.data));
      }
      if (!view.result)
        return this.#fail(new InvalidResultError('tasks/get', 'a completed task has no "result"'));
      return this.#succeed(view.result as unknown as CallToolResult);
    }
    try {
      let payload: JsonObject;
      try {
        payload = await this.#requestPayload();
      } catch (error) {
        if (this.#payload !== undefined) throw error;
        payload = await this.#requestPayload();
      }
      this.#succeed(payload as unknown as CallToolResult);
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  /** Stateless era: answers the keys not answered before through the client's handlers, then `tasks/update`. */
  async #answerInputs(taskId: string, requests: Record<string, TaskInputRequest>): Promise<void> {
    const keys = Object.keys(requests).filter((key) => !this.#answered.has(key));
    if (keys.length === 0) return;
    for (const key of keys) this.#answered.add(key);
    const inputResponses: JsonObject = {};
    for (const key of keys) {
      const { method, params } = requests[key]!;
      inputResponses[key] = await this.#client.handleInputRequest({ method, params: params ?? {} });
    }
    await this.#client.request('tasks/update', { taskId, inputResponses });
  }

  #handleNotification(method: string, params: JsonObject): void {
    if (method === 'notifications/progress' && params.progressToken === this.#progressToken) {
      const { progress, total, message } = params;
      // PROG-5: none once the task ended.
      if (typeof progress !== 'number' || this.#isDone) return;
      const update: Progress = { progress };
      if (typeof total === 'number') update.total = total;
      if (typeof message === 'string') update.message = message;
      this.#takeProgress(update);
      return;
    }
    // TASK-14: a status notification is a hint; polling goes on regardless.
    if (method !== 'notifications/tasks/status' || params.taskId !== this.#view?.taskId) return;
    const view = toTaskView('handshake', params);
    if (typeof view !== 'string')
      void this.#apply(view).catch((error: unknown) => this.#fail(error as Error));
  }

  /** Keeps and delivers one update; PROG-3: progress only increases, others are dropped. */
  #takeProgress(update: Progress): void {
    if (!(update.progress > this.#lastProgress)) return;
    this.#lastProgress = update.progress;
    this.#progressLog.push(update);
    if (this.#progressLog.length > PROGRESS_KEPT) this.#progressLog.shift();
    for (const listener of [...this.#progressListeners]) listener(update);
  }

  #succeed(result: CallToolResult): void {
    if (this.#isDone) return;
    this.#stop();
    this.#settle.resolve(result);
  }

  #fail(error: Error): void {
    if (this.#isDone) return;
    this.#stop();
    this.#settle.reject(error);
  }

  #detach(error: TaskDetachedError): void {
    this.#fail(error);
  }

  #stop(): void {
    this.#isDone = true;
    this.#stopped.abort();
    this.#clock.clearTimer(this.#timer);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
  }
}
