// `mcpwire connect <target>`: an interactive session with a server on a terminal; refused (exit 2)
// when stdin or stdout is not one, since a script should use list, call, read, get and complete.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { UsageError } from '../../exit-code.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { addTargetOptions, targetArgument } from '../../target/target-options.ts';

/** The `connect` command. */
export function connectCommand(context: ProgramContext): Command {
  const command = defineCommand('connect')
    .summary('an interactive session with a server')
    .description(
      'Connect to a server and explore it: list, call tools (arguments asked for from the input schema), ' +
        "read resources, get prompts, complete arguments. The server's questions (elicitation) and " +
        'sampling requests are put to you. Ctrl-C cancels the call in flight; Ctrl-C or Ctrl-D at the ' +
        'menu quits. Needs a terminal; scripts use list, call, read, get and complete.',
    )
    .addArgument(targetArgument());
  addTargetOptions(command, { hasJson: false }).action(
    async (operand: string, options: TargetCommandOptions) => {
      if (process.stdin.isTTY !== true || process.stdout.isTTY !== true)
        throw new UsageError(
          'connect is interactive and needs a terminal on stdin and stdout; in scripts use "mcpwire list|call|read|get|complete"',
        );
      const { runConnect } = await import('./session.ts');
      process.exitCode = await runConnect(operand, context.commandAfterDash, options);
    },
  );
  return addExamples(command, [
    ['mcpwire connect -- mcpwire serve everything', 'explore the everything server'],
    ['mcpwire connect github', 'the "github" server of your host config'],
    ['mcpwire connect https://example.com/mcp -H "Authorization: Bearer $TOKEN"', 'a remote server'],
  ]);
}
