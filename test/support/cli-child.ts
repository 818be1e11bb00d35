// The `mcpwire` command from source as a child of a repository-level test: run to completion with
// pipes (any cwd, its own environment), or on a pseudo-terminal (node-pty) with its output kept raw.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { IPty } from 'node-pty';
import { SOURCE_CONDITIONS } from './node-options.ts';
import { loadPeer } from './peers.ts';

const TSX = import.meta.resolve('tsx');
/** The repository root: a cwd for a child that needs no folder of its own. */
export const ROOT_DIR = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT_DIR, 'packages', 'cli', 'src', 'main.ts');
const TIMEOUT_MS = 60_000;

/** `node <flags> main.ts`: the CLI from source, usable from any cwd. */
export const MCPWIRE_ARGV: readonly string[] = [
  process.execPath,
  ...SOURCE_CONDITIONS,
  `--import=${TSX}`,
  MAIN,
];

/** This process's environment (its `--import=tsx` made absolute), colour unset, plus `extra` (undefined removes). */
export function cliChildEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    ...extra,
  }))
    if (value !== undefined) env[key] = value;
  if (env.NODE_OPTIONS !== undefined)
    env.NODE_OPTIONS = env.NODE_OPTIONS.replace('--import=tsx', `--import=${TSX}`);
  return env;
}

/** Where and with what a child runs. */
export interface CliChildOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; default nothing. */
  input?: string;
  /** Default 60 s. */
  timeoutMs?: number;
  /** The pty's width in columns ({@link McpwirePty} only); default 200. */
  cols?: number;
}

/** Runs `mcpwire <args>` to completion (stdin given `input`, then closed); rejects past `timeoutMs`. */
export function runMcpwire(
  args: readonly string[],
  options: CliChildOptions,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(MCPWIRE_ARGV[0]!, [...MCPWIRE_ARGV.slice(1), ...args], {
      cwd: options.cwd,
      env: cliChildEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A child that exits without reading its input must not fail the run with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `mcpwire ${args.join(' ').slice(0, 300)} ran past ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `mcpwire <args>` on its own pty. Dispose to kill it (if still running) and await its exit. */
export class McpwirePty implements AsyncDisposable {
  readonly #pty: IPty;
  readonly exited: Promise<{ exitCode: number }>;
  #raw = '';
  readonly #waiters = new Set<() => void>();

  constructor(args: readonly string[], options: CliChildOptions) {
    this.#pty = loadPeer('node-pty').spawn(MCPWIRE_ARGV[0]!, [...MCPWIRE_ARGV.slice(1), ...args], {
      name: 'xterm-256color',
      cols: options.cols ?? 200,
      rows: 50,
      cwd: options.cwd,
      env: cliChildEnv(options.env),
    });
    this.exited = new Promise((resolve) => this.#pty.onExit(resolve));
    this.#pty.onData((data) => {
      this.#raw += data;
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  /** Everything the process wrote, as written (escape sequences included). */
  get raw(): string {
    return this.#raw;
  }

  /** Types `data` into the terminal. */
  write(data: string): void {
    this.#pty.write(data);
  }

  /** Everything written, CSI and OSC sequences and carriage returns removed (for waiting on words). */
  get text(): string {
    return this.#raw.replace(
      /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r/g,
      '',
    );
  }

  /** Resolves once `text` appears in {@link text} after offset `from`; rejects, showing the output, if it never does. */
  waitFor(text: string, from = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!this.text.slice(from).includes(text)) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`${JSON.stringify(text)} did not appear; output:\n${JSON.stringify(this.#raw)}`));
      }, TIMEOUT_MS);
      this.#waiters.add(check);
      check();
    });
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
