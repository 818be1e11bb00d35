// `mcpwire pin <target> [-o mcp-lock.json]`: writes a lock file of every definition a server offers
// (a SHA-256 of each one's canonical JSON, and the definition) for `mcpwire check --pin`.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import type { TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';

/** The `pin` command. */
export function pinCommand(context: ProgramContext): Command {
  const command = defineCommand('pin')
    .summary("write a lock file of a server's definitions, for check --pin")
    .description(
      'List every tool, prompt, resource and resource template a server offers (all pages) and write a lock file: ' +
        'the server name and version and, per definition, the SHA-256 of its canonical JSON (keys sorted) and the ' +
        'definition itself. Commit it; "mcpwire check --pin <file>" then reports every definition added, removed ' +
        'or changed since, with what changed.',
    )
    .addArgument(targetArgument())
    .option('-o, --output <file>', 'where to write the lock file (replaced)', 'mcp-lock.json');
  addTargetOptions(command, { hasJson: false }).action(
    async (operand: string, options: TargetCommandOptions & { output: string }) => {
      await runOneShotCommand(operand, context, options, 'pin', async (oneShot) => {
        const { runPin } = await import('../../check/run-check.ts');
        return runPin(oneShot, options.output);
      });
    },
  );
  return addExamples(command, [
    ['mcpwire pin -- node ./dist/server.js', 'write mcp-lock.json for a server started over stdio'],
    ['mcpwire pin github -o github-lock.json', 'the "github" server of your host config'],
    ['mcpwire check --pin mcp-lock.json -- node ./dist/server.js', 'later, in CI: what changed since'],
  ]);
}
