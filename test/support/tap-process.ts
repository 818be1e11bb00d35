// `mcpwire tap ...` from source as a child process with every stream a pipe, as a host starts it:
// the bytes it writes on stdout kept exactly, stderr as text, and a way to wait for either. Used by the
// repository's tests and the CLI package's alike.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cliChildEnv, MCPWIRE_ARGV, ROOT_DIR } from './cli-child.ts';

const DEFAULT_TIMEOUT_MS = 60_000;

/** One running tap, started from the repository root. Dispose to kill it (if still running) and await its exit. */
export class TapProcess implements AsyncDisposable {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #stdout: Buffer[] = [];
  #stderr = '';
  readonly #waiters = new Set<() => void>();

  /** `env` is added to the environment the tests' children get (undefined removes a variable). */
  constructor(args: readonly string[], env: Record<string, string | undefined> = {}) {
    this.child = spawn(MCPWIRE_ARGV[0]!, [...MCPWIRE_ARGV.slice(1), 'tap', ...args], {
      cwd: ROOT_DIR,
      env: cliChildEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => resolve({ code, signal })),
    );
    this.child.stdin.on('error', () => {});
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.#stdout.push(chunk);
      this.#notify();
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk;
      this.#notify();
    });
    this.child.once('close', () => this.#notify());
  }

  /** Every byte written on stdout so far, exactly. */
  get stdout(): Buffer {
    return Buffer.concat(this.#stdout);
  }

  /** Everything written on stderr so far. */
  get stderr(): string {
    return this.#stderr;
  }

  /**
   * Resolves once `test` holds (checked after every output); rejects, showing the output, when the tap
   * exits first or on time-out.
   */
  waitUntil(what: string, test: () => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (why: string): void =>
        reject(new Error(`${why}\nstdout: ${this.stdout.toString()}\nstderr: ${this.#stderr}`));
      const check = (): void => {
        const isDone = test();
        if (!isDone && this.child.exitCode === null && this.child.signalCode === null) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        if (isDone) resolve();
        else fail(`the tap exited before ${what}`);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        fail(`no ${what} within ${timeoutMs} ms`);
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /** Resolves with the first match of `pattern` on stderr. */
  async waitForStderr(pattern: RegExp): Promise<RegExpExecArray> {
    await this.waitUntil(`a match of ${pattern} on stderr`, () => pattern.test(this.#stderr));
    return pattern.exec(this.#stderr)!;
  }

  /** Resolves once `count` newline-ended lines have arrived on stdout. */
  waitForLines(count: number): Promise<void> {
    return this.waitUntil(`${count} lines on stdout`, () => countLines(this.stdout) >= count);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}
