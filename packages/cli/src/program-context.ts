// What main learned from the command line before commander parses it, handed to the commands.

/** The command line facts commander does not keep. */
export interface ProgramContext {
  /** The words after `--` (the server command of a stdio target), or undefined when there was no `--`. */
  commandAfterDash: readonly string[] | undefined;
}
