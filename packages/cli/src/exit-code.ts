// The exit codes of `mcpwire` and the errors that carry them: what a script can branch on.

/** Every exit code the command uses. Ctrl-C ends a one-shot command with 130 (128 + SIGINT). */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** The server reported a failure: a tool result with `isError`, or an error response to the request. */
  failed: 1,
  /**
   * The command cannot be run as written against this server, found before the request is sent:
   * an unknown option, config name, tool, prompt or resource; a capability the server does not
   * declare; arguments that break the tool's input schema or miss a prompt's required ones.
   */
  usage: 2,
  /** The server could not be reached or spoke badly: spawn, HTTP, handshake, closed connection, timeout. */
  connection: 3,
  /** Interrupted with Ctrl-C. */
  interrupted: 130,
} as const;

/** One of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Exit code 1 when a tool result says `isError`, else 0. */
export function exitCodeOf(result: { isError?: boolean }): ExitCodeValue {
  return result.isError === true ? ExitCode.failed : ExitCode.ok;
}

/** A failure to report as one `mcpwire: <message>` line on stderr and an exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A command line that cannot be run as written; exit code 2. Its message says what to do instead. */
export class UsageError extends CliError {
  readonly code = 'MCPWIRE_USAGE';

  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'UsageError';
  }
}

/** Argument problems found locally (nothing was sent); exit code 2, one `mcpwire: ` line per problem. */
export class ArgumentsError extends UsageError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ArgumentsError';
    this.problems = problems;
  }
}
