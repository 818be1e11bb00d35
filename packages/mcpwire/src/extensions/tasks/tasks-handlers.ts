// The receiver's tasks/* methods on a Server, per era: tasks/get, tasks/result (blocking), tasks/list
// and tasks/cancel in the handshake era (TASK-12/16/17/18); tasks/get, tasks/update and tasks/cancel
// behind the extension in the stateless era (S26-TASK-4/7/10/11/12).

import type { JsonObject } from '../../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../../jsonrpc/rpc-error.ts';
import { hasCapability } from '../../protocol/capabilities.ts';
import type { RequestContext } from '../../server/context.ts';
import type { RequestOrigin, ServerMethodHandler } from '../../server/method-handlers.ts';
import type { TaskRecord } from './task-record.ts';
import type { TaskRunner } from './task-runner.ts';
import { missingExtension, requestorOf } from './task-tool-call.ts';
import { toDetailedTask, toHandshakeTask } from './task-wire.ts';
import { RELATED_TASK_META_KEY, TASKS_EXTENSION_ID } from './tasks-protocol.ts';

/** Handlers replacing the core's placeholders for the tasks methods. */
export function tasksHandlers(runner: TaskRunner, pageSize: number): Record<string, ServerMethodHandler> {
  return {
    'tasks/get': async (params, ctx, origin) => {
      const record = await find(runner, params, ctx, origin);
      return (ctx.era === 'handshake'
        ? toHandshakeTask(record)
        : toDetailedTask(record)) as unknown as JsonObject;
    },
    // Handshake era only (the row ends at 2025-11-25: -32601 in the stateless era, S26-TASK-12).
    'tasks/result': async (params, ctx, origin) => {
      const { taskId } = await find(runner, params, ctx, origin);
      // TASK-12: block until terminal; the request's signal ends the wait if the client gives up.
      const record = await runner.waitForTerminal(taskId, ctx.signal);
      if (!record) throw unknownTask(taskId);
      if (record.error) throw new RpcError(record.error.code, record.error.message, record.error.data);
      // A cancelled request has no response to repeat (TASK-12 is silent): we answer -32602.
      if (!record.result)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "tasks/result": task "${taskId}" was ${record.status} and has no result`,
          { taskId },
        );
      const result = record.result;
      const meta = { ...(result._meta as JsonObject | undefined), [RELATED_TASK_META_KEY]: { taskId } };
      return { ...result, _meta: meta };
    },
    'tasks/list': async (params, ctx, origin) => {
      const cursor = params.cursor as string | undefined;
      const requestor = requestorOf(ctx, origin);
      // Nobody in particular (no principal, no session): the tasks reachable by id alone are listed to no one.
      if (requestor.owner === undefined && requestor.session === undefined) return { tasks: [] };
      const page = await runner.list({
        ...requestor,
        ...(cursor === undefined ? {} : { cursor }),
        limit: pageSize,
      });
      if (!page)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "tasks/list": unknown cursor ${JSON.stringify(cursor)}`,
        );
      const tasks = page.records.filter((record) => record.era === 'handshake').map(toHandshakeTask);
      return (page.nextCursor === undefined
        ? { tasks }
        : { tasks, nextCursor: page.nextCursor }) as unknown as JsonObject;
    },
    'tasks/cancel': async (params, ctx, origin) => {
      const { taskId } = await find(runner, params, ctx, origin);
      const outcome = await runner.cancel(taskId, requestorOf(ctx, origin));
      if (!outcome) throw unknownTask(taskId);
      if (ctx.era === 'stateless') return {}; // S26-TASK-11: an empty ack, also for a terminal task.
      // TASK-17: cancelling a terminal task is -32602.
      if (outcome.wasTerminal)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "tasks/cancel": task "${taskId}" is already ${outcome.record.status}`,
        );
      return toHandshakeTask(outcome.record) as unknown as JsonObject;
    },
    // Stateless era only (the row starts at 2026-07-28).
    'tasks/update': async (params, ctx, origin) => {
      const { taskId } = await find(runner, params, ctx, origin);
      const responses = params.inputResponses as Record<string, unknown>;
      for (const [key, answer] of Object.entries(responses))
        if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
          throw new RpcError(
            ErrorCode.InvalidParams,
            `Invalid params for "tasks/update": inputResponses["${key}"] must be an object`,
          );
      if (!(await runner.answer(taskId, responses as Record<string, JsonObject>, requestorOf(ctx, origin))))
        throw unknownTask(taskId);
      return {}; // S26-TASK-10: an empty ack; unknown keys are ignored.
    },
  };
}

/**
 * The task a request names, checked: the stateless era needs the extension declared on this very
 * request (-32021, S26-TASK-4); an unknown, expired, other-era task or one of another requestor
 * (principal, or session without one: TaskRequestor) is -32602 (TASK-18, S26-TASK-12), the same
 * answer, so a foreign id cannot be told from an unknown one. Related-task `_meta` is ignored:
 * `taskId` is authoritative (TASK-15).
 */
async function find(
  runner: TaskRunner,
  params: JsonObject,
  ctx: RequestContext,
  origin: RequestOrigin,
): Promise<TaskRecord> {
  if (ctx.era === 'stateless' && !hasCapability(ctx.clientCapabilities, ['extensions', TASKS_EXTENSION_ID]))
    throw missingExtension(`"${ctx.method}" is part of the tasks extension`);
  const taskId = params.taskId as string;
  const record = await runner.get(taskId, requestorOf(ctx, origin));
  if (!record || record.era !== ctx.era) throw unknownTask(taskId, ctx.method);
  return record;
}

function unknownTask(taskId: string, method = 'tasks/result'): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for "${method}": no task "${taskId}" (unknown, expired, or not yours)`,
    { taskId },
  );
}
