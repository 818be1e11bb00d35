// `mcpwire read <target> <uri>`: one resources/read; text contents printed as they are, or one
// content saved to a file with --out.

import { InvalidArgumentError, type Command } from 'commander';
import { addExamples, defineCommand } from '../../define-command.ts';
import { ExitCode, UsageError } from '../../exit-code.ts';
import type { OneShot, TargetCommandOptions } from '../../target/one-shot.ts';
import type { ProgramContext } from '../../program-context.ts';
import { formatReadResult } from '../../terminal/result-format.ts';
import { requireCapability } from '../../target/server-lookup.ts';
import { addTargetOptions, runOneShotCommand, targetArgument } from '../../target/target-options.ts';

interface ReadOptions extends TargetCommandOptions {
  out?: string;
  /** `--content <n>`, from 1. */
  content?: number;
  force?: boolean;
}

/** The `read` command. */
export function readCommand(context: ProgramContext): Command {
  const command = defineCommand('read')
    .summary('read a resource')
    .description(
      'Read a resource and print its text contents as they are (binary contents are described; --out saves one, --json has them all). ' +
        'A URI the server answers "resource not found" for exits 2.',
    )
    .addArgument(targetArgument())
    .argument('<uri>', 'the resource URI (see "mcpwire list <target> resources" and "templates")')
    .option(
      '--out <file>',
      "save the resource's content to this file (created with mode 0644): a blob as its bytes, text as UTF-8; an existing file is refused unless --force",
    )
    .option(
      '--content <n>',
      'with --out: which content to save when the resource has several (1 is the first)',
      parseContentIndex,
    )
    .option('--force', 'with --out: overwrite an existing file');
  addTargetOptions(command, { hasJson: true }).action(
    async (operand: string, uri: string, options: ReadOptions) => {
      checkOptions(options);
      await runOneShotCommand(operand, context, options, `resources/read ${uri}`, (oneShot) =>
        runRead(oneShot, uri, options),
      );
    },
  );
  return addExamples(command, [
    ['mcpwire read test://static-text -- mcpwire serve everything', 'a text resource'],
    [
      'mcpwire read test://static-binary --out image.png -- mcpwire serve everything',
      'a binary resource saved as its bytes',
    ],
    [
      'mcpwire read github github://repos/priya/tiny-router/issues/1 --json',
      'the result with every content item, as JSON',
    ],
  ]);
}

function checkOptions(options: ReadOptions): void {
  if (options.out === undefined) {
    if (options.content !== undefined || options.force === true)
      throw new UsageError('--content and --force apply with --out <file> (see "mcpwire read --help")');
  } else if (options.json === true)
    throw new UsageError('--out saves a content, --json prints the result: give one of them');
}

async function runRead(oneShot: OneShot, uri: string, options: ReadOptions): Promise<typeof ExitCode.ok> {
  requireCapability(oneShot.client, 'resources');
  const result = await oneShot.client
    .readResource({ uri }, { signal: oneShot.signal })
    .catch(async (error: unknown) => {
      throw await toReadError(error, uri);
    });
  if (options.out !== undefined) {
    const { describeWritten, writeResourceContent } = await import('./resource-out.ts');
    const written = await writeResourceContent(result, uri, {
      path: options.out,
      isForced: options.force === true,
      ...(options.content === undefined ? {} : { index: options.content }),
    });
    process.stderr.write(`mcpwire: ${describeWritten(written, options.out)}\n`);
  } else if (oneShot.isJson) oneShot.printJson(result);
  else {
    // Piped, the description stays what scripts know; a person at a terminal is pointed at --out.
    const hint = process.stdout.isTTY ? 'save it with --out <file>' : undefined;
    oneShot.print(formatReadResult(result, oneShot.colours, hint));
  }
  return ExitCode.ok;
}

function parseContentIndex(value: string): number {
  const index = /^\d{1,6}$/.test(value) ? Number(value) : 0;
  if (index < 1) throw new InvalidArgumentError('expected a content number, 1 for the first.');
  return index;
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
    import('../../target/open-client.ts'),
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
