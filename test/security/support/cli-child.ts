// What the security tests add to test/support/cli-child.ts (test/ may not import the CLI package's
// own test support): a run from the repository root, a long-lived `tap` whose stdout bytes are kept
// exactly; an in-process HTTP everything server; a transcript read line by line.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createEverythingServer } from '@mcpwire/server-everything';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { cliChildEnv, MCPWIRE_ARGV, ROOT_DIR, runMcpwire } from '../../support/cli-child.ts';

/** The repository root. */
export const ROOT = ROOT_DIR;

/** argv of `mcpwire` from source. */
export const MCPWIRE = MCPWIRE_ARGV;

/** How a run ended and what it wrote. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mcpwire <args>` to completion from the repository root; `input` is written to stdin, then closed. */
export function runCli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return runMcpwire(args, { cwd: ROOT_DIR, ...options });
}

/** `mcpwire tap <args>` with every stream a pipe, as a host starts it. Dispose to kill it and await its exit. */
export class TapChild implements AsyncDisposable {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #stdout: Buffer[] = [];
  #stderr = '';
  readonly #waiters = new Set<() => void>();

  constructor(args: readonly string[]) {
    this.child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'tap', ...args], {
      cwd: ROOT,
      env: cliChildEnv(),
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

  get stderr(): string {
    return this.#stderr;
  }

  /** Resolves once `test` holds; rejects, showing stderr, when the tap exits first or on time-out. */
  waitUntil(what: string, test: () => boolean, timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const isDone = test();
        if (!isDone && this.child.exitCode === null && this.child.signalCode === null) return;
        this.#waiters.delete(check);
        clearTimeout(timer);
        if (isDone) resolve();
        else reject(new Error(`the tap exited before ${what}\nstderr: ${this.#stderr}`));
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms\nstderr: ${this.#stderr}`));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /** Resolves once `count` newline-ended lines have arrived on stdout. */
  waitForLines(count: number): Promise<void> {
    return this.waitUntil(
      `${count} lines on stdout`,
      () => this.stdout.toString('utf8').split('\n').length > count,
    );
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

/** Our everything server over Streamable HTTP on 127.0.0.1 (in this process); dispose to stop it. */
export async function startEverythingHttp(): Promise<HttpServerHandle> {
  return serveHttp(createHttpHandler(createEverythingServer(), { keepAliveMs: 0, retryMs: 0 }), { port: 0 });
}

/** A transcript's entries (the header left out), each line parsed as it is. */
export function readEntries(file: string): Array<Record<string, unknown> & { type: string }> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown> & { type: string });
}
