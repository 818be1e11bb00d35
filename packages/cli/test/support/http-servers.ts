// HTTP servers for the one-shot commands to reach: ours (`mcpwire serve everything --http 0` on a
// terminal, which is where it says its URL) and the official everything server's streamableHttp mode.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { MCPWIRE, officialEverythingEntry, ROOT } from './cli-process.ts';
import { PtyProcess } from './pty-process.ts';
import { freePort } from '../../../../test/support/free-port.ts';

/** A running HTTP server: its endpoint URL; dispose to stop it. */
export interface HttpServer extends AsyncDisposable {
  url: string;
}

/** `mcpwire serve <args> --http 0` on a pty; resolves once it has printed its URL. */
export async function startOurHttpServer(
  args: readonly string[] = ['everything'],
): Promise<HttpServer & { pty: PtyProcess }> {
  const pty = new PtyProcess([...MCPWIRE, 'serve', ...args, '--http', '0']);
  try {
    const url = await pty.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
    return { url, pty, [Symbol.asyncDispose]: () => pty[Symbol.asyncDispose]() };
  } catch (error) {
    await pty[Symbol.asyncDispose]();
    throw error;
  }
}

/** The official everything server in its streamableHttp mode on a free port; resolves once it listens. */
export async function startOfficialHttpServer(): Promise<HttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [officialEverythingEntry(), 'streamableHttp'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server-everything did not listen within 30 s:\n${stderr}`)),
      30_000,
    );
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!/listening on port \d+/.test(stderr)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited before listening:\n${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
