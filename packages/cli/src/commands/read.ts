// `mcpwire read <target> <uri>`: one resources/read; text contents printed as they are.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../define-command.ts';
import { ExitCode } from '../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../one-shot.ts';
import type { ProgramContext } from '../program-context.ts';
import { formatReadResult } from '../result-format.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../target-options.ts';

/** The `read` command. */
export function readCommand(context: ProgramContext): Command {
  const command = defineCommand('read')
    .summary('read a resource')
    .description(
      'Read a resource and print its text contents as they are (binary contents are described; --json has them).',
    )
    .addArgument(targetArgument())
    .argument('<uri>', 'the resource URI (see "mcpwire list <target> resources" and "templates")');
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, uri: string, options: TargetCommandOptions) => {
      await runOneShotCommand(operand, context, options, `resources/read ${uri}`, (oneShot) =>
        runRead(oneShot, uri),
      );
    },
  );
  return addExamples(command, [
    ['mcpwire read test://static-text -- mcpwire serve everything', 'a text resource'],
    [
      'mcpwire read github github://repos/priya/tiny-router/issues/1 --json',
      'the result with every content item, as JSON',
    ],
  ]);
}

async function runRead(oneShot: OneShot, uri: string): Promise<typeof ExitCode.ok> {
  const result = await oneShot.client.readResource({ uri }, { signal: oneShot.signal });
  if (oneShot.isJson) oneShot.printJson(result);
  else oneShot.print(formatReadResult(result, oneShot.colours));
  return ExitCode.ok;
}
