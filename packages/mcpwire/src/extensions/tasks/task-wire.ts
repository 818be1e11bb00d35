// A task record on the wire, per era: the handshake era's Task (`ttl`, `pollInterval`, a nested
// `task` in CreateTaskResult, TASK-5/10) and the stateless era's flat, `Ms`-suffixed shapes (S26-TASK-5/7).

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { Task } from '../../protocol/types/index.ts';
import type { TaskRecord } from './task-record.ts';
import type { DetailedTask, StatelessTask } from './tasks-protocol.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** The handshake-era Task (TASK-10: `createdAt`, `lastUpdatedAt` and the actual `ttl` always present). */
export function toHandshakeTask(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttl: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollInterval = record.pollIntervalMs;
  return task;
}

/** The stateless-era Task: `ttlMs`, `pollIntervalMs`, integer milliseconds (S26-TASK-5). */
export function toStatelessTask(record: TaskRecord): StatelessTask {
  const task: StatelessTask = {
    taskId: record.taskId,
    status: record.status,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  return task;
}

/**
 * `tasks/get` of the stateless era (S26-TASK-7): `resultType: "complete"`, plus every outstanding
 * input request, the result, or the error, by status. Never `requestState` (S26-TASK-5).
 */
export function toDetailedTask(record: TaskRecord): DetailedTask {
  const detailed: DetailedTask = { resultType: 'complete', ...toStatelessTask(record) };
  if (record.status === 'input_required') detailed.inputRequests = { ...record.inputRequests };
  else if (record.status === 'completed' && record.result)
    detailed.result = withoutRelatedTask(record.result);
  else if (record.status === 'failed' && record.error) detailed.error = record.error;
  return detailed;
}

/** What a task-augmented request returns, per era: `{task}` (TASK-5) or flat `resultType: "task"` (S26-TASK-5). */
export function toCreateTaskResult(record: TaskRecord): JsonObject {
  return record.era === 'handshake'
    ? { task: toHandshakeTask(record) as unknown as JsonObject }
    : ({ resultType: 'task', ...toStatelessTask(record) } as unknown as JsonObject);
}

/** S26-TASK-8: an inlined result carries no handshake-era related-task `_meta`. */
function withoutRelatedTask(result: JsonObject): JsonObject {
  const meta = result._meta as JsonObject | undefined;
  if (!meta || !Object.hasOwn(meta, 'io.modelcontextprotocol/related-task')) return result;
  const { 'io.modelcontextprotocol/related-task': _related, ...rest } = meta;
  return Object.keys(rest).length === 0 ? withoutKey(result, '_meta') : { ...result, _meta: rest };
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const copy = { ...object };
  delete copy[key];
  return copy;
}
