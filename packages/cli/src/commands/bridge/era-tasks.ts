// The 2026-07-28 tasks extension (S26-TASK-*) in front of a handshake-era child's 2025-11-25 tasks
// (TASK-*): a task-creating `tools/call` becomes a task-augmented call on the child, `tasks/get` the
// child's `tasks/get` (and `tasks/result` once terminal, inlined), `tasks/cancel` the child's, the
// child's input requests tagged with a task (TASK-15) the task's `inputRequests`, answered by
// `tasks/update`, and the child's `notifications/tasks/status` `notifications/tasks` on listen
// streams. The tasks live on the child, across requests; ids are mapped by era-task-wire.ts.

import { randomBytes } from 'node:crypto';
import { defineExtension, ErrorCode, RpcError, type JsonObject, type ServerCapabilities } from 'mcpwire';
import type { Client } from 'mcpwire/client';
import type { ListenFeed, RequestContext, ServerExtension, ServerMethodHandler } from 'mcpwire/server';
import {
  missingExtension,
  tasks,
  TASKS_EXTENSION_ID,
  type DetailedTask,
  type TaskInputRequest,
} from 'mcpwire/extensions/tasks';
import {
  childTaskOf,
  FINISHED_KEPT,
  fromFrontTaskId,
  isPastTtl,
  relatedChildTaskId,
  toFrontInputRequest,
  toFrontTask,
  toFrontTaskId,
  withoutRelatedTask,
  type ChildTask,
} from './era-task-wire.ts';

/** The extension's own methods (`notifications/tasks`), as the library describes them. */
const TASKS_METHODS = tasks().methods;

/** An input request of the child's for a task, waiting for the client's `tasks/update`. */
interface TaskInput {
  readonly request: TaskInputRequest;
  readonly resolve: (answer: JsonObject) => void;
  readonly reject: (error: Error) => void;
}

/** What the bridge knows of one of the child's tasks. */
interface TaskEntry {
  /** The principal it was created for (undefined: none, the id alone reaches it). */
  owner: string | undefined;
  /** The child's CreateTaskResult reached the bridge (an input request of the task may come first). */
  isCreated: boolean;
  readonly inputs: Map<string, TaskInput>;
  /** Called on every change the bridge sees (status notification, input request, answer). */
  readonly watchers: Set<() => void>;
  /** The front's view once terminal: it never changes again, and the child may forget the task. */
  final?: DetailedTask;
}

/**
 * The child's tasks offered to 2026-07-28 clients. One per child connection: a child that exits takes
 * its tasks with it (`close`). Offered only when the child declares task-augmented `tools/call`.
 */
export class EraTasks {
  readonly #client: Client;
  readonly #secret = randomBytes(32);
  /** The child's tools' `execution.taskSupport`, by name, as it last listed them. */
  #support = new Map<string, string>();
  /** By the child's task id. */
  readonly #tasks = new Map<string, TaskEntry>();
  /** The child ids of finished tasks whose answer is kept, oldest first (at most FINISHED_KEPT). */
  readonly #finished = new Set<string>();

  constructor(client: Client) {
    this.#client = client;
    client.on('notification', ({ method, params }) => {
      if (method !== 'notifications/tasks/status' || typeof params.taskId !== 'string') return;
      const entry = this.#tasks.get(params.taskId);
      if (entry) changed(entry);
    });
  }

  /** True when the child declares task-augmented `tools/call` (2025-11-25 `tasks.requests.tools.call`). */
  get isOffered(): boolean {
    const declared = this.#client.serverCapabilities as ServerCapabilities | undefined;
    return declared?.tasks?.requests?.tools?.call !== undefined;
  }

  /** Remembers the tools' task support (from the child's `tools/list`). */
  setTools(tools: ReadonlyArray<{ name: string; execution?: { taskSupport?: string } }>): void {
    this.#support = new Map(tools.map((tool) => [tool.name, tool.execution?.taskSupport ?? 'forbidden']));
  }

  /** The extension the front declares: none unless {@link isOffered}. */
  extensions(): ServerExtension[] {
    if (!this.isOffered) return [];
    const handlers: Record<string, ServerMethodHandler> = {
      'tasks/get': (params, ctx) => this.#get(params, ctx),
      'tasks/update': (params, ctx) => this.#update(params, ctx),
      'tasks/cancel': (params, ctx) => this.#cancel(params, ctx),
    };
    const wraps = Object.fromEntries(
      Object.entries(handlers).map(([method, handler]) => [method, () => handler]),
    );
    return [
      defineExtension({
        id: TASKS_EXTENSION_ID,
        methods: TASKS_METHODS,
        server: { handlers: {}, settings: () => ({}), wraps, listen: [this.#feed()] },
      }),
    ];
  }

  /**
   * A `tools/call` of a 2026-07-28 client: a tool the child runs as a task (`taskSupport` optional
   * or required) is called task-augmented when the request declares the extension (S26-TASK-2/3),
   * and the child's `{task}` answered as a flat CreateTaskResult with the front id. A `task` param
   * of the client's never makes a task (S26-TASK-2). `run` makes the call (with its input rounds).
   */
  async callTool(
    params: JsonObject,
    ctx: RequestContext,
    run: (params: JsonObject) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const { task: _hint, ...plain } = params;
    const support = this.#support.get(params.name as string);
    if (!this.isOffered || (support !== 'optional' && support !== 'required')) return run(plain);
    if (!declaresTasks(ctx.clientCapabilities)) {
      if (support === 'required') throw missingExtension(`Tool "${String(params.name)}" runs only as a task`);
      return run(plain);
    }
    const result = await run({ ...plain, task: {} });
    const task = childTaskOf(result);
    if (task === undefined) return result; // the child answered at once
    const entry = this.#entry(task.taskId);
    entry.owner = ctx.auth?.principal;
    entry.isCreated = true;
    const front = toFrontTask(
      task,
      toFrontTaskId(task.taskId, entry.owner, this.#secret),
      entry.inputs.size > 0,
    );
    const meta = result._meta;
    return {
      resultType: 'task',
      ...(front as unknown as JsonObject),
      ...(typeof meta === 'object' && meta !== null ? withoutRelatedTask({ _meta: meta }) : {}),
    };
  }

  /**
   * A request of the child's (elicitation, sampling, roots): one tagged with a task (TASK-15)
   * becomes an input request of that task, answered by the client's `tasks/update`; undefined for
   * one that names no task (the caller's rounds take it).
   */
  askClient(
    method: TaskInputRequest['method'],
    params: JsonObject | undefined,
  ): Promise<JsonObject> | undefined {
    const childTaskId = relatedChildTaskId(params);
    if (childTaskId === undefined) return undefined;
    const entry = this.#entry(childTaskId);
    const key = `mcpwire-task-input:${randomBytes(16).toString('hex')}`;
    return new Promise((resolve, reject) => {
      entry.inputs.set(key, { request: toFrontInputRequest(method, params), resolve, reject });
      changed(entry);
    });
  }

  /** Fails every input request waiting for a client and forgets the tasks (the child is gone). */
  close(reason: string): void {
    for (const entry of this.#tasks.values()) {
      for (const input of entry.inputs.values()) input.reject(new Error(reason));
      entry.inputs.clear();
    }
    this.#tasks.clear();
    this.#finished.clear();
  }

  #entry(childTaskId: string): TaskEntry {
    let entry = this.#tasks.get(childTaskId);
    if (entry === undefined) {
      entry = { owner: undefined, isCreated: false, inputs: new Map(), watchers: new Set() };
      this.#tasks.set(childTaskId, entry);
    }
    return entry;
  }

  /**
   * The task a request names (S26-TASK-4: -32021 without the extension on this very request). A
   * forged id, another principal's, or one the bridge never made is -32602, all alike (S26-TASK-12).
   */
  #find(
    params: JsonObject,
    ctx: RequestContext,
  ): { childTaskId: string; entry: TaskEntry; frontTaskId: string } {
    if (!declaresTasks(ctx.clientCapabilities))
      throw missingExtension(`"${ctx.method}" is part of the tasks extension`);
    const frontTaskId = String(params.taskId);
    const childTaskId = fromFrontTaskId(frontTaskId, ctx.auth?.principal, this.#secret);
    const entry = childTaskId === undefined ? undefined : this.#tasks.get(childTaskId);
    if (childTaskId === undefined || entry?.isCreated !== true) throw unknownTask(frontTaskId, ctx.method);
    return { childTaskId, entry, frontTaskId };
  }

  async #get(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const { childTaskId, entry, frontTaskId } = this.#find(params, ctx);
    return (await this.#detailed(childTaskId, entry, frontTaskId, ctx.method)) as unknown as JsonObject;
  }

  async #update(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const { entry } = this.#find(params, ctx);
    const responses = params.inputResponses as Record<string, unknown>;
    for (const [key, answer] of Object.entries(responses))
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "tasks/update": inputResponses["${key}"] must be an object`,
        );
    let isChanged = false;
    // S26-TASK-10: keys the task is not waiting for are ignored.
    for (const [key, answer] of Object.entries(responses)) {
      const input = entry.inputs.get(key);
      if (input === undefined) continue;
      entry.inputs.delete(key);
      input.resolve(answer as JsonObject);
      isChanged = true;
    }
    if (isChanged) changed(entry);
    return {};
  }

  async #cancel(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const { childTaskId, entry } = this.#find(params, ctx);
    try {
      await this.#client.request('tasks/cancel', { taskId: childTaskId }, { signal: ctx.signal });
    } catch (error) {
      // TASK-17: the child's -32602 for a task already terminal; S26-TASK-11 acks that all the same.
      if (!(error instanceof RpcError && error.code === ErrorCode.InvalidParams)) throw error;
    }
    for (const input of entry.inputs.values()) input.reject(new Error('the task was cancelled'));
    entry.inputs.clear();
    changed(entry);
    return {};
  }

  /**
   * The task as `tasks/get` shows it (S26-TASK-7): the child's status and, once terminal, its
   * outcome from the child's `tasks/result`: a result (a tool error included, S26-TASK-8:
   * `completed`) or a JSON-RPC error (`failed`).
   */
  async #detailed(
    childTaskId: string,
    entry: TaskEntry,
    frontTaskId: string,
    method: string,
  ): Promise<DetailedTask> {
    if (entry.final) {
      if (!isPastTtl(entry.final)) return entry.final;
      this.#forget(childTaskId);
      throw unknownTask(frontTaskId, method);
    }
    let task: ChildTask;
    try {
      task = (await this.#client.request('tasks/get', { taskId: childTaskId })) as unknown as ChildTask;
    } catch (error) {
      if (!(error instanceof RpcError && error.code === ErrorCode.InvalidParams)) throw error;
      this.#forget(childTaskId); // expired on the child
      throw unknownTask(frontTaskId, method);
    }
    const detailed: DetailedTask = {
      resultType: 'complete',
      ...toFrontTask(task, frontTaskId, entry.inputs.size > 0),
    };
    if (detailed.status === 'input_required')
      detailed.inputRequests = Object.fromEntries(
        [...entry.inputs].map(([key, input]) => [key, input.request]),
      );
    if (detailed.status === 'completed' || detailed.status === 'failed') {
      try {
        const result = await this.#client.request('tasks/result', { taskId: childTaskId });
        detailed.status = 'completed';
        detailed.result = withoutRelatedTask(result);
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        detailed.status = 'failed';
        detailed.error = {
          code: error.code,
          message: error.message,
          ...(error.data === undefined ? {} : { data: error.data }),
        };
      }
    }
    if (detailed.status === 'completed' || detailed.status === 'failed' || detailed.status === 'cancelled')
      this.#keepFinal(childTaskId, entry, detailed);
    return detailed;
  }

  /**
   * Keeps a finished task's answer, so the child is asked once (it may forget the task). Bounded:
   * the answer goes at the task's ttl (read lazily) and when FINISHED_KEPT newer ones are kept.
   */
  #keepFinal(childTaskId: string, entry: TaskEntry, detailed: DetailedTask): void {
    entry.final = detailed;
    this.#finished.add(childTaskId);
    if (this.#finished.size <= FINISHED_KEPT) return;
    const [oldest] = this.#finished;
    if (oldest !== undefined) this.#forget(oldest);
  }

  #forget(childTaskId: string): void {
    this.#tasks.delete(childTaskId);
    this.#finished.delete(childTaskId);
  }

  /** S26-TASK-13: `notifications/tasks` under `taskIds`, for the caller's own tasks only. */
  #feed(): ListenFeed {
    return {
      key: 'taskIds',
      open: async (value, request) => {
        if (!declaresTasks(request.clientCapabilities))
          throw missingExtension(
            'A "subscriptions/listen" that asks for taskIds is part of the tasks extension',
          );
        if (!Array.isArray(value) || !value.every((id) => typeof id === 'string'))
          throw new RpcError(
            ErrorCode.InvalidParams,
            'Invalid params for "subscriptions/listen": notifications.taskIds must be an array of task id strings',
          );
        const owner = request.auth?.principal;
        const accepted = [...new Set(value as string[])].flatMap((frontTaskId) => {
          const childTaskId = fromFrontTaskId(frontTaskId, owner, this.#secret);
          const entry = childTaskId === undefined ? undefined : this.#tasks.get(childTaskId);
          return childTaskId !== undefined && entry?.isCreated === true
            ? [{ frontTaskId, childTaskId, entry }]
            : [];
        });
        return {
          honoured: accepted.length === 0 ? undefined : accepted.map((task) => task.frontTaskId),
          start: (send) => {
            const stops = accepted.map(({ frontTaskId, childTaskId, entry }) =>
              this.#follow(childTaskId, entry, frontTaskId, (task) => send('notifications/tasks', task)),
            );
            return () => stops.forEach((stop) => stop());
          },
        };
      },
    };
  }

  /** Sends the task now and on each change seen, until it is terminal or `stop` is called. */
  #follow(
    childTaskId: string,
    entry: TaskEntry,
    frontTaskId: string,
    send: (task: JsonObject) => void,
  ): () => void {
    let isStopped = false;
    let lastSent = '';
    const stop = (): void => {
      isStopped = true;
      entry.watchers.delete(push);
    };
    const push = (): void => {
      this.#detailed(childTaskId, entry, frontTaskId, 'subscriptions/listen').then(
        ({ resultType: _resultType, ...task }) => {
          const seen = `${task.status} ${task.lastUpdatedAt} ${Object.keys(task.inputRequests ?? {}).join(',')}`;
          if (isStopped || seen === lastSent) return;
          lastSent = seen;
          send(task as unknown as JsonObject);
          if (entry.final) stop();
        },
        () => stop(),
      );
    };
    entry.watchers.add(push);
    push();
    return stop;
  }
}

function changed(entry: TaskEntry): void {
  for (const watcher of [...entry.watchers]) watcher();
}

function declaresTasks(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  const declared = capabilities?.extensions?.[TASKS_EXTENSION_ID];
  return typeof declared === 'object' && declared !== null;
}

function unknownTask(taskId: string, method: string): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for "${method}": no task "${taskId}" (unknown, expired, or not yours)`,
    { taskId },
  );
}
