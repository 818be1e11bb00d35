// What a Client takes of the tasks extension: the stateless-era declaration (S26-TASK-1: `{}` under
// `extensions`, per request), `resultType: "task"` accepted for tools/call only (S26-TASK-3), and the
// handshake-era receiver side (tasks the server asks the client to run, TASK-1).

import type { ClientExtension, ClientExtensionPart } from '../../../client/extension.ts';
import { defineExtension } from '../../../protocol/extension.ts';
import { TASKS_EXTENSION_ID } from '../tasks-protocol.ts';
import { createTaskReceiver, type TaskReceiverOptions } from './task-receiver.ts';

/** Options of the tasks extension on a client. */
export interface TasksClientOptions {
  /** Run the server's task-augmented elicitation and sampling requests as tasks (default on); `false`: never. */
  receiver?: TaskReceiverOptions | false;
}

/**
 * The client part. A CreateTaskResult for any other method than tools/call stays an invalid result
 * (S26-TASK-3). Fresh state (the receiver's runner) per call: give each Client its own.
 */
export function tasksClientPart(options: TasksClientOptions = {}): ClientExtensionPart {
  const receiver = options.receiver === false ? undefined : createTaskReceiver(options.receiver);
  return {
    settings: () => ({}),
    resultTypes: { 'tools/call': ['task'] },
    ...(receiver === undefined
      ? {}
      : {
          capabilities: (version: string) => receiver.capabilities(version),
          middleware: receiver.middleware,
        }),
  };
}

/**
 * The tasks extension for a Client that serves no tasks of its own as a server would:
 * `new Client(info, { extensions: [tasksForClient()] })`. Declares the extension in the stateless era
 * and the receiver's `tasks` capability in the handshake era. One value per Client.
 */
export function tasksForClient(options: TasksClientOptions = {}): ClientExtension {
  return defineExtension({ id: TASKS_EXTENSION_ID, methods: {}, client: tasksClientPart(options) });
}
