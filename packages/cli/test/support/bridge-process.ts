// `mcpwire bridge --http 0 ... -- <command>` from source as a child process: its stderr as text, the URL
// it says it serves, the pids of the children it started (the test server says its pid on stderr).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { cliChildEnv, MCPWIRE_ARGV, ROOT_DIR } from '../../../../test/support/cli-child.ts';

const DEFAULT_TIMEOUT_MS = 60_000;

/** The hand-written stdio server the bridge tests run behind the bridge (plain node, no loader). */
export const BRIDGE_CHILD: readonly string[] = [
  process.execPath,
  join(ROOT_DIR, 'packages', 'cli', 'test', 'fixtures', 'bridge-child-server.mjs'),
];

/** One running bridge. Dispose to kill it (if still running) and await its exit. */
export class BridgeProcess implements AsyncDisposable {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  #stdout = '';
  readonly #waiters = new Set<() => void>();

  constructor(args: readonly string[]) {
    this.child = spawn(MCPWIRE_ARGV[0]!, [...MCPWIRE_ARGV.slice(1), 'bridge', ...args], {
      cwd: ROOT_DIR,
      env: cliChildEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => resolve({ code, signal })),
    );
    this.child.stdin.on('error', () => {});
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stdout += chunk;
      this.#notify();
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk;
      this.#notify();
    });
    this.child.once('close', () => this.#notify());
  }

  /** Starts `mcpwire bridge --http 0 <options> -- <command>`; resolves once it has said its URL. */
  static async start(
    options: readonly string[] = [],
    command: readonly string[] = BRIDGE_CHILD,
  ): Promise<{ bridge: BridgeProcess; url: string }> {
    const bridge = new BridgeProcess(['--http', '0', ...options, '--', ...command]);
    try {
      const [url] = await bridge.waitForStderr(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      return { bridge, url };
    } catch (error) {
      await bridge[Symbol.asyncDispose]();
      throw error;
    }
  }

  get stderr(): string {
    return this.#stderr;
  }

  get stdout(): string {
    return this.#stdout;
  }

  /** The pids the test server said on stderr (through the bridge's prefix), in start order. */
  get childPids(): number[] {
    return [...this.#stderr.matchAll(/bridge-child (\d+) started/g)].map((match) => Number(match[1]));
  }

  /** Resolves once `test` holds (checked after every output); rejects when the bridge exits first or on time-out. */
  waitUntil(what: string, test: () => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const isDone = test();
        if (!isDone && this.child.exitCode === null && this.child.signalCode === null) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        if (isDone) resolve();
        else reject(new Error(`the bridge exited before ${what}\nstderr: ${this.#stderr}`));
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms\nstderr: ${this.#stderr}`));
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

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** True while a process with this pid exists (`kill(pid, 0)` throws ESRCH once it is gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * Resolves once the process `pid` is gone. A process the bridge reaped is gone when the bridge has
 * seen it exit; this polls `kill(pid, 0)` on a 20 ms interval (no event reaches a non-parent).
 */
export async function waitGone(pid: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
