// The vocabulary of the task engine: its options, a task's work and outcome, and the refusal code;
// apart from task-runner.ts so that the engine's file holds the engine.

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { TaskClock } from './task-clock.ts';
import type { TaskControl } from './task-control.ts';
import type { TaskEra, TaskError, TaskRecord } from './task-record.ts';
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
   * stateless-era unauthenticated callers are one) may have that are not terminal, counted per
   * runner (TASK-21). One more is refused with {@link TOO_MANY_TASKS}. Default
   * 100; Infinity: no limit.
   */
  maxTasksPerRequestor?: number;
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
}

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
