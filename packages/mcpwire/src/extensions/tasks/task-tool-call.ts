// tools/call with tasks (TASK-3/5, S26-TASK-2/3): the wrapper decides per call whether it runs as a
// task, and runs the core tools/call behind it, so validation and result shaping stay the core's.
// A call that is not task-augmented costs one registry lookup (none before 2025-11-25), then the core.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import { hasCapability } from '../../protocol/capabilities.ts';
import { StatelessErrorCode } from '../../protocol/types/index.ts';
import type { RequestContext } from '../../server/context.ts';
import type { PlainHandler, RequestOrigin, ServerMethodHandler } from '../../server/method-handlers.ts';
import type { Tools, ToolHandler, ToolReturn } from '../../server/tools.ts';
import type { CallToolRequestParams } from '../../protocol/types/index.ts';
import { TaskRequestContext, type RequestFacts } from './task-context.ts';
import type { TaskEra, TaskRecord, TaskRequestor } from './task-record.ts';
import type { TaskRunner } from './task-runner.ts';
import type { TaskOutcome, TaskWork } from './task-work.ts';
import { toCreateTaskResult } from './task-wire.ts';
import { TASKS_EXTENSION_ID } from './tasks-protocol.ts';

/** What the wrapper needs besides the runner: where to tell a handshake-era task's connection. */
export interface ToolCallTasks {
  readonly runner: TaskRunner;
  /** Remembers the handshake-era connection of a new task (for its status notifications). */
  bind(taskId: string, origin: RequestOrigin): void;
}

/** Continues a handler's work as a task: called by a handler made with `inputThenTask`. */
export type Detach = (work: (taskCtx: RequestContext) => Promise<ToolReturn>) => Promise<ToolReturn>;

const phased = new WeakSet<ToolHandler>();
const detachers = new WeakMap<RequestContext, Detach>();

/**
 * A tool handler in two phases: it asks for what it needs first (multi-round-trip input in the
 * stateless era, S26-TASK-6; real requests in the handshake era), then calls `continueAsTask(work)`:
 * when the call runs as a task, the task is created only then and `work` runs in it with the task's
 * context; otherwise `work` runs at once with the request's own context.
 */
export function inputThenTask(
  handler: (
    args: Record<string, unknown>,
    ctx: RequestContext,
    continueAsTask: Detach,
  ) => Promise<ToolReturn>,
): ToolHandler {
  const wrapped: ToolHandler = (args, ctx) =>
    handler(args as Record<string, unknown>, ctx, detachers.get(ctx) ?? ((work) => work(ctx)));
  phased.add(wrapped);
  return wrapped;
}

/**
 * The wrapper of the core tools/call handler, for both of the server's tables: given a `next` that
 * returns a promise (`wraps`), every branch returns a promise; given the plain twin (`plainWraps`), a
 * call that is not a task is `next`'s own answer, a plain value where `next` gave one.
 */
export function wrapToolsCall(tasks: ToolCallTasks): (next: PlainHandler) => PlainHandler {
  return (next) => (params, ctx, origin) => {
    // TASK-4: before 2025-11-25 nothing declared tasks, so a `task` field is ignored; such a call
    // needs no lookup of the tool (the core's tools/call looks it up anyway).
    if (ctx.era === 'handshake' && ctx.protocolVersion < '2025-11-25') return next(params, ctx, origin);
    const entry = origin.server.tools.registry.get(params.name as string);
    const support = entry?.definition.execution?.taskSupport;
    const isCapable = support === 'optional' || support === 'required';
    if (ctx.era === 'handshake') {
      if (params.task === undefined) {
        // TASK-3 makes this -32601 (MUST); TASK-8's -32600 is a MAY: we answer -32601.
        if (support === 'required')
          return reject(
            ErrorCode.MethodNotFound,
            `Tool "${String(params.name)}" must be called as a task: add "task" to the params`,
          );
        return next(params, ctx, origin);
      }
      if (!entry) return next(params, ctx, origin);
      if (!isCapable)
        return reject(
          ErrorCode.MethodNotFound,
          `Tool "${String(params.name)}" does not support tasks: call it without "task"`,
        );
      return runAsTask(tasks, promised(next), {
        params,
        ctx,
        origin,
        era: 'handshake',
        isPhased: phased.has(entry.handler),
        isIdempotent: entry.definition.annotations?.idempotentHint === true,
      });
    }
    // S26-TASK-2: a handshake-era `task` param never turns a call into a task; only the tool's support does.
    if (!isCapable) return next(params, ctx, origin);
    if (!hasCapability(ctx.clientCapabilities, ['extensions', TASKS_EXTENSION_ID])) {
      // S26-TASK-3: no task for a request that did not declare the extension.
      if (support === 'required')
        return Promise.reject(missingExtension(`Tool "${String(params.name)}" runs only as a task`));
      return next(params, ctx, origin);
    }
    return runAsTask(tasks, promised(next), {
      params,
      ctx,
      origin,
      era: 'stateless',
      isPhased: phased.has(entry!.handler),
      isIdempotent: entry!.definition.annotations?.idempotentHint === true,
    });
  };
}

/**
 * Who a request is, for its tasks (TaskRequestor): its principal, else its handshake-era session
 * (issue 21: unauthenticated clients must not share tasks), else nobody in particular.
 */
export function requestorOf(ctx: RequestContext, origin: RequestOrigin): TaskRequestor {
  const owner = ctx.auth?.principal;
  if (owner !== undefined) return { owner };
  const session = origin.connection?.sessionId;
  return session === undefined ? {} : { session };
}

/** -32021 naming the extension (S26-TASK-3/4). */
export function missingExtension(why: string): RpcError {
  return new RpcError(
    StatelessErrorCode.MissingRequiredClientCapability,
    `${why}: the request must declare the client capability extensions["${TASKS_EXTENSION_ID}"]`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
  );
}

interface TaskCall {
  params: JsonObject;
  ctx: RequestContext;
  origin: RequestOrigin;
  era: TaskEra;
  /** The handler was made with `inputThenTask`: the task starts when it detaches. */
  isPhased: boolean;
  /** The tool declares `idempotentHint: true`: another process may run it again (TaskRerun). */
  isIdempotent: boolean;
}

/**
 * Runs the core tools/call as a task and answers with CreateTaskResult once the task is stored
 * (S26-TASK-6). A phased handler runs in the request first; its result, if it never detaches, is
 * the answer as usual.
 */
function runAsTask(tasks: ToolCallTasks, next: ServerMethodHandler, call: TaskCall): Promise<JsonObject> {
  const { ctx, origin, era } = call;
  const params = call.params.task === undefined ? call.params : withoutTask(call.params);
  const ttl = (call.params.task as JsonObject | undefined)?.ttl;
  const start = (run: (taskCtx: RequestContext) => Promise<JsonObject>): Promise<JsonObject> => {
    let answered!: () => void;
    const isAnswered = new Promise<void>((resolve) => (answered = resolve));
    return tasks.runner
      .start(
        async (control) => {
          // The tool starts a turn after the creation result is on its way, with the task bound to
          // its connection: its first status change and input request (TASK-9, TASK-14) come after
          // the client knows the task's id, however soon the tool asks.
          await isAnswered;
          await new Promise((resolve) => setTimeout(resolve, 0));
          control.signal.throwIfAborted(); // cancelled meanwhile: the tool never starts
          return toOutcome(await run(new TaskRequestContext(ctx, control, origin.connection)), era);
        },
        {
          era,
          requestMethod: 'tools/call',
          ttlMs: era === 'handshake' && typeof ttl === 'number' ? ttl : undefined,
          ...requestorOf(ctx, origin),
          // A phased handler's earlier input would be missing from a re-run: only plain ones re-run.
          rerun: call.isIdempotent && !call.isPhased ? { params, context: factsOf(ctx) } : undefined,
        },
      )
      .then((record) => {
        if (era === 'handshake') tasks.bind(record.taskId, origin);
        answered();
        return toCreateTaskResult(record);
      });
  };
  if (!call.isPhased) return start((taskCtx) => next(params, taskCtx, origin));
  return new Promise<JsonObject>((resolve, reject) => {
    let isDetached = false;
    let settle!: (result: Promise<JsonObject>) => void;
    const outcome = new Promise<JsonObject>((resolveOutcome) => (settle = resolveOutcome));
    detachers.set(ctx, (work) => {
      isDetached = true;
      return new Promise<ToolReturn>((resolveWork, rejectWork) => {
        start((taskCtx) => {
          work(taskCtx).then(resolveWork, rejectWork);
          return outcome;
        }).then(resolve, reject);
      });
    });
    const served = next(params, ctx, origin);
    settle(served);
    served.then(
      (result) => isDetached || resolve(result),
      (error: unknown) => isDetached || reject(error as Error),
    );
  });
}

/**
 * The work of a tools/call task run again in this process after its worker died (TaskRerun): the
 * tool called with the stored params and a context rebuilt from the stored facts. No connection is
 * left to it: handshake-era progress and logs are dropped, and input it asks for becomes the task's
 * `inputRequests` (answered by `tasks/update` at 2026-07-28; a handshake-era client never answers it).
 */
export function rerunToolCall(tools: Pick<Tools, 'call'>, record: TaskRecord): TaskWork {
  const { params, context } = record.rerun!;
  const facts = context as unknown as Pick<RequestContext, RequestFacts>;
  return async (control) =>
    toOutcome(
      (await tools.call(
        params as unknown as CallToolRequestParams,
        new TaskRequestContext(facts, control, undefined),
      )) as unknown as JsonObject,
      record.era,
    );
}

/** The facts of `ctx` a re-run needs, as JSON (the principal included: a handler may read it). */
function factsOf(ctx: RequestContext): JsonObject {
  const { era, protocolVersion, clientCapabilities, clientInfo, requestId, method, meta, auth } = ctx;
  return JSON.parse(
    JSON.stringify({ era, protocolVersion, clientCapabilities, clientInfo, requestId, method, meta, auth }),
  ) as JsonObject;
}

/** TASK-13: a tool error fails a handshake-era task; S26-TASK-8: it completes a stateless one. */
function toOutcome(result: JsonObject, era: TaskEra): TaskOutcome {
  if (result.isError === true && era === 'handshake')
    return { result, status: 'failed', statusMessage: errorText(result) };
  return { result };
}

function errorText(result: JsonObject): string {
  const first = (result.content as Array<{ type?: string; text?: string }> | undefined)?.[0];
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : 'The tool reported an error';
}

/** `next` answering with a promise always: a task's run and a phased handler chain on it. */
function promised(next: PlainHandler): ServerMethodHandler {
  return (params, ctx, origin) => {
    const result = next(params, ctx, origin);
    return result instanceof Promise ? result : Promise.resolve(result);
  };
}

function withoutTask(params: JsonObject): JsonObject {
  const { task: _task, ...rest } = params;
  return rest;
}

function reject(code: number, message: string): Promise<never> {
  return Promise.reject(new RpcError(code, message));
}
