// Tasks (experimental, 2025-11-25 only): durable state machines that a task-augmented request returns instead
// of its result. 2026-07-28 moves them to the `io.modelcontextprotocol/tasks` extension with a different shape.

import type { NotificationParams, PaginatedResult, RequestParams, Result } from './base.ts';

/** Where a task is in its life; `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the receiver reports it. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601 creation time. */
  createdAt: string;
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt: string;
  /** Milliseconds the task is kept after creation; `null` means unlimited. */
  ttl: number | null;
  /** Suggested milliseconds between `tasks/get` polls. */
  pollInterval?: number;
}

/** The `task` field of a request asking to run as a task. */
export interface TaskMetadata {
  /** Requested retention in milliseconds. */
  ttl?: number;
}

/** The value of `_meta["io.modelcontextprotocol/related-task"]`: the task a message belongs to. */
export interface RelatedTaskMetadata {
  taskId: string;
}

/** Base of the params of requests that may run as a task (tools/call, sampling/createMessage, elicitation/create). */
export interface TaskAugmentedRequestParams extends RequestParams {
  /** Since 2025-11-25. */
  task?: TaskMetadata;
}

/** What a task-augmented request returns instead of its result. */
export interface CreateTaskResult extends Result {
  task: Task;
}

/** Params of `tasks/get` (declared without `_meta`, as in the spec). */
export interface GetTaskRequestParams {
  taskId: string;
}

/** Result of `tasks/get`. */
export interface GetTaskResult extends Result, Task {}

/** Params of `tasks/result`. */
export interface GetTaskPayloadRequestParams {
  taskId: string;
}

/** Result of `tasks/result`: the underlying request's result, with the related-task `_meta` key. */
export type GetTaskPayloadResult = Result;

/** Params of `tasks/cancel`. */
export interface CancelTaskRequestParams {
  taskId: string;
}

/** Result of `tasks/cancel`: the task, now `cancelled`. */
export interface CancelTaskResult extends Result, Task {}

/** Result of `tasks/list` (whose params are `PaginatedRequestParams`). */
export interface ListTasksResult extends PaginatedResult {
  tasks: Task[];
}

/** Params of `notifications/tasks/status`: the whole task. */
export interface TaskStatusNotificationParams extends NotificationParams, Task {}
