// The requestor side of tasks on a Client (both eras) and the client as a handshake-era receiver;
// re-exported by `mcpwire/extensions/tasks`.

export { TasksClient, type CallToolAsTaskOptions } from './tasks-client.ts';
export { TaskHandle, type TaskHandleOptions, type TaskOrigin } from './task-handle.ts';
export { TaskCancelledError, TaskDetachedError } from './task-errors.ts';
export type { DetailedTaskView, TaskView } from './task-view.ts';
export { tasksClientPart, tasksForClient, type TasksClientOptions } from './tasks-client-part.ts';
export {
  createTaskReceiver,
  type TaskReceivedRequest,
  type TaskReceiver,
  type TaskReceiverOptions,
} from './task-receiver.ts';
