#!/usr/bin/env node
// The `mcpwire` command (package.json `bin`): takes the server command after `--` aside, runs the
// program, and turns what happened into one line on stderr and an exit code (see exit-code.ts).

import { isHelpOrVersion } from './define-command.ts';
import { ArgumentsError, CliError, ExitCode } from './exit-code.ts';
import { createProgram, splitArguments } from './program.ts';
import { toTerminalText } from './terminal/terminal-text.ts';

/**
 * A reader that went away (`mcpwire list ... | head -1`, `--trace 2>&1 | head -1`) is no failure:
 * stop quietly with exit 0, as most Node CLIs do (not 141, the shell's 128 + SIGPIPE).
 */
function exitQuietlyOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.ok);
    throw error;
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const { args, commandAfterDash } = splitArguments(argv);
  // `serve` over stdio handles a broken stdout itself (the connection ends); every other command stops.
  if (args[0] !== 'serve') exitQuietlyOnBrokenPipe(process.stdout);
  // stderr too (the trace): nobody is left to read it. A server keeps serving without its log.
  if (args[0] !== 'serve') exitQuietlyOnBrokenPipe(process.stderr);
  else process.stderr.on('error', () => {});
  const program = createProgram({ commandAfterDash });
  if (args.length === 0) {
    program.outputHelp({ error: true });
    process.exitCode = ExitCode.usage;
    return;
  }
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (isHelpOrVersion(error)) return;
    const failure = error instanceof CliError ? error : undefined;
    process.exitCode = failure?.exitCode ?? ExitCode.failed;
    // Ctrl-C: the person knows; say nothing.
    if (failure?.exitCode === ExitCode.interrupted) return;
    // The message may quote a server (its error, its stderr) or a config file: shown, never acted on.
    const lines =
      error instanceof ArgumentsError
        ? error.problems.map((problem) => toTerminalText(problem))
        : [toTerminalText(error instanceof Error ? error.message : String(error), { keepNewlines: true })];
    process.stderr.write(lines.map((line) => `mcpwire: ${line}\n`).join(''));
  }
}

await main(process.argv.slice(2));
