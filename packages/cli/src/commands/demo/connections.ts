// Where the demo's server runs: `mcpwire serve github --db :memory:` as a child process over stdio
// (one process per connection), or the same server in this process on Streamable HTTP at a free
// loopback port. Either way every channel is tapped, so the printer sees each message.

import { tapChannel, type Channel } from 'mcpwire';
import {
  chainHandlers,
  createHttpHandler,
  LOOPBACK_HOSTNAMES,
  StreamableHttpClientTransport,
} from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';
import type { AuthExchange } from './auth-wire.ts';
import { createHttpWire, type HttpExchange } from './http-wire.ts';

/** One way to reach the server. `open` makes a new connection each time. */
export interface DemoServer {
  readonly kind: 'stdio' | 'http';
  /** How the connection is described in the story. */
  readonly description: string;
  /** Over HTTP, every request made so far (empty over stdio). */
  readonly exchanges: readonly HttpExchange[];
  /** With --auth, every request of the host's OAuth client (else empty). */
  readonly authExchanges: readonly AuthExchange[];
  /** A new tapped channel (over stdio: a new server process). */
  open(): Promise<DemoChannel>;
  /** Stops what `start*` started (the HTTP server); idempotent. */
  close(): Promise<void>;
}

/** A tapped channel and what the shutdown step reports about it. */
export interface DemoChannel {
  readonly channel: Channel;
  /** After close(): how the server process exited (stdio only). */
  exitCode(): number | null | undefined;
  readonly pid: number | undefined;
}

/** The github server over stdio: each `open` spawns `<this CLI> serve github --db :memory:`. */
export function startStdioServer(printer: DemoPrinter): DemoServer {
  // argv[1] is this CLI's own entry (main.js, or main.ts from source): the child runs the same build.
  const entry = process.argv[1] ?? 'mcpwire';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...process.execArgv, entry, 'serve', 'github', '--db', ':memory:'],
    stderr: (text) => process.stderr.write(text.replace(/^(?=.)/gm, 'server stderr | ')),
  });
  return {
    kind: 'stdio',
    exchanges: [],
    authExchanges: [],
    description: `"mcpwire serve github --db :memory:" as a child process, JSON-RPC lines on its stdin/stdout`,
    async open() {
      const raw: StdioClientChannel = await transport.connect();
      return {
        channel: tapChannel(raw, printer.observer),
        exitCode: () => raw.exitStatus?.code,
        pid: raw.info.pid,
      };
    },
    close: () => Promise.resolve(),
  };
}

/** The github server (a fresh in-memory database) on Streamable HTTP at 127.0.0.1, any free port. */
export async function startHttpServer(
  printer: DemoPrinter,
  options: { isRaw: boolean; isAuth?: boolean },
): Promise<DemoServer> {
  // Loaded here: the stdio demo never loads the server (its child process does).
  const { createGithubServer } = await import('@mcpwire/server-github');
  const server = createGithubServer({ db: ':memory:' });
  // With --auth: the development authorization server (auto-approving) and the resource server.
  const devAuth =
    options.isAuth === true
      ? await (
          await import('../../dev-auth/serve-auth-dev.ts')
        ).startDevAuth('127.0.0.1', { isAutoApproved: true })
      : undefined;
  const handler = createHttpHandler(server, {
    allowedHosts: LOOPBACK_HOSTNAMES,
    ...(devAuth === undefined ? {} : { auth: devAuth.auth }),
  });
  const handle: HttpServerHandle = await serveHttp(
    devAuth === undefined ? handler : chainHandlers(devAuth.metadata, handler),
    { port: 0, host: '127.0.0.1' },
  );
  devAuth?.bind(handle.url);
  const exchanges: HttpExchange[] = [];
  const authExchanges: AuthExchange[] = [];
  const wire = createHttpWire(printer, { isFull: options.isRaw, exchanges });
  const transport = new StreamableHttpClientTransport(handle.url, {
    fetch:
      devAuth === undefined
        ? wire
        : (await import('./auth-wire.ts')).createDemoOAuthFetch(handle.url, wire, printer, authExchanges),
    onError: (error) => printer.note(`HTTP transport: ${error.message}`),
  });
  let closing: Promise<void> | undefined;
  return {
    kind: 'http',
    exchanges,
    authExchanges,
    description:
      `the github server (in-memory database) on Streamable HTTP at ${handle.url}, in this process` +
      (devAuth === undefined
        ? ''
        : `, protected by OAuth (development authorization server at ${devAuth.issuer})`),
    async open() {
      const channel = await transport.connect();
      // Sent messages are printed from the POST bodies (see http-wire.ts): the tap would also show
      // what the transport swallows (a 2026-07-28 cancellation closes a stream instead).
      return {
        channel: tapChannel(channel, printer.receiveObserver),
        exitCode: () => undefined,
        pid: undefined,
      };
    },
    close() {
      closing ??= handle
        .close()
        .finally(() => server.close())
        .finally(() => devAuth?.[Symbol.asyncDispose]());
      return closing;
    },
  };
}

/** What the library's stdio transport does when a server does not exit after stdin closes (LIFE-13). */
export const SHUTDOWN_NOTE =
  `had it not exited within ${DEFAULT_SHUTDOWN_TIMEOUT_MS} ms of stdin closing, the transport would have sent ` +
  `SIGTERM to its process group, and SIGKILL after another ${DEFAULT_SHUTDOWN_TIMEOUT_MS} ms`;
