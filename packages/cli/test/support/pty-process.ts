// A process on a pseudo-terminal (node-pty): what `mcpwire connect` and a terminal-only message need.
// Output is kept as written and also with escape sequences removed, for matching.

import type { IPty } from 'node-pty';
import { loadPeer } from '../../../../test/support/peers.ts';
import { childEnv, ROOT } from './cli-process.ts';

const DEFAULT_TIMEOUT_MS = 30_000;

/** Keys as a terminal sends them. */
export const Keys = { enter: '\r', ctrlC: '\x03', ctrlD: '\x04', down: '\x1b[B', escape: '\x1b' } as const;

/** One process on its own pty. Dispose to kill it (if still running) and await its exit. */
export class PtyProcess {
  readonly #pty: IPty;
  readonly exited: Promise<{ exitCode: number; signal?: number }>;
  #raw = '';
  #waiters = new Set<() => void>();

  constructor(
    argv: readonly string[],
    options: { cwd?: string; env?: Record<string, string | undefined> } = {},
  ) {
    this.#pty = loadPeer('node-pty').spawn(argv[0]!, [...argv.slice(1)], {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.env),
    });
    this.exited = new Promise((resolve) => this.#pty.onExit(resolve));
    this.#pty.onData((data) => {
      this.#raw += data;
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  /** Everything written so far, escape sequences removed. */
  get text(): string {
    return stripAnsi(this.#raw);
  }

  /** Everything written so far, as written. */
  get raw(): string {
    return this.#raw;
  }

  /** Types `data` into the terminal. */
  write(data: string): void {
    this.#pty.write(data);
  }

  /**
   * Resolves with the text once `pattern` matches the output written after `from` (an offset into
   * {@link text}; default 0); rejects, showing the output, if it does not appear in time.
   */
  waitFor(pattern: RegExp, from = 0, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = pattern.exec(this.text.slice(from));
        if (found === null) return false;
        this.#waiters.delete(waiter);
        clearTimeout(timer);
        resolve(found[0]);
        return true;
      };
      const waiter = (): void => void check();
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(
          new Error(`${pattern} did not appear within ${timeoutMs} ms; output:\n${this.text.slice(from)}`),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
      check();
    });
  }

  /** Sends `signal` to the process. */
  kill(signal: string): void {
    this.#pty.kill(signal);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#pty.kill('SIGKILL');
    } catch {
      // Already gone.
    }
    await this.exited;
  }
}

/** Removes CSI and OSC escape sequences and carriage returns. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r/g, '');
}
