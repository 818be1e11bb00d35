// The client as the receiver of handshake-era tasks (2025-11-25, TASK-1..18, the other way round): a
// server may send `elicitation/create` or `sampling/createMessage` with `task`; the client runs the
// app's handler as a task on a TaskRunner and serves tasks/get, tasks/result, tasks/list, tasks/cancel.

import type { ClientMiddleware } from '../../../client/middleware.ts';
import type { JsonObject } from '../../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../../jsonrpc/rpc-error.ts';
import { isStatelessVersion } from '../../../protocol/revisions.ts';
import type { ClientCapabilities } from '../../../protocol/types/index.ts';
import { isTerminal, type TaskRecord } from '../task-record.ts';
import { TaskRunner } from '../task-runner.ts';
import { toCreateTaskResult, toHandshakeTask } from '../task-wire.ts';
import { RELATED_TASK_META_KEY } from '../tasks-protocol.ts';

/** The server-to-client requests a client can run as tasks in 2025-11-25 (TASK-1). */
export type TaskReceivedRequest = 'elicitation/create' | 'sampling/createMessage';

/** Options of the client's receiver side. */
export interface TaskReceiverOptions {
  /** Where the tasks run and are kept; default a TaskRunner with an in-memory store. */
  runner?: TaskRunner;
  /** Which requests may take a task; default both. */
  requests?: readonly TaskReceivedRequest[];
}

/** What the receiver adds to a client: its capability per revision, and the middleware that serves it. */
export interface TaskReceiver {
  readonly runner: TaskRunner;
  capabilities(version: string): ClientCapabilities;
  readonly middleware: ClientMiddleware;
}

/** Tasks per `tasks/list` page. */
const PAGE_SIZE = 50;

/**
 * The receiver side. Declares `tasks.{list,cancel,requests}` in the handshake era only (the
 * stateless era has no server-to-client requests). A request without `task` runs as before
 * (TASK-4); one with it answers CreateTaskResult at once and runs the handler in the background.
 */
export function createTaskReceiver(options: TaskReceiverOptions = {}): TaskReceiver {
  const runner = options.runner ?? new TaskRunner();
  const requests = options.requests ?? ['elicitation/create', 'sampling/createMessage'];
  const middleware: ClientMiddleware = (request, next) => {
    if (request.direction !== 'inbound') return next();
    const params = request.params ?? {};
    if (isTaskRequest(request.method, requests) && isObject(params.task)) {
      const { task, ...rest } = params;
      request.params = rest;
      return startTask(runner, request.method, (task as JsonObject).ttl, next);
    }
    const serve = Object.hasOwn(TASK_METHODS, request.method) ? TASK_METHODS[request.method] : undefined;
    return serve ? serve(runner, params) : next();
  };
  return {
    runner,
    capabilities: (version) =>
      isStatelessVersion(version) || version < '2025-11-25'
        ? {}
        : {
            tasks: {
              list: {},
              cancel: {},
              requests: {
                ...(requests.includes('elicitation/create') ? { elicitation: { create: {} } } : {}),
                ...(requests.includes('sampling/createMessage') ? { sampling: { createMessage: {} } } : {}),
              },
            },
          },
    middleware,
  };
}

async function startTask(
  runner: TaskRunner,
  requestMethod: string,
  ttl: unknown,
  next: () => Promise<JsonObject>,
): Promise<JsonObject> {
  const record = await runner.start(async () => ({ result: await next() }), {
    era: 'handshake',
    requestMethod,
    ...(typeof ttl === 'number' ? { ttlMs: ttl } : {}),
  });
  return toCreateTaskResult(record);
}

type TaskMethodHandler = (runner: TaskRunner, params: JsonObject) => Promise<JsonObject>;

/** tasks/* as a receiver answers them (TASK-12, TASK-16..18). */
const TASK_METHODS: Readonly<Record<string, TaskMethodHandler>> = {
  'tasks/get': async (runner, params) => asJson(toHandshakeTask(await known(runner, params, 'tasks/get'))),
  'tasks/result': async (runner, params) => {
    const taskId = (await known(runner, params, 'tasks/result')).taskId;
    const record = (await runner.waitForTerminal(taskId)) ?? unknownTask('tasks/result', taskId);
    if (record.error) throw new RpcError(record.error.code, record.error.message, record.error.data);
    if (!record.result)
      throw new RpcError(ErrorCode.InvalidParams, `Task ${taskId} was ${record.status} and has no result`);
    // TASK-12: the result carries the related-task `_meta`.
    const meta = {
      ...((record.result._meta as JsonObject | undefined) ?? {}),
      [RELATED_TASK_META_KEY]: { taskId },
    };
    return { ...record.result, _meta: meta };
  },
  'tasks/list': async (runner, params) => {
    const cursor = typeof params.cursor === 'string' ? params.cursor : undefined;
    const page = await runner.list({ limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
    if (!page) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for "tasks/list": unknown cursor`);
    const tasks = page.records.map((record) => asJson(toHandshakeTask(record)));
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  },
  'tasks/cancel': async (runner, params) => {
    const record = await known(runner, params, 'tasks/cancel');
    // TASK-17: a terminal task cannot be cancelled.
    if (isTerminal(record.status))
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Cannot cancel task ${record.taskId}: it is already ${record.status}`,
      );
    const outcome = (await runner.cancel(record.taskId)) ?? unknownTask('tasks/cancel', record.taskId);
    return asJson(toHandshakeTask(outcome.record));
  },
};

async function known(runner: TaskRunner, params: JsonObject, method: string): Promise<TaskRecord> {
  const taskId = params.taskId as string;
  return (await runner.get(taskId)) ?? unknownTask(method, taskId);
}

/** TASK-18: an unknown or expired task is -32602. */
function unknownTask(method: string, taskId: string): never {
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for "${method}": no task ${JSON.stringify(taskId)}`,
  );
}

function isTaskRequest(method: string, requests: readonly TaskReceivedRequest[]): boolean {
  return (requests as readonly string[]).includes(method);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asJson(value: object): JsonObject {
  return value as unknown as JsonObject;
}
