// Local failures of a spawned server process: it could not start, or it went away. Never sent on the wire.

import { ConnectionClosedError } from '../../jsonrpc/errors.ts';

/** How a process ended: an exit code, or the signal that killed it (the other is null). */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The server process could not be started (command not found, not executable, bad cwd, ...). */
export class ProcessSpawnError extends Error {
  readonly code = 'PROCESS_SPAWN_FAILED';
  /** The command that was given to spawn. */
  readonly command: string;

  constructor(command: string, cause: Error, cwd?: string) {
    const where = cwd === undefined ? '' : ` in "${cwd}"`;
    super(`Cannot start server process "${command}"${where}: ${cause.message}`, { cause });
    this.name = 'ProcessSpawnError';
    this.command = command;
  }
}

/**
 * The server process exited while the channel was open. It is a ConnectionClosedError (pending
 * requests fail with it); the message names the exit code or signal and ends with the last
 * stderr text, when stderr was captured.
 */
export class ProcessExitError extends ConnectionClosedError {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last ~2 KB of the process's stderr, or '' when stderr was inherited or ignored. */
  readonly stderrTail: string;

  constructor(status: ExitStatus, stderrTail: string) {
    const how =
      status.signal === null
        ? `exited with code ${String(status.code)}`
        : `was killed by signal ${status.signal}`;
    const tail = stderrTail.trimEnd();
    super(`Server process ${how}${tail === '' ? '' : `; last stderr output:\n${tail}`}`);
    this.name = 'ProcessExitError';
    this.exitCode = status.code;
    this.signal = status.signal;
    this.stderrTail = stderrTail;
  }
}
