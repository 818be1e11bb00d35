// Public entry of `mcpwire/extensions/tasks`: the receiver's side-neutral task engine (record, store,
// runner, clock, wire shapes), the server extension `tasks()`, and the wire vocabulary of both eras.
//
// Exported names:
//   server:   tasks, TasksOptions, TasksExtension, inputThenTask, TaskRequestContext
//   records:  TaskRecord, TaskStatus, TaskEra, TaskError, TaskInputRequest, TaskRequestor, TaskRerun,
//             isTerminal, canMove, isExpired, isVisibleTo
//   store:    TaskStore, TaskPage, MemoryTaskStore
//   clock:    TaskClock, systemClock, FakeClock
//   runner:   TaskRunner, TaskRunnerOptions, TaskWork, TaskControl, TaskOutcome, StartTaskOptions,
//             TaskRerunner, CancelOutcome, TaskEndedError, TOO_MANY_TASKS
//   wire:     toHandshakeTask, toStatelessTask, toDetailedTask, toCreateTaskResult
//   protocol: TASKS_EXTENSION_ID, RELATED_TASK_META_KEY, MODEL_IMMEDIATE_RESPONSE_META_KEY, StatelessTask,
//             StatelessCreateTaskResult, DetailedTask, UpdateTaskRequestParams, TaskAckResult
//   client:   TasksClient, TaskHandle, TaskCancelledError, TaskDetachedError, TaskView, DetailedTaskView,
//             tasksClientPart, tasksForClient, createTaskReceiver (the client as a handshake-era receiver)

export { tasks, type TasksExtension, type TasksOptions } from './tasks-server.ts';
export { inputThenTask, missingExtension } from './task-tool-call.ts';
export { TaskRequestContext } from './task-context.ts';
export {
  canMove,
  isExpired,
  isTerminal,
  isVisibleTo,
  type TaskEra,
  type TaskError,
  type TaskInputRequest,
  type TaskRecord,
  type TaskRequestor,
  type TaskRerun,
  type TaskStatus,
} from './task-record.ts';
export { MemoryTaskStore, type TaskPage, type TaskStore } from './task-store.ts';
export { FakeClock, systemClock, type TaskClock } from './task-clock.ts';
export { TaskEndedError, type TaskControl } from './task-control.ts';
export { TaskRunner } from './task-runner.ts';
export {
  TOO_MANY_TASKS,
  type CancelOutcome,
  type StartTaskOptions,
  type TaskOutcome,
  type TaskRerunner,
  type TaskRunnerOptions,
  type TaskWork,
} from './task-work.ts';
export { toCreateTaskResult, toDetailedTask, toHandshakeTask, toStatelessTask } from './task-wire.ts';
export {
  MODEL_IMMEDIATE_RESPONSE_META_KEY,
  RELATED_TASK_META_KEY,
  TASKS_EXTENSION_ID,
  type DetailedTask,
  type StatelessCreateTaskResult,
  type StatelessTask,
  type TaskAckResult,
  type UpdateTaskRequestParams,
} from './tasks-protocol.ts';
// The requestor side on a Client and the client as a receiver.
export * from './client/index.ts';
