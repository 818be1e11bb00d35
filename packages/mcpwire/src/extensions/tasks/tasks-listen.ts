// `notifications/tasks` on stateless-era `subscriptions/listen` streams (S26-TASK-13): the listen
// feed under the filter key `taskIds`, refused with -32021 without the extension (S26-TASK-4).

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import { hasCapability } from '../../protocol/capabilities.ts';
import type { ListenFeed } from '../../server/listen-feed.ts';
import { isTerminal, type TaskRecord } from './task-record.ts';
import type { TaskRunner } from './task-runner.ts';
import { missingExtension } from './task-tool-call.ts';
import { toDetailedTask } from './task-wire.ts';
import { TASKS_EXTENSION_ID } from './tasks-protocol.ts';

/**
 * The `taskIds` feed of a runner. It accepts the ids of stateless-era tasks the caller may read
 * (the ack echoes them; unknown, expired, foreign and handshake-era ids are left out) and sends the
 * task as `tasks/get` would show it (without `resultType`) on each change of it (made through any
 * node when the runner's store is shared), until
 * the task is terminal or deleted. Right after the ack it sends each accepted task's current
 * state once, so a change between CreateTaskResult and the listen is not missed.
 */
export function taskListenFeed(runner: TaskRunner): ListenFeed {
  return {
    key: 'taskIds',
    async open(value, request) {
      if (!hasCapability(request.clientCapabilities, ['extensions', TASKS_EXTENSION_ID]))
        throw missingExtension(
          'A "subscriptions/listen" that asks for taskIds is part of the tasks extension',
        );
      if (!Array.isArray(value) || !value.every((id) => typeof id === 'string'))
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "subscriptions/listen": notifications.taskIds must be an array of task id strings, got ${describeFilter(value)}`,
        );
      // A stateless-era request has no session: its requestor is its principal, if any.
      const owner = { owner: request.auth?.principal };
      const found = await Promise.all([...new Set(value as string[])].map((id) => runner.get(id, owner)));
      const accepted = found.filter((record): record is TaskRecord => record?.era === 'stateless');
      return {
        honoured: accepted.length === 0 ? undefined : accepted.map((record) => record.taskId),
        start: (send) => {
          const watched = new Set(accepted.map((record) => record.taskId));
          const sent = new Set<string>();
          const notify = (record: TaskRecord): void => {
            sent.add(record.taskId);
            send('notifications/tasks', toTaskNotification(record));
            if (isTerminal(record.status)) watched.delete(record.taskId);
          };
          // Each task's changes as the runner's store sees them: made anywhere, on a shared store.
          const offs = [...watched].map((taskId) =>
            runner.watch(taskId, (record) => {
              if (!watched.has(taskId)) return;
              if (record) notify(record);
              else watched.delete(taskId);
            }),
          );
          const off = (): void => offs.forEach((unwatch) => unwatch());
          // Read again once watching: a change since `open` read it is then either seen here or sent above.
          for (const taskId of watched)
            runner.get(taskId, owner).then(
              (record) => {
                if (!watched.has(taskId) || sent.has(taskId)) return;
                if (record) notify(record);
                else watched.delete(taskId);
              },
              () => watched.delete(taskId),
            );
          return off;
        },
      };
    },
  };
}

/** S26-TASK-13: the params are a full DetailedTask, as `tasks/get` would return it. */
function toTaskNotification(record: TaskRecord): JsonObject {
  const { resultType: _resultType, ...task } = toDetailedTask(record);
  return task as unknown as JsonObject;
}

/**
 * What a malformed `taskIds` filter was, for the -32602 message. Never JSON.stringify of the whole
 * value: a peer's value may nest deeper than that recursion survives, or run to megabytes (issue 21).
 */
function describeFilter(value: unknown): string {
  if (Array.isArray(value)) return 'an array with an item that is not a string';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}
