// `mcpwire call <target> <tool> [key=value...]`: one tools/call, its arguments typed by the tool's
// input schema; the content printed (or the result as JSON), exit 1 when the result is an error.

import type { Command } from 'commander';
import type { CallToolResult, JsonObject } from 'mcpwire';
import { addExamples, defineCommand } from '../../define-command.ts';
import { coloursFor } from '../../terminal/colours.ts';
import { exitCodeOf, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../../target/one-shot.ts';
import { ProgressLine } from '../../terminal/progress-line.ts';
import { formatCallResult } from '../../terminal/result-format.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';
import { parseArgsJson, parseToolArguments } from '../../arguments/tool-arguments.ts';
import { findTool } from '../../target/server-lookup.ts';
import { readFile } from 'node:fs/promises';
import type { ProgramContext } from '../../program-context.ts';

interface CallOptions extends TargetCommandOptions {
  args?: string;
  task?: boolean;
}

/** The `call` command. */
export function callCommand(context: ProgramContext): Command {
  const command = defineCommand('call')
    .summary('call a tool')
    .description(
      'Call a tool and print its content; exit 1 when the tool reports an error (isError). ' +
        "Arguments are key=value, typed by the tool's input schema: numbers, true/false, JSON for objects " +
        'and arrays, text otherwise. --args gives them all as one JSON object; key=value pairs override it. ' +
        'They are checked against the schema first (required, type, enum, unknown names where ' +
        'additionalProperties is false): every problem is printed, a line each, nothing is sent, exit 2.',
    )
    .addArgument(targetArgument())
    .argument('<tool>', 'the tool to call')
    .argument('[arguments...]', 'key=value pairs')
    .option('--args <json>', 'the arguments as a JSON object; @file.json reads it from a file, - from stdin')
    .option(
      '--task',
      "run the call as a task where the server and the tool support it: the task's status and progress " +
        'on stderr while it runs, then the result as without --task; Ctrl-C cancels the task',
    );
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, tool: string, pairs: string[], options: CallOptions) => {
      const withTask: CallOptions =
        options.task === true
          ? { ...options, loadExtensions: async () => (await import('./call-task.ts')).taskExtensions() }
          : options;
      await runOneShotCommand(operand, context, withTask, `tools/call ${tool}`, (oneShot) =>
        runCall(oneShot, tool, pairs, options),
      );
    },
  );
  return addExamples(command, [
    ['mcpwire call add_numbers a=2 b=3 -- mcpwire serve everything', 'numbers are typed by the input schema'],
    [
      'mcpwire call github create_issue owner=priya repo=tiny-router title="Broken build" labels=\'["bug"]\'',
      'JSON for an array argument',
    ],
    [
      'mcpwire call http://127.0.0.1:3000/mcp get_weather --args \'{"city":"Oslo"}\' --json',
      'the whole result, as JSON',
    ],
    [
      'mcpwire call https://example.com/mcp echo message=hi --no-auth -H "Authorization: Bearer $TOKEN"',
      'your own token, never the OAuth flow',
    ],
    [
      "mcpwire call --task github search_issues query='is:open label:bug'",
      'as a task: status and progress on stderr, the result on stdout',
    ],
  ]);
}

async function runCall(
  oneShot: OneShot,
  name: string,
  pairs: string[],
  options: CallOptions,
): Promise<ExitCodeValue> {
  const { client, signal } = oneShot;
  const base = options.args === undefined ? {} : parseArgsJson(await readArgsOption(options.args));
  const tool = await findTool(client, name, signal);
  // TASK-3: a tool that declares taskSupport "required" answers a plain call with -32601.
  if (options.task !== true && tool.execution?.taskSupport === 'required')
    throw new UsageError(`tool "${name}" runs only as a task: add --task`);
  const args = parseToolArguments(pairs, tool.inputSchema, base);
  const result =
    options.task === true
      ? await (await import('./call-task.ts')).callAsTask(oneShot, name, args)
      : await callWithProgress(oneShot, name, args);
  if (oneShot.isJson) {
    oneShot.printJson(result);
    return exitCodeOf(result);
  }
  if (result.isError === true) {
    process.stderr.write(
      `mcpwire: tool "${name}" reported an error:\n${formatCallResult(result, coloursFor(process.stderr))}`,
    );
  } else oneShot.print(formatCallResult(result, oneShot.colours));
  return exitCodeOf(result);
}

/**
 * tools/call `name`. Where stderr is a terminal it asks for progress (a progressToken in `_meta`) and
 * shows it on one line there, erased before this resolves or rejects; elsewhere it asks for none, so
 * a script's output and the server's work are as without it.
 */
async function callWithProgress(oneShot: OneShot, name: string, args: JsonObject): Promise<CallToolResult> {
  const { client, signal } = oneShot;
  if (process.stderr.isTTY !== true) return client.callTool({ name, arguments: args }, { signal });
  using line = new ProgressLine(process.stderr, name);
  return await client.callTool(
    { name, arguments: args },
    { signal, onProgress: (update) => line.show(update) },
  );
}

/** The text of `--args`: as given, or read from the file after `@`, or from stdin for `-`. UsageError if unreadable. */
async function readArgsOption(value: string): Promise<string> {
  if (value !== '-' && !value.startsWith('@')) return value;
  try {
    return value === '-' ? await readStdin() : await readFile(value.slice(1), 'utf8');
  } catch (error) {
    throw new UsageError(
      `--args ${value}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a JSON file after @, or - for stdin`,
    );
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
