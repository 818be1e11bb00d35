// What a task's work holds while it runs (TaskControl): its signal, input rounds that park it in
// `input_required` (S26-TASK-10), and status moves for input obtained another way (TASK-9).

import type { JsonObject } from '../../jsonrpc/message.ts';
import { canMove, isTerminal, withStatus, type TaskInputRequest, type TaskRecord } from './task-record.ts';

/** What the work of one task may do while it runs. */
export interface TaskControl {
  readonly taskId: string;
  /** Aborts when the task is cancelled, expires, or the runner closes. */
  readonly signal: AbortSignal;
  /**
   * Parks the task in `input_required` with this request under `key` (unique over the task's life,
   * S26-TASK-10) until `answer` delivers a response for it; then back to `working` once nothing is
   * outstanding. Rejects with the signal's reason if the task ends first.
   */
  requestInput(key: string, request: TaskInputRequest): Promise<JsonObject>;
  /**
   * Moves between `working` and `input_required` for input obtained another way (the handshake
   * era's real requests, TASK-9), optionally with a status message.
   */
  setStatus(status: 'working' | 'input_required', statusMessage?: string): Promise<void>;
}

/** How a Control reads and changes its own record (given by the runner that made it). */
export interface RecordAccess {
  /** One atomic change of the record, as TaskStore.update, with the runner's change events. */
  move(change: (record: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /** Calls `listener` on every later change; returns the unsubscribe. */
  watch(listener: (record: TaskRecord | undefined) => void): () => void;
  read(): Promise<TaskRecord | undefined>;
  now(): number;
}

/** The TaskControl of one running task. */
export class Control implements TaskControl {
  readonly taskId: string;
  readonly signal: AbortSignal;
  readonly #record: RecordAccess;

  constructor(taskId: string, signal: AbortSignal, record: RecordAccess) {
    this.taskId = taskId;
    this.signal = signal;
    this.#record = record;
  }

  async requestInput(key: string, request: TaskInputRequest): Promise<JsonObject> {
    this.signal.throwIfAborted();
    let problem: string | undefined;
    const stored = await this.#record.move((current) => {
      if (isTerminal(current.status)) return undefined;
      if (current.usedInputKeys?.includes(key)) {
        problem = `Input key "${key}" was already used by task "${this.taskId}"; keys must be unique over a task's life`;
        return undefined;
      }
      current.usedInputKeys = [...(current.usedInputKeys ?? []), key];
      current.inputRequests = { ...current.inputRequests, [key]: request };
      return current.status === 'input_required'
        ? { ...current, lastUpdatedAt: this.#record.now() }
        : withStatus(current, 'input_required', undefined, this.#record.now());
    });
    if (problem) throw new TypeError(problem);
    if (!stored || isTerminal(stored.status))
      throw this.signal.reason ?? new TaskEndedError(this.taskId, 'ended');
    return this.#awaitAnswer(key);
  }

  #awaitAnswer(key: string): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      let isDone = false;
      const finish = (action: () => void): void => {
        if (isDone) return;
        isDone = true;
        unwatch();
        this.signal.removeEventListener('abort', onAbort);
        action();
      };
      const onAbort = (): void => finish(() => reject(this.signal.reason as Error));
      const check = (record: TaskRecord | undefined): void => {
        const answer = record?.inputResponses?.[key];
        if (answer === undefined) return;
        finish(() => {
          // Consume the answer so the record keeps only what is still to be read.
          void this.#record.move((current) => {
            if (!current.inputResponses || !Object.hasOwn(current.inputResponses, key)) return undefined;
            delete current.inputResponses[key];
            return current;
          });
          resolve(answer);
        });
      };
      const unwatch = this.#record.watch(check);
      this.signal.addEventListener('abort', onAbort, { once: true });
      if (this.signal.aborted) return onAbort();
      // An answer stored before the watch began is found by reading once.
      this.#record.read().then(check, (error: unknown) => finish(() => reject(error as Error)));
    });
  }

  async setStatus(status: 'working' | 'input_required', statusMessage?: string): Promise<void> {
    await this.#record.move((current) =>
      canMove(current.status, status) &&
      (current.status !== status || statusMessage !== current.statusMessage)
        ? withStatus(current, status, statusMessage, this.#record.now())
        : undefined,
    );
  }
}

/** The reason a task's signal aborts with. */
export class TaskEndedError extends Error {
  readonly code = 'TASK_ENDED';
  readonly taskId: string;
  readonly why: 'cancelled' | 'expired' | 'closed' | 'ended';

  constructor(taskId: string, why: 'cancelled' | 'expired' | 'closed' | 'ended') {
    super(`Task "${taskId}" ${why === 'closed' ? 'stopped: its runner closed' : why}`);
    this.name = 'TaskEndedError';
    this.taskId = taskId;
    this.why = why;
  }
}
