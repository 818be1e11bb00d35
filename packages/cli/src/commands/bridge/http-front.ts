// `mcpwire bridge --http <port> -- <command...>`: a stdio MCP server offered over Streamable HTTP,
// a child process per handshake-era session (http-front-relay.ts), served by `serve --http`'s code
// (Host and Origin checks, --auth dev) with a cap on sessions that refuses rather than evicts.

import { isStatelessVersion } from 'mcpwire';
import type { ChainableHandler, HttpReply, HttpRequestView } from 'mcpwire/http';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import { ChildRelayServer, inheritedEnvironment, type ChildCommand } from './http-front-relay.ts';
import { EraFront, withEraFront } from './era-front.ts';
import { SharedChildServer } from './shared-child.ts';

/** Sessions (so children) at most by default: each costs a process. */
export const DEFAULT_MAX_SESSIONS = 32;
/** An idle session and its child are stopped after this long by default (10 minutes). */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 600;
/**
 * A POST the child has not answered this long after it is answered on a resumable SSE stream, by
 * default: well under the pause of the conformance suite's polling fixture (test_reconnection,
 * 100 ms), far above a quick call's round trip through the bridge (under a millisecond).
 */
export const DEFAULT_SSE_AFTER_MS = 20;

/** What `bridge --http` was asked for. */
export interface HttpFrontOptions {
  port: number;
  host: string;
  allowedHosts?: readonly string[];
  auth?: 'dev';
  maxSessions: number;
  idleTimeoutSeconds: number;
  /** One child for every handshake-era session, ids remapped (shared-child.ts); else a child per session. */
  shared?: boolean;
  /** `--sse-after`: ms before an unanswered POST goes on SSE; 0: every POST that accepts SSE. */
  sseAfterMs: number;
}

/** Serves `child` over HTTP until SIGINT or SIGTERM; then every child is stopped before it resolves. */
export async function runHttpFront(
  child: ChildCommand,
  options: HttpFrontOptions,
  wrap: <Server extends object>(server: Server) => Server = (server) => server,
): Promise<ExitCodeValue> {
  const { serveOverHttp } = await import('../../http-serving/serve-over-http.ts');
  const { InMemorySessionStore } = await import('mcpwire/http');
  const sessionStore = new InMemorySessionStore();
  const onStderr = createStderrRelay();
  const onNote = (text: string): void =>
    void process.stderr.write(`mcpwire bridge: ${toTerminalText(text)}\n`);
  const relayOptions = {
    forgetSession: (sessionId: string) => sessionStore.delete(sessionId),
    child,
    onStderr,
    onNote,
  };
  const relay =
    options.shared === true ? new SharedChildServer(relayOptions) : new ChildRelayServer(relayOptions);
  // 2026-07-28 requests: one shared child behind a 2026-07-28 front (era-front.ts).
  const server = withEraFront(relay, new EraFront({ child, onStderr, onNote, env: inheritedEnvironment() }));
  const shown = toTerminalText([child.command, ...child.args].join(' '));
  await serveOverHttp(wrap(server), {
    port: options.port,
    host: options.host,
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    // The gate refuses at the cap; the handler's own cap (which evicts) is only a backstop for
    // initialize requests that raced past it together.
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessions,
    sessionIdleTimeoutMs: options.idleTimeoutSeconds * 1000,
    sessionStore,
    hasLegacySse: false,
    // A child that streams first gets SSE anyway (the handler's rule). Over stdio it cannot say that
    // the client should poll, so a slow answer gets a primed, resumable stream too; a quick one JSON,
    // which costs the relay far less (bench/NOTES.md, "The bridge's cost per call").
    sseAfterMs: options.sseAfterMs,
    gate: createSessionCap(relay, options.maxSessions),
    banner: (url) =>
      `bridging ${url} to ${shown} (${options.shared === true ? 'one process for every session' : 'a process per session'})`,
  });
  return ExitCode.ok;
}

/**
 * At `max` live session children, a POST without `Mcp-Session-Id` gets 503: an `initialize` would
 * start a child; a new client must not stop another's child either, whose state would be lost.
 * Requests in a session, and 2026-07-28 requests (served by the front's one shared child), pass on.
 */
export function createSessionCap(server: { readonly size: number }, max: number): ChainableHandler {
  const exchange = (view: HttpRequestView): Promise<HttpReply | undefined> => {
    const version = view.headers.get('mcp-protocol-version');
    // A 2026-07-28 request is served by the one shared child of the 2026-07-28 front: no new child.
    if (
      view.method !== 'POST' ||
      server.size < max ||
      view.headers.get('mcp-session-id') !== null ||
      (version !== null && isStatelessVersion(version))
    )
      return Promise.resolve(undefined);
    const message = `Too many sessions: the bridge runs at most ${max} server processes (--max-sessions); retry once a session ends`;
    return Promise.resolve({
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '5' },
      body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }),
    });
  };
  return { exchange };
}

/** Writes each child's stderr on ours, line by line, each line prefixed with the child's pid and escaped. */
function createStderrRelay(): (pid: number | undefined, text: string) => void {
  const partial = new Map<number | undefined, string>();
  return (pid, text) => {
    const lines = ((partial.get(pid) ?? '') + text).split('\n');
    const rest = lines.pop() ?? '';
    if (rest === '') partial.delete(pid);
    else partial.set(pid, rest);
    for (const line of lines)
      process.stderr.write(`[server ${pid === undefined ? '?' : String(pid)}] ${toTerminalText(line)}\n`);
  };
}
