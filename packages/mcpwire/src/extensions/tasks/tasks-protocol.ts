// The tasks vocabulary that is not the handshake era's core types (protocol/types/tasks.ts): the
// stateless-era extension's id and wire shapes (S26-TASK, SEP-2663), and the `_meta` key both eras use.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { describeMethod } from '../../protocol/method-spec.ts';
import type { TaskError, TaskInputRequest, TaskStatus } from './task-record.ts';

/** The extension id under `capabilities.extensions` (S26-TASK-1). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
/** `_meta` key tying a message to its task in the handshake era (TASK-15). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';
/** `_meta` key of a string the host may give the model at once (TASK-5). */
export const MODEL_IMMEDIATE_RESPONSE_META_KEY = 'io.modelcontextprotocol/model-immediate-response';

/** A task on the stateless era's wire (S26-TASK-5): integer milliseconds, `Ms` suffixes. */
export interface StatelessTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** Stateless-era `CreateTaskResult`: flat, `resultType: "task"`, no `requestState` (S26-TASK-5). */
export interface StatelessCreateTaskResult extends StatelessTask {
  resultType: 'task';
  _meta?: JsonObject;
}

/** Stateless-era `tasks/get` result (S26-TASK-7). */
export interface DetailedTask extends StatelessTask {
  resultType: 'complete';
  /** All outstanding input requests, while `input_required`. */
  inputRequests?: Record<string, TaskInputRequest>;
  /** The original request's result, once `completed`. */
  result?: JsonObject;
  /** The JSON-RPC error, once `failed`. */
  error?: TaskError;
  _meta?: JsonObject;
}

/** Params of `tasks/update` (S26-TASK-10). */
export interface UpdateTaskRequestParams {
  taskId: string;
  inputResponses: Record<string, JsonObject>;
  _meta?: JsonObject;
}

/** The empty ack of `tasks/update` and `tasks/cancel` in the stateless era (S26-TASK-10/11). */
export interface TaskAckResult {
  resultType: 'complete';
  _meta?: JsonObject;
}

/**
 * The method the extension adds to the core's: `notifications/tasks`, a DetailedTask without
 * `resultType`, sent only on a listen stream that asked for the task's id (S26-TASK-13).
 */
export const TASKS_METHODS = {
  'notifications/tasks': describeMethod<Omit<DetailedTask, 'resultType'>, never>()({
    kind: 'notification',
    sender: 'server',
    since: '2026-07-28',
    params: { taskId: 'string', status: 'string' },
  }),
};
