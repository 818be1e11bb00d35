// For the OAuth tests of the client commands: `mcpwire serve everything --http <port> --auth dev` as a
// child, the consent page answered over HTTP (no browser), and a CLI child whose stderr is read as it
// comes so a test can pick the authorization URL out of it.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../../../../test/support/free-port.ts';
import { MCPWIRE, ROOT, childEnv, type CliResult } from './cli-process.ts';
import { authorizeWithConsent } from '../../../../test/support/oauth-driver.ts';

/** A protected everything server and its development authorization server; dispose to stop both. */
export interface ProtectedServer extends AsyncDisposable {
  /** The MCP endpoint. */
  url: string;
  issuer: string;
}

/** Waits until `read()` matches `pattern`, or the child exits, or `timeoutMs` passes. */
async function waitFor(
  child: ChildProcessWithoutNullStreams,
  read: () => string,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  const deadline = AbortSignal.timeout(timeoutMs);
  for (;;) {
    const found = pattern.exec(read());
    if (found !== null) return found;
    if (child.exitCode !== null || child.signalCode !== null)
      assert.fail(`exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${read()}`);
    if (deadline.aborted) assert.fail(`no ${pattern} within ${timeoutMs} ms:\n${read()}`);
    // Listeners of one wait removed before the next, so a long wait adds none.
    const waiting = new AbortController();
    const { signal } = waiting;
    await Promise.race([
      once(child.stderr, 'data', { signal }),
      once(child, 'exit', { signal }),
      once(deadline, 'abort', { signal }),
    ]).catch(() => {});
    waiting.abort();
  }
}

/** Starts `mcpwire serve everything --http <free port> --auth dev [extra]`; resolves once it listens. */
export async function startProtectedServer(extra: readonly string[] = []): Promise<ProtectedServer> {
  const port = await freePort();
  const child = spawn(
    MCPWIRE[0]!,
    [...MCPWIRE.slice(1), 'serve', 'everything', '--http', String(port), '--auth', 'dev', ...extra],
    { cwd: ROOT, env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const issuer = (
      await waitFor(child, () => stderr, /development authorization server at (\S+)/, 60_000)
    )[1]!;
    return { url: `http://127.0.0.1:${port}/mcp`, issuer, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Answers the consent page at `url` with approve (as carol); resolves with the redirect back to the client. */
export async function approveConsent(url: string): Promise<string> {
  return (await authorizeWithConsent(url, { subject: 'carol' })).href;
}

/** A running CLI child whose output is collected; `waitForStderr` reads as it comes. */
export interface CliChild {
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves when the child exits (killed after `timeoutMs`). */
  done(timeoutMs?: number): Promise<CliResult>;
}

/** Starts `mcpwire <args>` (stdin closed, no terminal: no browser is opened). */
export function startCli(args: readonly string[], env: Record<string, string | undefined> = {}): CliChild {
  const child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = once(child, 'close') as Promise<[number | null]>;
  return {
    waitForStderr: (pattern, timeoutMs = 120_000) => waitFor(child, () => stderr, pattern, timeoutMs),
    async done(timeoutMs = 120_000) {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const [code] = await closed;
      clearTimeout(timer);
      return { code, stdout, stderr };
    },
  };
}

/** The authorization URL a client command printed, then the consent approved and the browser's redirect followed. */
export async function completeBrowserStep(
  cli: CliChild,
): Promise<{ authorizationUrl: string; redirect: string; page: string }> {
  const authorizationUrl = (await cli.waitForStderr(/^ {2}(https?:\/\/\S+)$/m))[1]!;
  const redirect = await approveConsent(authorizationUrl);
  const landing = await fetch(redirect);
  const page = await landing.text();
  assert.equal(landing.status, 200, page);
  return { authorizationUrl, redirect, page };
}
