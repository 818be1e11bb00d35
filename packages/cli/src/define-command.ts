// The settings every `mcpwire` command shares: usage errors as one line naming the command's help,
// exit code 2 for them (commander throws instead of exiting), and help styled only on a terminal.

import { Command, CommanderError } from 'commander';
import { coloursFor, hasColour } from './terminal/colours.ts';
import { ExitCode, UsageError } from './exit-code.ts';

/**
 * A new command named `name` (the program itself when `name` is `mcpwire`). A usage error commander
 * finds (unknown option, missing argument, bad choice) is thrown as a {@link UsageError} whose one-line
 * message ends with where to read the help; `--help` and `--version` throw a CommanderError with exit code 0.
 */
export function defineCommand(name: string): Command {
  const command = new Command(name);
  const helpHint = name === 'mcpwire' ? 'mcpwire --help' : `mcpwire ${name} --help`;
  const colours = coloursFor(process.stdout);
  command
    .helpOption('-h, --help', 'show this help')
    .exitOverride((error: CommanderError) => {
      if (error.exitCode === 0) throw error;
      throw new UsageError(`${firstLine(error.message)} (see "${helpHint}")`);
    })
    .configureOutput({
      // The UsageError above is printed by main, once.
      outputError: () => {},
      // One colour rule for the whole CLI (colours.ts): commander's own would strip the styling
      // where Node reports two colours (a terminal with CI set, for one).
      getOutHasColors: () => hasColour(process.stdout),
      getErrHasColors: () => hasColour(process.stderr),
    })
    .configureHelp({
      styleTitle: (text) => colours.bold(text),
      styleCommandText: (text) => colours.cyan(text),
      styleSubcommandText: (text) => colours.cyan(text),
      styleOptionText: (text) => colours.green(text),
      styleArgumentText: (text) => colours.yellow(text),
    });
  return command;
}

/** Adds an "Examples:" section after the help: each example a command line and what it does. */
export function addExamples(command: Command, examples: ReadonlyArray<readonly [string, string]>): Command {
  const colours = coloursFor(process.stdout);
  const lines = examples.map(([line, what]) => `  ${colours.dim(`# ${what}`)}\n  ${line}`);
  return command.addHelpText('after', `\n${colours.bold('Examples:')}\n${lines.join('\n\n')}\n`);
}

/** True for the CommanderError of `--help`, `help <command>` or `--version`: not a failure. */
export function isHelpOrVersion(error: unknown): error is CommanderError {
  return error instanceof CommanderError && error.exitCode === ExitCode.ok;
}

function firstLine(message: string): string {
  // Commander writes "error: unknown option '--x'" and may add a "(Did you mean ...?)" line.
  return message
    .replace(/^error: /, '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join(' ');
}
