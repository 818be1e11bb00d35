// Runs the `mcpwire` command from source as a child process, the way a person or a script does: from
// any directory, with its own environment, to completion; and the commands of the test servers.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../../../test/support/raw-server-process.ts';
import { SOURCE_CONDITIONS } from '../../../../test/support/node-options.ts';
import { officialEverythingEntry } from '../../../../test/support/official-everything.ts';
import { cliChildEnv, runMcpwire } from '../../../../test/support/cli-child.ts';

/** tsx's loader as a URL, so the CLI runs from source whatever the working directory. */
const TSX = import.meta.resolve('tsx');

/** The CLI's entry point from source, as an absolute path. */
export const MAIN = join(ROOT, 'packages', 'cli', 'src', 'main.ts');

/** `node <flags> main.ts`: argv of the CLI from source, usable from any cwd. */
export const MCPWIRE: readonly string[] = [process.execPath, ...SOURCE_CONDITIONS, `--import=${TSX}`, MAIN];

/** The command that starts our everything server over stdio (a target after `--`). */
export const OUR_EVERYTHING: readonly string[] = [...MCPWIRE, 'serve', 'everything'];

/** The command that starts the official `@modelcontextprotocol/server-everything` over stdio. */
export const OFFICIAL_EVERYTHING: readonly string[] = [process.execPath, officialEverythingEntry(), 'stdio'];

export { officialEverythingEntry };

/**
 * The environment for a CLI child: ours (with the test runner's NODE_OPTIONS, whose `--import=tsx`
 * is made absolute so it resolves from any cwd) plus `extra`; NO_COLOR unset unless given. The same
 * function the repository-level tests use.
 */
export const childEnv = cliChildEnv;

/** How a CLI run ended and what it wrote. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; default: stdin is closed at once. */
  input?: string;
  timeoutMs?: number;
}

/** Runs `mcpwire <args>` to completion (stdin, stdout and stderr are pipes; cwd the repository root by default). */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return runMcpwire(args, { ...options, cwd: options.cwd ?? ROOT });
}

/**
 * Runs `mcpwire <args> | head -n <lines>`: resolves with what head printed and how the command
 * ended once both have exited (the command meets a closed pipe if it writes after head is gone).
 */
export async function runCliIntoHead(
  args: readonly string[],
  lines: number,
): Promise<{ head: string; code: number | null; stderr: string }> {
  const cli = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), ...args], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const head = spawn('head', ['-n', String(lines)], { stdio: [cli.stdout, 'pipe', 'inherit'] });
  // Our end of the pipe is not needed: head reads it, and closing it is what gives the CLI EPIPE.
  cli.stdout.destroy();
  let stderr = '';
  let headOutput = '';
  cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  head.stdout.setEncoding('utf8').on('data', (chunk: string) => (headOutput += chunk));
  const [[code]] = (await Promise.all([once(cli, 'close'), once(head, 'close')])) as [
    [number | null],
    unknown,
  ];
  return { head: headOutput, code, stderr };
}

/** The repository root, for tests that spawn from it. */
export { ROOT };

/** This folder's fixtures directory. */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
