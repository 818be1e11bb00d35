// Tasks between the eras, as pure functions (era-tasks.ts does the I/O): a child's 2025-11-25 task
// (TASK-5/10: nested `{task}`, `ttl`, `pollInterval`) shown as the 2026-07-28 tasks extension's
// (S26-TASK-5/7: flat, `resultType: "task"`, `ttlMs`, `pollIntervalMs`), and the task ids: the id a
// 2026-07-28 client sees is the child's, sealed to the requestor the stateless era binds a task to.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JsonObject } from 'mcpwire';
import type { StatelessTask, TaskInputRequest, TaskStatus } from 'mcpwire/extensions/tasks';

/** The handshake-era Task as a child sends it (TASK-10). */
export interface ChildTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl?: number | null;
  pollInterval?: number;
}

/** Characters of the MAC in a front task id: 22 base64url characters, 128 bits and more. */
const MAC_LENGTH = 22;
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function macOf(childTaskId: string, owner: string | undefined, secret: Uint8Array): string {
  // JSON of the pair: no owner and child id can be mistaken for another pair.
  return createHmac('sha256', secret)
    .update(JSON.stringify([owner ?? null, childTaskId]))
    .digest('base64url')
    .slice(0, MAC_LENGTH);
}

/**
 * The id a 2026-07-28 client sees for the child's task `childTaskId`, created for `owner` (the
 * request's principal; undefined without authentication, S26-TASK-15: then the id alone reaches
 * it): `<child id, base64url>.<MAC of owner and child id under secret>`. Deterministic; only the
 * holder of `secret` can make one, and {@link fromFrontTaskId} opens it for the same owner only.
 */
export function toFrontTaskId(childTaskId: string, owner: string | undefined, secret: Uint8Array): string {
  return `${Buffer.from(childTaskId, 'utf8').toString('base64url')}.${macOf(childTaskId, owner, secret)}`;
}

/**
 * The child's task id inside a front id, or undefined when `frontTaskId` was not made by
 * {@link toFrontTaskId} for this `owner` under this `secret` (another principal's, forged, or
 * malformed): the caller answers that as an unknown task, so a foreign id looks like no id.
 */
export function fromFrontTaskId(
  frontTaskId: string,
  owner: string | undefined,
  secret: Uint8Array,
): string | undefined {
  const dot = frontTaskId.lastIndexOf('.');
  if (dot <= 0 || frontTaskId.length - dot - 1 !== MAC_LENGTH) return undefined;
  const encoded = frontTaskId.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  const childTaskId = Buffer.from(encoded, 'base64url').toString('utf8');
  if (Buffer.from(childTaskId, 'utf8').toString('base64url') !== encoded) return undefined;
  const expected = Buffer.from(macOf(childTaskId, owner, secret));
  const given = Buffer.from(frontTaskId.slice(dot + 1));
  return given.length === expected.length && timingSafeEqual(given, expected) ? childTaskId : undefined;
}

/**
 * The child's task as the front shows it (S26-TASK-5): `ttlMs` and `pollIntervalMs` for `ttl` and
 * `pollInterval`, the front id. The status is `input_required` exactly while the bridge holds input
 * requests of the task for the client (`isWaitingForInput`); a child's `input_required` whose
 * request has not reached the bridge yet shows as `working`, so `input_required` always comes with
 * `inputRequests`.
 */
export function toFrontTask(task: ChildTask, frontTaskId: string, isWaitingForInput: boolean): StatelessTask {
  const isTerminal = task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
  let status: TaskStatus = task.status;
  if (!isTerminal) status = isWaitingForInput ? 'input_required' : 'working';
  const front: StatelessTask = {
    taskId: frontTaskId,
    status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: typeof task.ttl === 'number' && task.ttl > 0 ? Math.ceil(task.ttl) : null,
  };
  if (task.statusMessage !== undefined) front.statusMessage = task.statusMessage;
  if (typeof task.pollInterval === 'number' && task.pollInterval > 0)
    front.pollIntervalMs = Math.ceil(task.pollInterval);
  return front;
}

/** The child's `{task}` (TASK-5), or undefined when `result` is not a CreateTaskResult. */
export function childTaskOf(result: JsonObject): ChildTask | undefined {
  const task = result.task;
  if (typeof task !== 'object' || task === null || Array.isArray(task)) return undefined;
  const { taskId, status, createdAt, lastUpdatedAt } = task as Record<string, unknown>;
  const isShaped =
    typeof taskId === 'string' &&
    typeof status === 'string' &&
    typeof createdAt === 'string' &&
    typeof lastUpdatedAt === 'string';
  return isShaped ? (task as unknown as ChildTask) : undefined;
}

/** S26-TASK-8: a result or input request shown on the front carries no handshake-era related-task `_meta`. */
export function withoutRelatedTask(object: JsonObject): JsonObject {
  const meta = object._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || !Object.hasOwn(meta, RELATED_TASK))
    return object;
  const { [RELATED_TASK]: _related, ...rest } = meta as Record<string, unknown>;
  const { _meta: _old, ...without } = object;
  return Object.keys(rest).length === 0 ? without : { ...without, _meta: rest };
}

/** The child task a server-to-client request belongs to (its related-task `_meta`, TASK-15), if any. */
export function relatedChildTaskId(params: JsonObject | undefined): string | undefined {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const related = (meta as Record<string, unknown>)[RELATED_TASK];
  if (typeof related !== 'object' || related === null) return undefined;
  const { taskId } = related as Record<string, unknown>;
  return typeof taskId === 'string' ? taskId : undefined;
}

/** The input request a front `tasks/get` shows for a child's request of a task (TaskInputRequest). */
export function toFrontInputRequest(
  method: TaskInputRequest['method'],
  params: JsonObject | undefined,
): TaskInputRequest {
  return params === undefined ? { method } : { method, params: withoutRelatedTask(params) };
}

/** Finished tasks whose answers a bridge keeps at most (the oldest goes first). */
export const FINISHED_KEPT = 1_000;

/** True once a finished task's ttl (from its creation) has passed: the child would have forgotten it. */
export function isPastTtl(task: { ttlMs?: number | null; createdAt: string }): boolean {
  if (typeof task.ttlMs !== 'number') return false;
  const createdAt = Date.parse(task.createdAt);
  return Number.isFinite(createdAt) && Date.now() > createdAt + task.ttlMs;
}
