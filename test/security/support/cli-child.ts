// What the security tests add to test/support/cli-child.ts: a run from the repository root, an
// in-process HTTP everything server, a transcript read line by line. (A long-lived tap is
// test/support/tap-process.ts.)

import { readFileSync } from 'node:fs';
import { createEverythingServer } from '@mcpwire/server-everything';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { MCPWIRE_ARGV, ROOT_DIR, runMcpwire } from '../../support/cli-child.ts';

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
