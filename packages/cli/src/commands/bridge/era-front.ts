// `bridge --http`: 2026-07-28 (stateless-era) requests served in front of a stdio child that may
// speak only the handshake era. One child, shared by every stateless client, is started and
// initialized by the bridge on the first such request; a library `ServerCore` built from its
// `initialize` result does the 2026-07-28 side (envelope, `server/discover`, caching hints,
// `subscriptions/listen`, per-request log levels), and its one middleware forwards each feature
// request to the child through a library `Client` (forwarding-server.ts). A child's elicitation,
// sampling or roots request becomes an `input_required` round of the call that caused it
// (era-rounds.ts); the call upstream runs once, kept alive across rounds in this process.

import type { JsonObject, JsonRpcRequest, JsonRpcResponse, Transport } from 'mcpwire';
import type { ChannelServer, RequestVia } from 'mcpwire/http';
import { Client } from 'mcpwire/client';
import { StdioClientTransport } from 'mcpwire/stdio';
import type { ChildCommand, ChildRelayServer } from './http-front-relay.ts';
import { ForwardingServer } from './forwarding-server.ts';
import { passedThroughClientExtensions } from './forwarded-extensions.ts';
import { PendingCalls, DEFAULT_ROUND_TIMEOUT_MS } from './era-rounds.ts';
import { EraTasks } from './era-tasks.ts';

/** The requests whose handler on the child may ask for input (S26-MRTR: they have input rounds). */
const ROUNDS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What the 2026-07-28 front needs. */
export interface EraFrontOptions {
  /** The stdio server to start, unless `transport` is given. */
  readonly child?: ChildCommand;
  /** Where the handshake-era upstream is instead of a child (`bridge --http <port> <url>`: the remote). */
  readonly transport?: Transport;
  /** A chunk of the child's stderr; `pid` says whose. */
  readonly onStderr: (pid: number | undefined, text: string) => void;
  /** A note of the bridge's own (the child exited, a child's request no call could take). */
  readonly onNote: (text: string) => void;
  /** How long a call waits for the client's next round before it is cancelled; default 5 minutes. */
  readonly roundTimeoutMs?: number;
  /** The child's environment. */
  readonly env: Record<string, string>;
}

/** The shared child's client and the server definition built from its `initialize` result. */
interface Upstream {
  readonly client: Client;
  readonly server: ForwardingServer;
}

/**
 * Serves stateless-era requests (`serveRequest`, as the library's HTTP endpoint calls it) through
 * one shared child. A child that exits is started again by the next request; calls it was serving
 * fail with an error naming the exit.
 */
export class EraFront {
  readonly #options: EraFrontOptions;
  readonly #calls: PendingCalls;
  #upstream: Promise<Upstream> | undefined;
  #isClosed = false;
  /** The child's tools' input schemas, by name, as it last listed them. */
  #schemas = new Map<string, object>();

  constructor(options: EraFrontOptions) {
    this.#options = options;
    this.#calls = new PendingCalls(options.roundTimeoutMs ?? DEFAULT_ROUND_TIMEOUT_MS, options.onNote);
  }

  async serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse> {
    let upstream: Upstream;
    try {
      upstream = await this.#ready();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32603, message: `mcpwire bridge: the server process cannot start (${reason})` },
      };
    }
    return upstream.server.serveRequest(request, via);
  }

  /**
   * A tool's input schema as the child last listed it (for the endpoint's `Mcp-Param` header
   * checks); undefined before the child has started, and for a tool it does not list.
   */
  toolInputSchema(name: string): object | undefined {
    return this.#schemas.get(name);
  }

  /** Stops the child (and cancels the calls kept across rounds). */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.#calls.closeAll('the bridge is stopping');
    const upstream = await this.#upstream?.catch(() => undefined);
    await upstream?.server.close();
    await upstream?.client.close();
  }

  #ready(): Promise<Upstream> {
    if (this.#isClosed) return Promise.reject(new Error('the bridge is stopping'));
    this.#upstream ??= this.#start();
    // A failed start is not remembered: the next request tries again.
    this.#upstream.catch(() => (this.#upstream = undefined));
    return this.#upstream;
  }

  async #start(): Promise<Upstream> {
    const calls = this.#calls;
    // The child's requests tagged with one of its tasks go to that task (era-tasks.ts), not to a round.
    let tasks: EraTasks | undefined;
    const client = new Client(
      { name: 'mcpwire-bridge', version: '1' },
      {
        era: 'handshake',
        extensions: passedThroughClientExtensions(),
        // The child's input requests go to the call that caused them, as input_required rounds.
        handlers: {
          // The answers are the client's own, checked by the library's round (S26-MRTR-10).
          elicitation: (params) =>
            (tasks?.askClient('elicitation/create', params as unknown as JsonObject) ??
              calls.askClient('elicitation/create', params as unknown as JsonObject)) as Promise<never>,
          sampling: (params) =>
            (tasks?.askClient('sampling/createMessage', params as unknown as JsonObject) ??
              calls.askClient('sampling/createMessage', params as unknown as JsonObject)) as Promise<never>,
          roots: async () => (await calls.askClient('roots/list', undefined)).roots as never,
        },
        // A call waiting for a person's answer may take long; the round timeout bounds it instead.
        requestTimeoutMs: 10 * 60_000,
        onError: (error) => this.#options.onNote(error.message),
      },
    );
    const started: { pid: number | undefined } = { pid: undefined };
    const { child } = this.#options;
    const transport =
      this.#options.transport ??
      new StdioClientTransport({
        command: child?.command ?? '',
        args: child?.args ?? [],
        env: this.#options.env,
        stderr: (text) => this.#options.onStderr(started.pid, text),
      });
    const channel = await transport.connect();
    started.pid = channel.info?.pid;
    await client.connect(channel);
    const eraTasks = (tasks = new EraTasks(client));
    const server = new ForwardingServer(
      client,
      (method, params, ctx) =>
        method === 'tools/call'
          ? eraTasks.callTool(params, ctx, (sent) => calls.run(client, method, sent, ctx))
          : ROUNDS.has(method)
            ? calls.run(client, method, params, ctx)
            : calls.forward(client, method, params, ctx),
      eraTasks.extensions(),
    );
    client.on('log', (params) => calls.log(params));
    const listSchemas = async (): Promise<void> => {
      if (client.serverCapabilities?.tools === undefined) return;
      const tools = await client.listAllTools().catch(() => []);
      this.#schemas = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
      eraTasks.setTools(tools);
    };
    client.on('toolsListChanged', () => void listSchemas());
    await listSchemas();
    client.on('close', ({ error }) => {
      const how = error === undefined ? 'closed its connection' : error.message;
      this.#options.onNote(
        `the server process for 2026-07-28 clients ${how}; the next request starts another`,
      );
      calls.closeAll(`the server process ${how}`);
      eraTasks.close(`the server process ${how}`);
      void server.close();
      this.#upstream = undefined;
    });
    // Every log message is asked of the child; each request's own level filters them (S26-LOG-1).
    if (client.serverCapabilities?.logging !== undefined)
      await client.setLoggingLevel({ level: 'debug' }).catch(() => {});
    return { client, server };
  }
}

/**
 * The server `bridge --http` serves: handshake-era sessions by `relay` (a child each), 2026-07-28
 * requests by `front` (the library's HTTP endpoint calls `serveRequest` for them).
 */
export function withEraFront(
  relay: Pick<ChildRelayServer, 'connect' | 'close'>,
  front: EraFront,
): ChannelServer & {
  serveRequest: EraFront['serveRequest'];
  toolInputSchema(name: string): object | undefined;
} {
  return {
    connect: (channel) => relay.connect(channel),
    // The endpoint's x-mcp-header checks read a tool's schema here, not through a session's child.
    toolInputSchema: (name) => front.toolInputSchema(name),
    serveRequest: (request, via) => front.serveRequest(request, via),
    close: async () => {
      await Promise.all([relay.close(), front.close()]);
    },
  };
}
