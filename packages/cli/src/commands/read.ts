// `mcpwire read <target> <uri>`: one resources/read; text contents printed as they are.

import type { Command } from 'commander';
import { addExamples, defineCommand } from '../define-command.ts';
import { ExitCode, UsageError } from '../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../one-shot.ts';
import type { ProgramContext } from '../program-context.ts';
import { formatReadResult } from '../result-format.ts';
import { requireCapability } from '../server-lookup.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../target-options.ts';

/** The `read` command. */
export function readCommand(context: ProgramContext): Command {
  const command = defineCommand('read')
    .summary('read a resource')
    .description(
      'Read a resource and print its text contents as they are (binary contents are described; --json has them). ' +
        'A URI the server answers "resource not found" for exits 2.',
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
  requireCapability(oneShot.client, 'resources');
  const result = await oneShot.client
    .readResource({ uri }, { signal: oneShot.signal })
    .catch(async (error: unknown) => {
      throw await toReadError(error, uri);
    });
  if (oneShot.isJson) oneShot.printJson(result);
  else oneShot.print(formatReadResult(result, oneShot.colours));
  return ExitCode.ok;
}

/** The handshake era's "resource not found" code (RES-8); the 2026-07-28 revision retired it for -32602. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * UsageError (exit 2) for the server's "resource not found" answer to reading `uri`: -32002
 * (handshake era, RES-8) or -32602 with `data.uri` the URI asked for (2026-07-28, S26-RES-2; clients
 * accept both); any other error as it is.
 */
async function toReadError(error: unknown, uri: string): Promise<unknown> {
  // Loaded here, not at the top: the one-shot frame has loaded them already, and `mcpwire --version`
  // must not (commands are defined without loading the client).
  const [{ ErrorCode, RpcError }, { toCliError }] = await Promise.all([
    import('mcpwire/client'),
    import('../target/open-client.ts'),
  ]);
  if (!(error instanceof RpcError)) return error;
  const data = error.data as { uri?: unknown } | null | undefined;
  const isNotFound =
    error.code === RESOURCE_NOT_FOUND ||
    (error.code === ErrorCode.InvalidParams && typeof data === 'object' && data?.uri === uri);
  if (!isNotFound) return error;
  const answer = toCliError(error, 'read').message.replace(/^read: /, '');
  return new UsageError(`unknown resource "${uri}": ${answer}`);
}
