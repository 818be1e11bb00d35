// `mcpwire get <target> <prompt> [key=value...]`: one prompts/get; its messages printed.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { findPromptArgumentProblems } from '../../arguments/argument-check.ts';
import { ArgumentsError, ExitCode } from '../../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { formatPromptResult } from '../../terminal/result-format.ts';
import { findPrompt } from '../../target/server-lookup.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';
import { parseStringPairs } from '../../arguments/tool-arguments.ts';

/** The `get` command. */
export function getCommand(context: ProgramContext): Command {
  const command = defineCommand('get')
    .summary('get a prompt')
    .description('Get a prompt with its arguments (key=value, always text) and print its messages.')
    .addArgument(targetArgument())
    .argument('<prompt>', 'the prompt name')
    .argument('[arguments...]', 'key=value pairs');
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, prompt: string, pairs: string[], options: TargetCommandOptions) => {
      await runOneShotCommand(operand, context, options, `prompts/get ${prompt}`, (oneShot) =>
        runGet(oneShot, prompt, pairs),
      );
    },
  );
  return addExamples(command, [
    [
      'mcpwire get test_prompt_with_arguments arg1=hello arg2=world -- mcpwire serve everything',
      'a prompt with arguments',
    ],
    [
      'mcpwire get github triage_issue owner=priya repo=tiny-router issue_number=1 --json',
      'the messages as JSON',
    ],
  ]);
}

async function runGet(oneShot: OneShot, name: string, pairs: string[]): Promise<typeof ExitCode.ok> {
  const args = parseStringPairs(pairs);
  const prompt = await findPrompt(oneShot.client, name, oneShot.signal);
  const problems = findPromptArgumentProblems(prompt, args);
  if (problems.length > 0) throw new ArgumentsError(problems);
  const result = await oneShot.client.getPrompt({ name, arguments: args }, { signal: oneShot.signal });
  if (oneShot.isJson) oneShot.printJson(result);
  else oneShot.print(formatPromptResult(result, oneShot.colours));
  return ExitCode.ok;
}
