// The local errors of a task handle (never sent on the wire): the task was cancelled, or the handle
// stopped watching it before it ended.

/** `result()` of a task that ended `cancelled` (TASK-17, S26-TASK-11): there is no result. */
export class TaskCancelledError extends Error {
  readonly code = 'TASK_CANCELLED';
  readonly taskId: string;

  constructor(taskId: string, statusMessage?: string) {
    super(`Task ${taskId} was cancelled${statusMessage === undefined ? '' : `: ${statusMessage}`}`);
    this.name = 'TaskCancelledError';
    this.taskId = taskId;
  }
}

/**
 * `result()` of a handle closed (or whose connection closed) before the task ended. The task may
 * still be running: resume it by id on a new connection (`TasksClient.task(id)`).
 */
export class TaskDetachedError extends Error {
  readonly code = 'TASK_DETACHED';
  readonly taskId: string;

  constructor(taskId: string, reason: string, options?: { cause?: unknown }) {
    super(`Stopped watching task ${taskId}: ${reason}; resume it by id on a new connection`, options);
    this.name = 'TaskDetachedError';
    this.taskId = taskId;
  }
}
