// `bridge --http`: 2026-07-28 (stateless-era) requests served in front of a stdio child that may
// speak only the handshake era. A child per set of input capabilities the clients declare
// (era-capabilities.ts), shared by every stateless client that declares that set, is started and
// initialized by the bridge on the first such request; a library `ServerCore` built from its
// `initialize` result does the 2026-07-28 side (envelope, `server/discover`, caching hints,
// `subscriptions/listen`, per-request log levels), and its one middleware forwards each feature
// request to the child through a library `Client` (forwarding-server.ts). A child's elicitation,
// sampling or roots request becomes an `input_required` round of the call that caused it
// (era-rounds.ts); the call upstream runs once, kept alive across rounds in this process.

import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from 'mcpwire';
import type { ChannelServer, RequestVia } from 'mcpwire/http';
import { Client, type ClientHandlers } from 'mcpwire/client';
import { StdioClientTransport } from 'mcpwire/stdio';
import type { ChildCommand, ChildRelayServer } from './http-front-relay.ts';
import { ForwardingServer } from './forwarding-server.ts';
import { passedThroughClientExtensions } from './forwarded-extensions.ts';
import { PendingCalls, DEFAULT_ROUND_TIMEOUT_MS } from './era-rounds.ts';
import { inputCapabilitiesKey, inputCapabilitiesOf, type InputCapabilities } from './era-capabilities.ts';

/** The requests whose handler on the child may ask for input (S26-MRTR: they have input rounds). */
const ROUNDS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What the 2026-07-28 front needs. */
export interface EraFrontOptions {
  readonly child: ChildCommand;
  /** A chunk of the child's stderr; `pid` says whose. */
  readonly onStderr: (pid: number | undefined, text: string) => void;
  /** A note of the bridge's own (the child exited, a child's request no call could take). */
  readonly onNote: (text: string) => void;
  /** How long a call waits for the client's next round before it is cancelled; default 5 minutes. */
  readonly roundTimeoutMs?: number;
  /** The child's environment. */
  readonly env: Record<string, string>;
}

/** A shared child's client, the server definition built from its `initialize` result, its calls. */
interface Upstream {
  readonly client: Client;
  readonly server: ForwardingServer;
  readonly calls: PendingCalls;
}

/**
 * Serves stateless-era requests (`serveRequest`, as the library's HTTP endpoint calls it) through
 * shared children, one per set of input capabilities declared (each child sees its clients' own
 * set). A child that exits is started again by the next request of its set; calls it was serving
 * fail with an error naming the exit.
 */
export class EraFront {
  readonly #options: EraFrontOptions;
  /** The children by their input capabilities' key. */
  readonly #upstreams = new Map<string, Promise<Upstream>>();
  #isClosed = false;
  /** The child's tools' input schemas, by name, as a child last listed them. */
  #schemas = new Map<string, object>();

  constructor(options: EraFrontOptions) {
    this.#options = options;
  }

  async serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse> {
    let upstream: Upstream;
    try {
      upstream = await this.#ready(inputCapabilitiesOf(request.params));
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

  /** Stops the children (and cancels the calls kept across rounds). */
  async close(): Promise<void> {
    this.#isClosed = true;
    const upstreams = [...this.#upstreams.values()];
    this.#upstreams.clear();
    await Promise.all(
      upstreams.map(async (starting) => {
        const upstream = await starting.catch(() => undefined);
        upstream?.calls.closeAll('the bridge is stopping');
        await upstream?.server.close();
        await upstream?.client.close();
      }),
    );
  }

  #ready(capabilities: InputCapabilities): Promise<Upstream> {
    if (this.#isClosed) return Promise.reject(new Error('the bridge is stopping'));
    const key = inputCapabilitiesKey(capabilities);
    let upstream = this.#upstreams.get(key);
    if (upstream === undefined) {
      upstream = this.#start(capabilities, key);
      this.#upstreams.set(key, upstream);
      // A failed start is not remembered: the next request tries again.
      const started = upstream;
      started.catch(() => {
        if (this.#upstreams.get(key) === started) this.#upstreams.delete(key);
      });
    }
    return upstream;
  }

  async #start(capabilities: InputCapabilities, key: string): Promise<Upstream> {
    const calls = new PendingCalls(
      this.#options.roundTimeoutMs ?? DEFAULT_ROUND_TIMEOUT_MS,
      this.#options.onNote,
    );
    const client = new Client(
      { name: 'mcpwire-bridge', version: '1' },
      {
        era: 'handshake',
        extensions: passedThroughClientExtensions(),
        // The child's input requests go to the call that caused them, as input_required rounds;
        // it is told of the input capabilities its clients declared, and of no other.
        handlers: inputHandlers(calls, capabilities),
        ...(capabilities.elicitation === undefined ? {} : { elicitationModes: capabilities.elicitation }),
        ...(capabilities.sampling === undefined ? {} : { capabilities: { sampling: capabilities.sampling } }),
        // A call waiting for a person's answer may take long; the round timeout bounds it instead.
        requestTimeoutMs: 10 * 60_000,
        onError: (error) => this.#options.onNote(error.message),
      },
    );
    const started: { pid: number | undefined } = { pid: undefined };
    const transport = new StdioClientTransport({
      command: this.#options.child.command,
      args: this.#options.child.args,
      env: this.#options.env,
      stderr: (text) => this.#options.onStderr(started.pid, text),
    });
    const channel = await transport.connect();
    started.pid = channel.info.pid;
    await client.connect(channel);
    const server = new ForwardingServer(client, (method, params, ctx) =>
      ROUNDS.has(method)
        ? calls.run(client, method, params, ctx)
        : calls.forward(client, method, params, ctx),
    );
    client.on('log', (params) => calls.log(params));
    const listSchemas = async (): Promise<void> => {
      if (client.serverCapabilities?.tools === undefined) return;
      const tools = await client.listAllTools().catch(() => []);
      this.#schemas = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
    };
    client.on('toolsListChanged', () => void listSchemas());
    await listSchemas();
    const upstream: Upstream = { client, server, calls };
    client.on('close', ({ error }) => {
      const how = error === undefined ? 'closed its connection' : error.message;
      this.#options.onNote(
        `the server process for 2026-07-28 clients ${how}; the next request starts another`,
      );
      calls.closeAll(`the server process ${how}`);
      void server.close();
      if (this.#upstreams.get(key) !== undefined) void this.#forget(key, upstream);
    });
    // Every log message is asked of the child; each request's own level filters them (S26-LOG-1).
    if (client.serverCapabilities?.logging !== undefined)
      await client.setLoggingLevel({ level: 'debug' }).catch(() => {});
    return upstream;
  }

  /** Forgets a child that is gone, unless another has taken its key since. */
  async #forget(key: string, gone: Upstream): Promise<void> {
    const current = this.#upstreams.get(key);
    if ((await current?.catch(() => undefined)) === gone) this.#upstreams.delete(key);
  }
}

/** Answers to the child's input requests, for the capabilities its clients declared only. */
function inputHandlers(calls: PendingCalls, capabilities: InputCapabilities): ClientHandlers {
  // The answers are the client's own, checked by the library's round (S26-MRTR-10).
  return {
    ...(capabilities.elicitation === undefined
      ? {}
      : {
          elicitation: (params) =>
            calls.askClient('elicitation/create', params as unknown as JsonObject) as Promise<never>,
        }),
    ...(capabilities.sampling === undefined
      ? {}
      : {
          sampling: (params) =>
            calls.askClient('sampling/createMessage', params as unknown as JsonObject) as Promise<never>,
        }),
    ...(capabilities.roots
      ? { roots: async () => (await calls.askClient('roots/list', undefined)).roots as never }
      : {}),
  };
}

/**
 * The server `bridge --http` serves: handshake-era sessions by `relay` (a child each), 2026-07-28
 * requests by `front` (the library's HTTP endpoint calls `serveRequest` for them).
 */
export function withEraFront(
  relay: ChildRelayServer,
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
