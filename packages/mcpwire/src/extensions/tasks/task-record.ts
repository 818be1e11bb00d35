// The task record both sides keep as the receiver of task-augmented requests (TASK-*, S26-TASK-*):
// plain, serialisable data (no closures, times as epoch milliseconds), and its status rules.

import type { JsonObject } from '../../jsonrpc/message.ts';

/** Where a task is in its life (TASK-7, S26-TASK-7); `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The era a task was created in: its wire shape differs (S26-TASK-17: not wire-compatible). */
export type TaskEra = 'handshake' | 'stateless';

/** A JSON-RPC error object, as a failed task keeps it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** One outstanding input request of a task: the server-to-client request it stands for. */
export interface TaskInputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: JsonObject;
}

/**
 * One task, as a TaskStore keeps it. Every field is JSON: a durable store (Redis, SQL) writes it
 * as it is. `result` and `error` are set once, with the terminal status.
 */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  era: TaskEra;
  /** The request that created it (`tools/call`, `elicitation/create`, `sampling/createMessage`). */
  requestMethod: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  /** Milliseconds after `createdAt` the task is kept; null for unlimited. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Who created it (a principal's subject, TASK-19); only that requestor may read it. */
  owner?: string;
  /**
   * The handshake-era session that created it when no principal did: only requests of that session
   * may read it (see {@link TaskRequestor}).
   */
  session?: string;
  /** The underlying request's result (completed, or failed with a tool error in the handshake era). */
  result?: JsonObject;
  /** The underlying request's JSON-RPC error (failed). */
  error?: TaskError;
  /** Outstanding input requests by key (S26-TASK-7: all of them, while `input_required`). */
  inputRequests?: Record<string, TaskInputRequest>;
  /** Answers received for keys still to be consumed by the work (S26-TASK-10). */
  inputResponses?: Record<string, JsonObject>;
  /** Every input key the task has used, so a key is never reused (S26-TASK-10). */
  usedInputKeys?: string[];
  /** Present when another process may run the task again if its worker dies (an idempotent tool). */
  rerun?: TaskRerun;
}

/**
 * What a process needs to run a task's request again when the worker running it died (issue 24):
 * the request's params and the facts of its context, as JSON. Only for a tool that declares
 * `annotations.idempotentHint: true`; never sent on the wire.
 */
export interface TaskRerun {
  /** The request's params as the work got them (a tools/call's, without `task`). */
  params: JsonObject;
  /** The request context's facts: era, protocolVersion, clientCapabilities, clientInfo, requestId, method, meta, auth. */
  context: JsonObject;
  /** Runs so far, the first included. */
  runs: number;
  /** The most runs allowed (the runner's `maxTaskRuns`); at that many a dead worker's task fails. */
  maxRuns: number;
}

/**
 * Who asks for a task (TASK-19). With a principal, its subject (`owner`) owns the task, whatever the
 * session. Without one, the handshake-era session the request came in on (`session`), so one
 * unauthenticated client never sees another's tasks; with neither (the stateless era, or a
 * handshake-era request without a session) a task is reachable only by its unguessable id
 * (TASK-20, S26-TASK-15) and is listed to no one.
 */
export interface TaskRequestor {
  owner?: string | undefined;
  session?: string | undefined;
}

/** True when `requestor` may see `record`: the same owner and the same session (both absent counts). */
export function isVisibleTo(record: TaskRecord, requestor: TaskRequestor): boolean {
  return record.owner === requestor.owner && record.session === requestor.session;
}

/** The key a requestor's tasks are counted under (TASK-21): its principal, else its session. */
export function requestorKey(requestor: TaskRequestor): string {
  if (requestor.owner !== undefined) return `principal:${requestor.owner}`;
  return requestor.session === undefined ? 'anonymous' : `session:${requestor.session}`;
}

/** True for `completed`, `failed` and `cancelled`: the task never changes again (TASK-7). */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * The moves TASK-7 allows: from `working` or `input_required` to any other status (and
 * `input_required` back to `working`); never out of a terminal status.
 */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  if (isTerminal(from)) return false;
  return from !== to || from === 'input_required';
}

/** True once `now` is past the record's ttl (TASK-10, S26-TASK-9: never before it). */
export function isExpired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && now > record.createdAt + record.ttlMs;
}

/** The record with a new status (and its message, or none), updated at `now`. */
export function withStatus(
  record: TaskRecord,
  status: TaskStatus,
  statusMessage: string | undefined,
  now: number,
): TaskRecord {
  const next: TaskRecord = { ...record, status, lastUpdatedAt: now };
  if (statusMessage === undefined) delete next.statusMessage;
  else next.statusMessage = statusMessage;
  return next;
}

/**
 * The record with `responses` taken for its outstanding input keys (S26-TASK-10), or undefined when
 * none of them is outstanding or the task is terminal; `working` again once nothing is outstanding.
 */
export function withAnswers(
  record: TaskRecord,
  responses: Record<string, JsonObject>,
  now: number,
): TaskRecord | undefined {
  const outstanding = record.inputRequests ?? {};
  const keys = Object.keys(responses).filter((key) => Object.hasOwn(outstanding, key));
  if (keys.length === 0 || isTerminal(record.status)) return undefined;
  const answers = { ...record.inputResponses };
  for (const key of keys) {
    answers[key] = responses[key]!;
    delete outstanding[key];
  }
  record.inputResponses = answers;
  record.inputRequests = outstanding;
  record.lastUpdatedAt = now;
  if (Object.keys(outstanding).length > 0) return record;
  delete record.inputRequests;
  return withStatus(record, 'working', undefined, now);
}
