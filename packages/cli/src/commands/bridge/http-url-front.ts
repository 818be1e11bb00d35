// `mcpwire bridge --http <port> <url>`: a remote MCP server served again over Streamable HTTP, both
// eras on one endpoint, translating where the remote does not speak the client's era. A handshake-era
// session is relayed to a remote session of its own (stdio-front.ts's relay: pass-through, or the
// translation to a 2026-07-28-only remote); 2026-07-28 requests go through stateless-remote.ts.

import type { Channel, Transport } from 'mcpwire';
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from 'mcpwire/http';
import { ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import type { CliAuthOptions } from '../../oauth/cli-oauth.ts';
import { toTerminalText } from '../../terminal/terminal-text.ts';
import { createSessionCap, type HttpFrontOptions } from './http-front.ts';
import { RelatedStreamChannel } from './related-stream-channel.ts';
import { StatelessRemote } from './stateless-remote.ts';
import { StdioRelay } from './stdio-front.ts';

/** The remote of `bridge --http <port> <url>`: its URL, headers and OAuth (undefined: none). */
export interface RemoteTarget {
  url: string;
  headers: Record<string, string>;
  auth: CliAuthOptions | undefined;
}

/** Serves the remote over HTTP until SIGINT or SIGTERM; every remote session is deleted before it resolves. */
export async function runHttpUrlFront(
  remote: RemoteTarget,
  options: HttpFrontOptions,
  wrap: <Server extends object>(server: Server) => Server = (server) => server,
): Promise<ExitCodeValue> {
  const { serveOverHttp } = await import('../../http-serving/serve-over-http.ts');
  const { InMemorySessionStore } = await import('mcpwire/http');
  const auth = remote.auth === undefined ? undefined : await createAuth(remote.url, remote.auth);
  try {
    const transportOptions: StreamableHttpClientTransportOptions = {
      headers: remote.headers,
      onError: (error) => note(error.message),
      ...auth?.transportOptions,
    };
    const connect = (): Transport => new StreamableHttpClientTransport(remote.url, transportOptions);
    const sessionStore = new InMemorySessionStore();
    const sessions = new RemoteSessions(connect, (sessionId) => sessionStore.delete(sessionId));
    const stateless = new StatelessRemote({ connect, onNote: note });
    const server = wrap({
      connect: (channel: Channel) => sessions.connect(channel),
      serveRequest: stateless.serveRequest.bind(stateless),
      toolInputSchema: (name: string) => stateless.toolInputSchema(name),
      close: async () => {
        await Promise.all([sessions.close(), stateless.close()]);
      },
    });
    await serveOverHttp(server, {
      port: options.port,
      host: options.host,
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      maxSessions: options.maxSessions,
      maxSessionsPerClient: options.maxSessions,
      sessionIdleTimeoutMs: options.idleTimeoutSeconds * 1000,
      sessionStore,
      hasLegacySse: false,
      // The remote's own choice of SSE or JSON does not cross the relay: a slow answer gets a
      // primed, resumable stream here too, a quick one JSON (http-front.ts).
      sseAfterMs: options.sseAfterMs,
      gate: createSessionCap(sessions, options.maxSessions),
      banner: (url) => `bridging ${url} to ${toTerminalText(remote.url)} (a remote session per session)`,
    });
    return ExitCode.ok;
  } finally {
    await auth?.[Symbol.asyncDispose]();
  }
}

/**
 * The handshake-era sessions: each gets a remote session of its own through a relay, which passes
 * messages as they are (ids untouched: one client per remote session) or translates for a remote that
 * speaks only 2026-07-28. A relay that ends (the remote session ended or failed) ends its session:
 * the id is forgotten, so the client gets 404 and initializes again.
 */
export class RemoteSessions {
  readonly #connect: () => Transport;
  readonly #forgetSession: (sessionId: string) => unknown;
  readonly #relays = new Set<Promise<StdioRelay | undefined>>();

  constructor(connect: () => Transport, forgetSession: (sessionId: string) => unknown) {
    this.#connect = connect;
    this.#forgetSession = forgetSession;
  }

  /** Sessions relayed now (for the cap of --max-sessions). */
  get size(): number {
    return this.#relays.size;
  }

  connect(front: Channel): void {
    const started = this.#start(front);
    this.#relays.add(started);
    void started.then(async (relay) => {
      if (relay !== undefined) await relay.run();
      const sessionId = front.info?.sessionId;
      if (sessionId !== undefined) await this.#forgetSession(sessionId);
      this.#relays.delete(started);
    });
  }

  /** Ends every relay (each remote session is deleted); resolves once they have. */
  async close(): Promise<void> {
    const relays = await Promise.all(this.#relays);
    await Promise.all(relays.map((relay) => relay?.stop() ?? Promise.resolve()));
  }

  async #start(front: Channel): Promise<StdioRelay | undefined> {
    try {
      const transport = this.#connect();
      const remote = await transport.connect();
      return new StdioRelay(new RelatedStreamChannel(front), remote, () => this.#connect(), HTTP_SESSION_END);
    } catch (error) {
      note(error instanceof Error ? error.message : String(error));
      await front.close().catch(() => {});
      return undefined;
    }
  }
}

/** An HTTP client whose remote session ended initializes again: its session id then answers 404. */
const HTTP_SESSION_END = {
  note: 'its client session is over (404 from now on; the client initializes again)',
  answer: 'initialize again',
};

async function createAuth(url: string, options: CliAuthOptions) {
  const { authBaseFetch, createCliAuth } = await import('../../oauth/cli-oauth.ts');
  return createCliAuth(url, options, { inner: authBaseFetch(url, options), isFetchWanted: false });
}

/** A note on stderr, escaped: its text may come from the remote. */
function note(text: string): void {
  process.stderr.write(`mcpwire bridge: ${toTerminalText(text)}\n`);
}
