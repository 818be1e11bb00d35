// The client side of stdio (STDIO-1): launches the server as a child process, without a shell and
// with a minimal environment, and hands back a channel bound to that process.

import { spawn } from 'node:child_process';
import type { Transport } from '../channel.ts';
import { ProcessSpawnError } from './process-errors.ts';
import { createChildEnvironment } from './safe-env.ts';
import { StdioClientChannel, type ServerProcess } from './stdio-client-channel.ts';
import { toStderrStdio, type StderrOption } from './stderr-capture.ts';

/** Options of {@link StdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The executable to run: a path, or a name looked up on the child's PATH. Never run by a shell. */
  command: string;
  /** Arguments, passed as they are (no shell quoting or expansion). */
  args?: readonly string[];
  /** Variables added to the inherited allow-list (see `createChildEnvironment`); they win on conflict. */
  env?: Record<string, string>;
  /** The child's working directory; default ours. */
  cwd?: string;
  /**
   * The child's stderr: 'inherit' (default) shares ours; 'pipe' exposes it as `channel.stderr`,
   * which must then be read; 'ignore' discards it; a function receives it as decoded text.
   */
  stderr?: StderrOption;
  /**
   * The largest message accepted from the server, in bytes; default 64 MiB
   * (DEFAULT_MAX_MESSAGE_BYTES). A longer line is discarded as it streams, and the request it
   * answers fails at once with MessageTooLargeError naming its size and the limit: the request
   * whose id its first 1 KiB holds, else every request pending on the connection.
   */
  maxMessageBytes?: number;
  /** How long each shutdown step waits for the process to exit, in ms; default 2000. */
  shutdownTimeoutMs?: number;
}

/** The default wait, per shutdown step, for a server process to exit. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 2000;

/**
 * Connects to a server by spawning it. Each `connect` starts a new process and resolves with its
 * channel once the process has spawned, or rejects with ProcessSpawnError (command not found, not
 * executable, bad cwd). On POSIX the child leads its own process group, so shutdown reaches every
 * process it started. Windows: a `.cmd`/`.bat` command must be run through `cmd.exe /c` explicitly.
 */
export class StdioClientTransport implements Transport {
  readonly #options: StdioClientTransportOptions;

  /** Checks the options (throws RangeError for a bad limit or timeout); spawns nothing yet. */
  constructor(options: StdioClientTransportOptions) {
    const { maxMessageBytes, shutdownTimeoutMs } = options;
    if (maxMessageBytes !== undefined && (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes < 1)) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${maxMessageBytes}`);
    }
    if (shutdownTimeoutMs !== undefined && !(shutdownTimeoutMs >= 0 && Number.isFinite(shutdownTimeoutMs))) {
      throw new RangeError(`shutdownTimeoutMs must be a non-negative number, got ${shutdownTimeoutMs}`);
    }
    this.#options = { ...options };
  }

  /** The server configuration's identity (command, arguments, directory), for caches of per-server facts. */
  get key(): string {
    const { command, args = [], cwd = '' } = this.#options;
    return `stdio:${JSON.stringify([command, args, cwd])}`;
  }

  /** Spawns a new server process; resolves with its channel once it has spawned. */
  connect(): Promise<StdioClientChannel> {
    const options = this.#options;
    const stderr = options.stderr ?? 'inherit';
    return new Promise((resolve, reject) => {
      let child: ServerProcess;
      try {
        child = spawn(options.command, options.args ?? [], {
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          env: createChildEnvironment(options.env),
          shell: false,
          detached: process.platform !== 'win32',
          windowsHide: true,
          stdio: ['pipe', 'pipe', toStderrStdio(stderr)],
        }) as ServerProcess;
      } catch (error) {
        // spawn throws synchronously for some failures (a NUL byte in an argument, EMFILE, ...).
        reject(
          new ProcessSpawnError(
            options.command,
            error instanceof Error ? error : new Error(String(error)),
            options.cwd,
          ),
        );
        return;
      }
      const onError = (error: Error): void => {
        child.stdin.destroy();
        child.stdout.destroy();
        child.stderr?.destroy();
        reject(new ProcessSpawnError(options.command, error, options.cwd));
      };
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        resolve(
          new StdioClientChannel(child, {
            maxMessageBytes: options.maxMessageBytes,
            shutdownTimeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
            stderr,
          }),
        );
      });
    });
  }
}
