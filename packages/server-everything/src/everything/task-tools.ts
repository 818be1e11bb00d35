// The everything server's task fixtures (the conformance suite's tasks-* scenarios, S26-TASK-18):
// a sync tool, task-capable tools that sleep, fail, break, ask once, ask twice in parallel, and one
// that asks through multi-round-trip input before it becomes a task. The same handlers serve the
// handshake era's core tasks (`task` in the params) and the stateless era's extension.

import type { ElicitRequestFormParams } from 'mcpwire';
import { RpcError } from 'mcpwire';
import { inputThenTask, tasks, type TasksExtension } from 'mcpwire/extensions/tasks';
import type { RequestContext, Server } from 'mcpwire/server';

const NAME_FORM: ElicitRequestFormParams = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

const confirmForm = (message: string): ElicitRequestFormParams => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
});

/** The extension value the everything server takes: the defaults, a 1 s poll interval. */
export function createEverythingTasks(): TasksExtension {
  return tasks({ pollIntervalMs: 1000 });
}

/** Waits `ms`, or rejects when `signal` aborts; never keeps the process alive on its own. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const accepted = (answer: { action: string; content?: Record<string, unknown> }): boolean =>
  answer.action === 'accept' && answer.content?.confirm !== false;

async function askName(ctx: RequestContext): Promise<string> {
  const answer = await ctx.elicit(NAME_FORM, { key: 'user_name' });
  return answer.action === 'accept' ? String(answer.content?.name ?? 'anonymous') : 'anonymous';
}

/** Registers greet, slow_compute, failing_job, protocol_error_job, confirm_delete, multi_input, test_tool_with_task. */
export function registerTaskTools(server: Server): void {
  server.tool(
    {
      name: 'greet',
      description: 'Greets someone at once (never a task).',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    (args) => `Hello, ${String(args.name)}!`,
  );
  server.tool(
    {
      name: 'slow_compute',
      description: 'Sleeps `seconds` seconds, then reports `label`; runs as a task when it can.',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
      },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const seconds = typeof args.seconds === 'number' ? args.seconds : 1;
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${String(args.label ?? 'result')} after ${seconds}s`;
    },
  );
  server.tool(
    {
      name: 'failing_job',
      description: 'Runs only as a task and ends with a tool error after half a second.',
      inputSchema: { type: 'object', properties: {} },
      execution: { taskSupport: 'required' },
    },
    async (_args, ctx) => {
      await sleep(500, ctx.signal);
      throw new Error('failing_job failed, as it always does');
    },
  );
  server.tool(
    {
      name: 'protocol_error_job',
      description: 'Ends with a JSON-RPC error (a failed task), not a tool error.',
      inputSchema: { type: 'object', properties: {} },
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      await sleep(100, ctx.signal);
      throw new RpcError(-32603, 'protocol_error_job hit an internal error');
    },
  );
  server.tool(
    {
      name: 'confirm_delete',
      description: 'Asks the user to confirm deleting `filename` (one elicitation), then reports.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      const answer = await ctx.elicit(confirmForm(`Delete ${String(args.filename)}?`), { key: 'confirm' });
      return accepted(answer) ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`;
    },
  );
  server.tool(
    {
      name: 'multi_input',
      description: 'Asks two questions at once (two parallel elicitations), then answers both.',
      inputSchema: { type: 'object', properties: {} },
      execution: { taskSupport: 'optional' },
    },
    async (_args, ctx) => {
      const [name, confirm] = await Promise.all([
        askName(ctx),
        ctx.elicit(confirmForm('Go ahead?'), { key: 'go_ahead' }),
      ]);
      return `${name} ${accepted(confirm) ? 'confirmed' : 'declined'}`;
    },
  );
  server.tool(
    {
      name: 'test_tool_with_task',
      description: 'Asks for a name (multi-round-trip input, key user_name), then continues as a task.',
      inputSchema: { type: 'object', properties: {} },
      execution: { taskSupport: 'required' },
    },
    inputThenTask(async (_args, ctx, continueAsTask) => {
      const name = await askName(ctx);
      return continueAsTask(async (taskCtx) => {
        await sleep(200, taskCtx.signal);
        return `Hello, ${name}! (from a task)`;
      });
    }),
  );
}
