// A task as the requestor sees it, read from either era's wire shape: the handshake era's nested
// `task` with `ttl`/`pollInterval` (TASK-5, TASK-10) and the stateless era's flat `resultType:
// "task"` with `ttlMs`/`pollIntervalMs` (S26-TASK-5, S26-TASK-7), as one view.

import type { JsonObject } from '../../../jsonrpc/message.ts';
import type { TaskError, TaskInputRequest, TaskStatus } from '../task-record.ts';
import type { StatelessTask } from '../tasks-protocol.ts';

/**
 * One task's state, as the receiver last reported it, in the stateless era's shape (integer
 * milliseconds, `Ms` suffixes) whichever era it came from.
 */
export type TaskView = StatelessTask;

/** What a stateless-era `tasks/get` adds to the view (S26-TASK-7). */
export interface DetailedTaskView extends TaskView {
  /** `completed`: the underlying request's result. */
  result?: JsonObject;
  /** `failed`: the JSON-RPC error. */
  error?: TaskError;
  /** `input_required`: every outstanding input request, by key. */
  inputRequests?: Record<string, TaskInputRequest>;
}

const STATUSES: readonly string[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/**
 * The view of a task object in `era`'s shape, or a readable problem naming the first bad field. The
 * handshake era names durations `ttl`/`pollInterval`, the stateless era `ttlMs`/`pollIntervalMs`.
 */
export function toTaskView(era: 'handshake' | 'stateless', task: unknown): DetailedTaskView | string {
  if (typeof task !== 'object' || task === null || Array.isArray(task)) return 'the task is not an object';
  const record = task as JsonObject;
  const ttlKey = era === 'handshake' ? 'ttl' : 'ttlMs';
  const pollKey = era === 'handshake' ? 'pollInterval' : 'pollIntervalMs';
  const { taskId, status, createdAt, lastUpdatedAt, statusMessage } = record;
  if (typeof taskId !== 'string' || taskId === '') return '"taskId" must be a non-empty string';
  if (typeof status !== 'string' || !STATUSES.includes(status))
    return `"status" must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(status)}`;
  if (typeof createdAt !== 'string') return '"createdAt" must be an ISO 8601 string';
  const ttl = record[ttlKey];
  if (ttl !== null && ttl !== undefined && typeof ttl !== 'number')
    return `"${ttlKey}" must be a number or null`;
  const view: DetailedTaskView = {
    taskId,
    status: status as TaskStatus,
    createdAt,
    lastUpdatedAt: typeof lastUpdatedAt === 'string' ? lastUpdatedAt : createdAt,
    ttlMs: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof statusMessage === 'string') view.statusMessage = statusMessage;
  const poll = record[pollKey];
  if (typeof poll === 'number' && poll >= 0) view.pollIntervalMs = poll;
  if (isObject(record.result)) view.result = record.result;
  if (isObject(record.error) && typeof record.error.code === 'number')
    view.error = record.error as unknown as TaskError;
  if (isObject(record.inputRequests))
    view.inputRequests = record.inputRequests as unknown as Record<string, TaskInputRequest>;
  return view;
}

/**
 * The created task in a tools/call result, or undefined for an ordinary result: the handshake
 * era's CreateTaskResult `{task}` (TASK-5), the stateless era's `resultType: "task"` (S26-TASK-5).
 */
export function createdTaskOf(era: 'handshake' | 'stateless', result: JsonObject): unknown {
  if (era === 'stateless') return result.resultType === 'task' ? result : undefined;
  return isObject(result.task) && result.content === undefined ? result.task : undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
