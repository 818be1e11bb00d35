// `mcpwire replay <transcript>` as a server: the mock over this process's stdio (nothing but
// JSON-RPC on stdout), or over Streamable HTTP on 127.0.0.1 through the library's handler, which
// brings sessions, 202 for notifications and the Host and Origin checks of a local server (HTTP-2/3).

import type { HttpServerHandle } from 'mcpwire/node';
import { serveStdio } from 'mcpwire/stdio';
import { coloursFor } from '../../terminal/colours.ts';
import { CliError, ExitCode } from '../../exit-code.ts';
import type { ReplayBook } from './replay-book.ts';
import { createReplayServer } from './replay-server.ts';

/** Serves `book` on stdin/stdout until stdin closes (STDIO-2, LIFE-13). */
export async function serveReplayStdio(book: ReplayBook): Promise<void> {
  await serveStdio(createReplayServer(book));
}

/** Where the HTTP mock listens and what it says. */
export interface ReplayHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** The transcript's name, for the line on stderr. */
  file: string;
}

/**
 * Serves `book` at http://127.0.0.1:<port>/mcp until SIGINT or SIGTERM. The URL goes to stderr
 * whether or not it is a terminal, so a script or a test can read it. Only loopback Host headers
 * and loopback (or absent) Origins are accepted. Rejects with CliError (exit 3) when it cannot listen.
 */
export async function serveReplayHttp(book: ReplayBook, options: ReplayHttpOptions): Promise<void> {
  // Loaded here: the stdio mock, which a host may start often, never loads the HTTP stack.
  const { createHttpHandler, LOOPBACK_HOSTNAMES } = await import('mcpwire/http');
  const { serveHttp } = await import('mcpwire/node');
  const handler = createHttpHandler(createReplayServer(book), {
    allowedHosts: LOOPBACK_HOSTNAMES,
    onError: (error) => process.stderr.write(`mcpwire: ${error.message}\n`),
  });
  let handle: HttpServerHandle;
  try {
    handle = await serveHttp(handler, { port: options.port, host: '127.0.0.1' });
  } catch (error) {
    throw new CliError(
      `cannot listen on 127.0.0.1:${options.port}: ${(error as Error).message}; choose another --port (0: any free one)`,
      ExitCode.connection,
    );
  }
  const colours = coloursFor(process.stderr);
  process.stderr.write(
    `mcpwire: replaying ${options.file} (${book.size} recorded answers) over Streamable HTTP at ${colours.cyan(handle.url)}; Ctrl-C stops\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await handle.close();
}
