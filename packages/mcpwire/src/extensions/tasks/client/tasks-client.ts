// The requestor side of tasks for a Client: call a tool as a task in either era and get a
// TaskHandle, or resume a task by id on a later connection (TASK-3/5, S26-TASK-2/3).

import type { Client } from '../../../client/client.ts';
import { InvalidResultError, NotConnectedError } from '../../../client/errors.ts';
import type { JsonObject, RequestId } from '../../../jsonrpc/message.ts';
import type { Progress } from '../../../protocol/progress.ts';
import type { RequestOptions } from '../../../protocol/session.ts';
import type { CallToolResult, ListTasksResult, Tool } from '../../../protocol/types/index.ts';
import { TASKS_EXTENSION_ID } from '../tasks-protocol.ts';
import { TaskHandle, type TaskHandleOptions } from './task-handle.ts';
import { createdTaskOf, toTaskView, type DetailedTaskView, type TaskView } from './task-view.ts';

/** Options of one `callToolAsTask`. */
export interface CallToolAsTaskOptions extends Pick<RequestOptions, 'signal' | 'timeoutMs'> {
  /** Handshake era: the retention to ask for, in ms (TASK-5); the receiver may choose another. */
  ttlMs?: number;
}

/**
 * Tasks of the server a Client is connected to. In the handshake era a call is task-augmented
 * only where the server declared `tasks.requests.tools.call` and the tool's `taskSupport` is
 * `optional` or `required` (TASK-3); in the stateless era the server decides (S26-TASK-2), for a
 * client that declared the extension (`new Client(info, { extensions: [tasks()] })`).
 */
export class TasksClient {
  readonly #client: Client;
  readonly #options: TaskHandleOptions;

  constructor(client: Client, options: TaskHandleOptions = {}) {
    this.#client = client;
    this.#options = options;
  }

  /** True if the connected server can run tool calls as tasks in the connection's era. */
  get isSupported(): boolean {
    const capabilities = this.#client.serverCapabilities;
    if (this.#client.era === 'stateless') return capabilities?.extensions?.[TASKS_EXTENSION_ID] !== undefined;
    return capabilities?.tasks?.requests?.tools?.call !== undefined;
  }

  /**
   * Calls tool `name` as a task where the server and the tool allow it, and resolves with its
   * handle once the server answered: a TaskHandle with an `id`, or (the call ran at once: a tool
   * without task support, or a server that chose not to make a task) one without, whose result is
   * ready. Rejects as `callTool` does (an RpcError, e.g. -32601 for a tool that needs a task the
   * server cannot make), or with InvalidResultError for a malformed task.
   */
  async callToolAsTask(
    name: string,
    args: JsonObject = {},
    options: CallToolAsTaskOptions = {},
  ): Promise<TaskHandle> {
    const era = this.#client.era;
    if (era === undefined) throw new NotConnectedError('tools/call');
    let progressToken: RequestId | undefined;
    const progress: Progress[] = [];
    const requestOptions: RequestOptions = {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      // PROG-5: the token of the creating request stays the task's. The work may report progress
      // before the answer arrives: kept for the handle.
      onProgress: (update) => progress.push(update),
      onRequestId: (id) => (progressToken = id),
    };
    const isTask = era === 'handshake' && this.isSupported && (await this.#isTaskCapable(name, options));
    const task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
    const params = isTask ? { name, arguments: args, task } : { name, arguments: args };
    const result = (await this.#client.callTool(params, requestOptions)) as unknown as JsonObject;
    const created = createdTaskOf(era, result);
    if (created === undefined)
      return new TaskHandle(
        this.#client,
        { kind: 'result', result: result as CallToolResult },
        this.#options,
      );
    const view = this.#check('tools/call', toTaskView(era, created));
    return new TaskHandle(
      this.#client,
      { kind: 'task', era, view, progress, ...(progressToken === undefined ? {} : { progressToken }) },
      this.#options,
    );
  }

  /**
   * Resumes the task `taskId` (made on this or an earlier connection, S26-TASK-9: ids may be kept
   * across restarts): one `tasks/get`, then a handle that follows it. Rejects with the server's
   * RpcError -32602 for an unknown or expired task.
   */
  async task(taskId: string, options: Pick<RequestOptions, 'signal'> = {}): Promise<TaskHandle> {
    const era = this.#client.era;
    if (era === undefined) throw new NotConnectedError('tasks/get');
    const view = this.#check(
      'tasks/get',
      toTaskView(era, await this.#client.request('tasks/get', { taskId }, options)),
    );
    return new TaskHandle(this.#client, { kind: 'task', era, view }, this.#options);
  }

  /**
   * Handshake era: every task the server lists for this client (`tasks/list`, all pages, TASK-16).
   * The stateless era has no list (S26-TASK-12): resolves with [] there.
   */
  async list(options: Pick<RequestOptions, 'signal'> = {}): Promise<TaskView[]> {
    if (this.#client.era !== 'handshake') return [];
    const views: TaskView[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.#client.request<ListTasksResult>('tasks/list', params, options);
      for (const task of Array.isArray(result.tasks) ? result.tasks : [])
        views.push(this.#check('tasks/list', toTaskView('handshake', task)));
      if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return views;
      cursor = result.nextCursor;
    }
    throw new Error('tasks/list returned more than 1000 pages');
  }

  /** TASK-3: only tools whose `execution.taskSupport` is optional or required take a task. */
  async #isTaskCapable(name: string, options: CallToolAsTaskOptions): Promise<boolean> {
    const listOptions = options.signal === undefined ? {} : { signal: options.signal };
    const tools: Tool[] = await this.#client.listAllTools(listOptions);
    const support = tools.find((tool) => tool.name === name)?.execution?.taskSupport;
    return support === 'optional' || support === 'required';
  }

  #check(method: string, view: DetailedTaskView | string): DetailedTaskView {
    if (typeof view === 'string') throw new InvalidResultError(method, view);
    return view;
  }
}
