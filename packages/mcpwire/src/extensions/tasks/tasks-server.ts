// The tasks extension as one value a Server takes: `new Server(info, { extensions: [tasks()] })`.
// Handshake era: the core `tasks` capability and methods (TASK-*); stateless era: the extension
// `io.modelcontextprotocol/tasks` (S26-TASK-*). Tools opt in with `execution.taskSupport`.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { defineExtension, type Extension } from '../../protocol/extension.ts';
import type { ClientExtensionPart } from '../../client/extension.ts';
import type {
  HandshakeConnection,
  RequestOrigin,
  ServerMethodHandler,
} from '../../server/method-handlers.ts';
import type { ServerExtensionPart } from '../../server/extension.ts';
import { TaskRunner } from './task-runner.ts';
import type { TaskRunnerOptions } from './task-work.ts';
import { isTerminal } from './task-record.ts';
import { rerunToolCall, wrapToolsCall } from './task-tool-call.ts';
import { toHandshakeTask } from './task-wire.ts';
import { tasksHandlers } from './tasks-handlers.ts';
import { tasksClientPart } from './client/tasks-client-part.ts';
import { taskListenFeed } from './tasks-listen.ts';
import { TASKS_EXTENSION_ID, TASKS_METHODS } from './tasks-protocol.ts';

/** Options of the tasks extension: the runner's (store, clock, ttl, poll interval) and a few more. */
export interface TasksOptions extends TaskRunnerOptions {
  /** A runner to use instead of making one from the options (e.g. one shared by two servers). */
  runner?: TaskRunner;
  /**
   * Declare and serve `tasks/list` in the handshake era (TASK-16). Default true. With no
   * authentication every unauthenticated caller shares one list: TASK-20 advises `false` there.
   */
  list?: boolean;
  /** Tasks per `tasks/list` page; default 50. */
  pageSize?: number;
  /** Send `notifications/tasks/status` on each status change in the handshake era (TASK-14). Default true. */
  statusNotifications?: boolean;
}

/** What {@link tasks} returns: the extension value, and the runner that serves it. */
export type TasksExtension = Extension<ServerExtensionPart, ClientExtensionPart> & {
  readonly runner: TaskRunner;
};

/**
 * The tasks extension: a task-augmented `tools/call` of a tool whose `execution.taskSupport` is
 * `optional` or `required` returns CreateTaskResult at once and the tool runs in the background.
 * One value per Server; close its `runner` to stop running work.
 */
export function tasks(options: TasksOptions = {}): TasksExtension {
  const runner = options.runner ?? new TaskRunner(options);
  const connections = new Map<string, HandshakeConnection>();
  if (options.statusNotifications !== false) {
    // TASK-14: the whole task, without related-task _meta, to the connection that created it.
    runner.onChange((taskId, record) => {
      const connection = connections.get(taskId);
      if (!connection) return;
      if (!record || isTerminal(record.status)) connections.delete(taskId);
      if (record)
        connection
          .sendNotification('notifications/tasks/status', toHandshakeTask(record) as unknown as JsonObject)
          .catch(() => connections.delete(taskId));
    });
  }
  const handlers = tasksHandlers(runner, options.pageSize ?? 50);
  const replace = Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => [method, () => handler]),
  );
  const wrapCall = wrapToolsCall({
    runner,
    bind: (taskId: string, origin: RequestOrigin) => {
      if (origin.connection && options.statusNotifications !== false)
        connections.set(taskId, origin.connection);
    },
  });
  // Given a promise-returning next, the wrapper returns promises only (wrapToolsCall); its plain twin
  // lets a call that is not a task take the serve path's fast path.
  const wraps: ServerExtensionPart['wraps'] = {
    ...replace,
    'tools/call': wrapCall as (next: ServerMethodHandler) => ServerMethodHandler,
  };
  const handshake: JsonObject = { cancel: {}, requests: { tools: { call: {} } } };
  if (options.list !== false) handshake.list = {};
  const server: ServerExtensionPart = {
    handlers: {},
    // A claimed task of an idempotent tool (its worker died elsewhere) runs again on this server's tools.
    attach: (host) => runner.setRerunner('tools/call', (record) => rerunToolCall(host.tools, record)),
    settings: () => ({}),
    wraps,
    plainWraps: { 'tools/call': wrapCall },
    // Tasks are 2025-11-25's in the handshake era (the stateless era declares only the extension, S26-TASK-1).
    capabilities: (version) => (version === '2025-11-25' ? { tasks: handshake } : undefined),
    // S26-TASK-13: `notifications/tasks` for the ids a listen asks for under `taskIds`.
    listen: [taskListenFeed(runner)],
  };
  // On a Client the same value declares the extension and runs the server's task requests on `runner`.
  const client: ClientExtensionPart = tasksClientPart({ receiver: { runner } });
  const extension = defineExtension({ id: TASKS_EXTENSION_ID, methods: TASKS_METHODS, server, client });
  return Object.assign(extension, { runner });
}
