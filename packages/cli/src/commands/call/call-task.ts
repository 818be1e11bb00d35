// `mcpwire call --task`: one tool call as a task (both eras): its status and progress as lines on
// stderr while it runs, its result returned for command.ts to print; Ctrl-C cancels the task.

import type { CallToolResult, JsonObject } from 'mcpwire';
import type { ClientExtension } from 'mcpwire/client';
import {
  TaskCancelledError,
  TaskDetachedError,
  TasksClient,
  tasksForClient,
  type TaskHandle,
  type TaskView,
} from 'mcpwire/extensions/tasks';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode } from '../../exit-code.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import type { OneShot } from '../../target/one-shot.ts';

/** The extensions the client declares for a task call (no receiver: the CLI answers no server requests). */
export function taskExtensions(): readonly ClientExtension[] {
  return [tasksForClient({ receiver: false })];
}

/**
 * Calls `name` as a task where the server and the tool allow it (else directly, saying so) and
 * resolves with the tool's result once the task completed. Rejects with a CliError: exit 1 for a
 * task that failed or was cancelled by the server, 130 after Ctrl-C (the task is cancelled
 * first), 3 when the connection closed before the task ended (its id is in the message).
 */
export async function callAsTask(oneShot: OneShot, name: string, args: JsonObject): Promise<CallToolResult> {
  const { client, signal } = oneShot;
  const colours = coloursFor(process.stderr);
  // Each line's peer parts (task id, status and progress messages) are escaped where they are put in.
  const say = (line: string): void => void process.stderr.write(`${colours.dim('task')} ${line}\n`);
  const tasks = new TasksClient(client);
  if (!tasks.isSupported)
    say(
      client.era === 'stateless'
        ? 'the server does not declare the tasks extension: calling the tool directly'
        : 'the server does not declare tasks for tools/call: calling the tool directly',
    );
  const handle = await tasks.callToolAsTask(name, args, { signal });
  if (handle.id === undefined) {
    // TASK-3: in the handshake era the tool decides; in the stateless era the server does (S26-TASK-2).
    if (tasks.isSupported)
      say(
        client.era === 'stateless'
          ? `the server answered at once: "${toTerminalText(name)}" ran without a task`
          : `"${toTerminalText(name)}" does not support tasks (execution.taskSupport): called it directly`,
      );
    return handle.result();
  }
  return follow(handle, { say, signal, colours: colours.bold });
}

async function follow(
  handle: TaskHandle,
  out: { say: (line: string) => void; signal: AbortSignal; colours: (text: string) => string },
): Promise<CallToolResult> {
  const id = handle.id!;
  const shownId = toTerminalText(id);
  const { say, signal } = out;
  const poll = handle.task?.pollIntervalMs;
  say(
    `${out.colours(shownId)} ${describe(handle.task!)}${poll === undefined ? '' : ` (polled every ${Number(poll)} ms)`}`,
  );
  handle.onStatus((task) => say(`${shownId} ${describe(task)}`));
  handle.onProgress((progress) => {
    const total = progress.total === undefined ? '' : `/${Number(progress.total)}`;
    const message = progress.message === undefined ? '' : ` ${toTerminalText(progress.message)}`;
    say(`${shownId} progress ${Number(progress.progress)}${total}${message}`);
  });
  const cancel = (): void => {
    say(`${shownId} cancelling (Ctrl-C)`);
    handle.cancel().catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await handle.result();
  } catch (error) {
    throw toTaskCliError(error, id, signal);
  } finally {
    signal.removeEventListener('abort', cancel);
    handle.close();
  }
}

/** The task's status and message, escaped (both are the server's words). */
function describe(task: TaskView): string {
  const status = toTerminalText(String(task.status));
  return task.statusMessage === undefined ? status : `${status}: ${toTerminalText(task.statusMessage)}`;
}

/** The exit code of a task that did not complete; errors a task does not explain pass through. */
function toTaskCliError(error: unknown, id: string, signal: AbortSignal): unknown {
  if (signal.aborted)
    return new CliError(`interrupted: task ${id} was asked to cancel`, ExitCode.interrupted, {
      cause: error,
    });
  if (error instanceof TaskCancelledError)
    return new CliError(`task ${id}: ${error.message}`, ExitCode.failed, { cause: error });
  if (error instanceof TaskDetachedError)
    return new CliError(`task ${id}: ${error.message}`, ExitCode.connection, { cause: error });
  return error;
}
