// `mcpwire complete <target> <ref> <argument> [value]`: one completion/complete for an argument of
// a prompt or of a resource template; the suggested values, one per line.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { ExitCode } from '../../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { formatCompletion } from '../../terminal/result-format.ts';
import { requireCapability } from '../../target/server-lookup.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';
import { parseStringPairs } from '../../arguments/tool-arguments.ts';

interface CompleteOptions extends TargetCommandOptions {
  context?: string[];
}

/** The `complete` command. */
export function completeCommand(context: ProgramContext): Command {
  const command = defineCommand('complete')
    .summary('complete an argument of a prompt or a resource template')
    .description(
      'Ask the server to complete an argument: of a prompt (give its name) or of a resource template ' +
        '(give its URI template: anything with "://" or "{"). Prints the suggested values, one per line.',
    )
    .addArgument(targetArgument())
    .argument('<ref>', 'a prompt name, or a resource template such as "file:///{path}"')
    .argument('<argument>', 'the argument (or template variable) to complete')
    .argument('[value]', 'what has been typed so far', '')
    .option(
      '--context <key=value>',
      'an argument already chosen, for servers whose suggestions depend on it (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, ref: string, argument: string, value: string, options: CompleteOptions) => {
      await runOneShotCommand(
        operand,
        context,
        options,
        `completion/complete ${ref} ${argument}`,
        (oneShot) => runComplete(oneShot, { ref, argument, value, context: options.context ?? [] }),
      );
    },
  );
  return addExamples(command, [
    ['mcpwire complete test_prompt_with_arguments arg1 te -- mcpwire serve everything', 'a prompt argument'],
    [
      "mcpwire complete 'test://template/{id}/data' id 1 -- mcpwire serve everything",
      'a resource template variable',
    ],
  ]);
}

/** True when `ref` names a resource template rather than a prompt. */
export function isTemplateRef(ref: string): boolean {
  return ref.includes('://') || ref.includes('{');
}

async function runComplete(
  oneShot: OneShot,
  request: { ref: string; argument: string; value: string; context: string[] },
): Promise<typeof ExitCode.ok> {
  requireCapability(oneShot.client, 'completions');
  const ref = isTemplateRef(request.ref)
    ? { type: 'ref/resource' as const, uri: request.ref }
    : { type: 'ref/prompt' as const, name: request.ref };
  const contextArguments = parseStringPairs(request.context);
  const result = await oneShot.client.complete(
    {
      ref,
      argument: { name: request.argument, value: request.value },
      ...(request.context.length > 0 ? { context: { arguments: contextArguments } } : {}),
    },
    { signal: oneShot.signal },
  );
  if (oneShot.isJson) oneShot.printJson(result);
  else oneShot.print(formatCompletion(result, oneShot.colours));
  return ExitCode.ok;
}
