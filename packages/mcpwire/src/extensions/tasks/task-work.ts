// The vocabulary of the task engine: its options, a task's work and outcome (and how an outcome and
// a ttl apply to a record), and the refusal code; apart from task-runner.ts so that the engine's
// file holds the engine.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import type { TaskClock } from './task-clock.ts';
import type { TaskControl } from './task-control.ts';
import {
  isTerminal,
  withStatus,
  type TaskEra,
  type TaskError,
  type TaskRecord,
  type TaskRerun,
} from './task-record.ts';
import type { TaskStore } from './task-store.ts';

/** Options of a TaskRunner. */
export interface TaskRunnerOptions {
  /** Default: a MemoryTaskStore. */
  store?: TaskStore;
  /** Default: the system clock. */
  clock?: TaskClock;
  /** Ttl when the requestor asks for none (ms; null: unlimited). Default one hour. */
  defaultTtlMs?: number | null;
  /** Cap on any ttl, requested or default, unlimited included (TASK-21). Default 24 hours; Infinity: none. */
  maxTtlMs?: number;
  /** Suggested poll interval (TASK-10, S26-TASK-9). Default 1000 ms. */
  pollIntervalMs?: number;
  /**
   * Most tasks one requestor (a TaskRequestor: a principal, else a handshake-era session; all
   * stateless-era unauthenticated callers are one) may have that are not terminal (TASK-21), counted
   * per runner, or over every process when the store has `createWithin` (Redis). One more is
   * refused with {@link TOO_MANY_TASKS}. Default 100; Infinity: no limit.
   */
  maxTasksPerRequestor?: number;
  /**
   * Most runs of one task whose request may run again (`StartTaskOptions.rerun`, an idempotent
   * tool) when a shared store finds its worker dead: the first run and the re-runs. Default 3.
   */
  maxTaskRuns?: number;
  /**
   * Task ids; default `crypto.randomUUID()` (122 random bits from a CSPRNG: TASK-20, S26-TASK-15
   * unguessable, which is all that guards a task created without a principal or a session).
   */
  createId?: () => string;
  /** Local diagnostics: the original of a work's crash that became -32603. */
  onError?: (error: Error) => void;
}

/** How a task's work ended. A thrown RpcError becomes `{error}`; any other throw -32603. */
export type TaskOutcome =
  | { result: JsonObject; status?: 'completed' | 'failed'; statusMessage?: string }
  | { error: TaskError; statusMessage?: string };

/** The work of one task. */
export type TaskWork = (control: TaskControl) => Promise<TaskOutcome>;

/** Options of one `start`. */
export interface StartTaskOptions {
  era: TaskEra;
  requestMethod: string;
  /** The ttl the requestor asked for (TASK-5); capped at `maxTtlMs`. */
  ttlMs?: number | null | undefined;
  /** The requestor, when known (TASK-19): a principal's subject. */
  owner?: string | undefined;
  /** The handshake-era session, for a task created without a principal (see TaskRequestor). */
  session?: string | undefined;
  /** The request may run again in another process if this one dies (see TaskRerun). */
  rerun?: Pick<TaskRerun, 'params' | 'context'> | undefined;
}

/** Makes the work of a claimed task (TaskStore.onRerun) from its record, by the request's method. */
export type TaskRerunner = (record: TaskRecord) => TaskWork;

/** What `cancel` found. */
export interface CancelOutcome {
  record: TaskRecord;
  /** The task was already terminal: nothing changed (TASK-17 answers -32602; S26-TASK-11 acks). */
  wasTerminal: boolean;
}

/**
 * The error code of a task refused because its requestor has `maxTasksPerRequestor` tasks that are
 * not terminal (TASK-21 names none). In JSON-RPC's server-error range, below 2026-07-28's reserved
 * -32020..-32099; `data` holds `{ maxTasksPerRequestor }`.
 */
export const TOO_MANY_TASKS = -32010;

/** The refusal of a task whose requestor is at `limit` tasks that are not terminal. */
export function tooManyTasks(limit: number): RpcError {
  return new RpcError(
    TOO_MANY_TASKS,
    `Too many tasks: this requestor already has ${limit} that are not finished (the limit is ${limit}); wait for one to finish or cancel one`,
    { maxTasksPerRequestor: limit },
  );
}

const HOUR = 3_600_000;

/** The ttl a task gets: the requested one (or `defaultTtlMs`, one hour) capped at `maxTtlMs` (24 hours). */
export function cappedTtl(
  requested: number | null | undefined,
  options: Pick<TaskRunnerOptions, 'defaultTtlMs' | 'maxTtlMs'>,
): number | null {
  const max = options.maxTtlMs ?? 24 * HOUR;
  const wanted = requested === undefined ? (options.defaultTtlMs ?? HOUR) : requested;
  // TASK-10: the receiver may override the requested ttl; TASK-21: every ttl is capped, unlimited
  // too, unless maxTtlMs is Infinity.
  if (wanted === null) return Number.isFinite(max) ? max : null;
  return Math.min(Math.max(0, Math.floor(wanted)), max);
}

/** The record ended by `outcome` at `now`; undefined if it is terminal already (TASK-17: a cancelled task stays cancelled). */
export function withOutcome(record: TaskRecord, outcome: TaskOutcome, now: number): TaskRecord | undefined {
  if (isTerminal(record.status)) return undefined;
  delete record.inputRequests;
  delete record.inputResponses;
  if ('error' in outcome) {
    record.error = outcome.error;
    return withStatus(record, 'failed', outcome.statusMessage ?? outcome.error.message, now);
  }
  record.result = outcome.result;
  return withStatus(record, outcome.status ?? 'completed', outcome.statusMessage, now);
}
