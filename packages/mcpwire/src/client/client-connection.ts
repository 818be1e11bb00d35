// The Client's one connection at a time: opening it in the right era, the handshake or the discover
// result, and the path every outbound request takes (middleware, then the era's way of sending).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ProtocolStateError } from '../protocol/capabilities.ts';
import type { MethodTable } from '../protocol/method-table.ts';
import { isStatelessVersion, HANDSHAKE_VERSIONS, STATELESS_VERSIONS } from '../protocol/revisions.ts';
import { Session, type InboundRequest, type RequestOptions } from '../protocol/session.ts';
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  ServerCapabilities,
} from '../protocol/types/index.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import {
  DEFAULT_INITIALIZE_TIMEOUT_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  type ClientOptions,
} from './client-options.ts';
import { defaultEraCache } from './era-probe.ts';
import { NotConnectedError } from './errors.ts';
import { establish, toConnectError, type Established, type EstablishOptions } from './establish.ts';
import { runClientMiddleware, type ClientMiddleware } from './middleware.ts';
import { sendStateless, withEnvelope, type StatelessLink } from './stateless-request.ts';
import { negotiate } from './negotiate.ts';

/** What a connection needs from its Client. */
export interface ClientConnectionOptions {
  info: Implementation;
  options: ClientOptions;
  /** The Client's middleware, read on every request (so later `use` calls apply). */
  middleware: readonly ClientMiddleware[];
  /** The methods the client knows: the core table plus its extensions' rows. */
  methods: MethodTable;
  /** The capabilities to declare when speaking `version`. */
  capabilities(version: string): ClientCapabilities;
  /** Called as `connect` starts a new connection, before anything is sent. */
  handleConnecting(): void;
  /** Answers a server request, or an input request embedded in a stateless-era result. */
  handleRequest(session: Session, request: InboundRequest): Promise<JsonObject>;
  handleNotification(method: string, params: JsonObject): void;
  /** The current connection ended; not called for a session a later `connect` replaced. */
  handleClose(error: Error | undefined): void;
  report(error: Error): void;
}

/**
 * The session and era state behind a Client. `connect` settles the era (pinned, remembered or
 * probed) and leaves `initialized` set; `request` sends through the middleware chain in that era.
 * One connection at a time: `connect` throws ProtocolStateError while one is open or opening.
 */
export class ClientConnection {
  readonly #client: ClientConnectionOptions;
  #session: Session | undefined;
  #initialized: InitializeResult | undefined;
  /** Set while connected in the stateless era. */
  #link: StatelessLink | undefined;
  #reinitializing: Promise<void> | undefined;
  #isConnecting = false;

  constructor(client: ClientConnectionOptions) {
    this.#client = client;
  }

  /** The latest session, open or closed; undefined before the first `connect`. */
  get session(): Session | undefined {
    return this.#session;
  }

  /** What the server told about itself, once connected (from `server/discover` in the stateless era). */
  get initialized(): InitializeResult | undefined {
    return this.#initialized;
  }

  /** The stateless-era request state; undefined in the handshake era. */
  get link(): StatelessLink | undefined {
    return this.#link;
  }

  /** Opens a connection and settles the era; see Client.connect for the rejections. */
  async connect(target: Transport | Channel, options: { signal?: AbortSignal }): Promise<void> {
    if (this.#isConnecting || (this.#session && this.#session.state !== 'closed')) {
      throw new ProtocolStateError(
        'connect: the client is already connected or connecting; close() it first',
      );
    }
    this.#isConnecting = true;
    try {
      options.signal?.throwIfAborted();
      await this.#start(target, options.signal);
    } finally {
      this.#isConnecting = false;
    }
  }

  /** Closes the session: pending requests reject with ConnectionClosedError. Idempotent. */
  async close(): Promise<void> {
    await this.#session?.close();
  }

  /**
   * Sends one request through the middleware chain. The one place that knows how a request
   * travels: the stateless era's envelope and input rounds, or the handshake era's session.
   */
  request(method: string, params: object | undefined, options: RequestOptions = {}): Promise<JsonObject> {
    const session = this.#session;
    if (!session) return Promise.reject(new NotConnectedError(method));
    const timeoutMs = options.timeoutMs ?? this.#client.options.requestTimeoutMs;
    const effective: RequestOptions = timeoutMs === undefined ? options : { ...options, timeoutMs };
    const request = { direction: 'outbound' as const, method, params: params as JsonObject | undefined };
    const link = this.#link;
    const handler = link
      ? (outbound: JsonObject | undefined) => sendStateless(link, method, outbound, effective)
      : (outbound: JsonObject | undefined) => this.#sendHandshake(session, method, outbound, effective);
    return runClientMiddleware(request, { chain: this.#client.middleware, handler });
  }

  async #start(target: Transport | Channel, signal: AbortSignal | undefined): Promise<void> {
    this.#initialized = undefined;
    this.#link = undefined;
    this.#client.handleConnecting();
    let established: Established;
    try {
      established = await establish(target, this.#establishOptions(signal));
    } catch (error) {
      await this.#session?.close().catch(() => {});
      throw error;
    }
    if (established.era === 'handshake') {
      this.#initialized = established.initialized;
      return;
    }
    const { session, discover, version } = established;
    session.ownCapabilities = this.#client.capabilities(version) as JsonObject;
    session.peerCapabilities = (discover.capabilities as JsonObject | undefined) ?? {};
    this.#link = this.#statelessLink(session, version);
    this.#initialized = toInitializeResult(discover, {
      version,
      capabilities: session.peerCapabilities as ServerCapabilities,
    });
  }

  /** The era settings from the client's options, and the callbacks that open and probe sessions. */
  #establishOptions(signal: AbortSignal | undefined): EstablishOptions {
    const { options } = this.#client;
    const pinned = options.protocolVersion;
    const era =
      pinned === undefined ? (options.era ?? 'auto') : isStatelessVersion(pinned) ? 'stateless' : 'handshake';
    const statelessVersion =
      pinned !== undefined && isStatelessVersion(pinned) ? pinned : STATELESS_VERSIONS[0];
    const cache = options.eraCache === false ? undefined : (options.eraCache ?? defaultEraCache);
    return {
      era,
      statelessVersion,
      cache,
      // Era "stateless" sends discover as its first request, not as a probe: silence there is no
      // verdict, so by default it waits as long as initialize would (the server's start included).
      probeTimeoutMs:
        options.probeTimeoutMs ?? (era === 'stateless' ? this.#connectTimeoutMs() : DEFAULT_PROBE_TIMEOUT_MS),
      ...(signal ? { signal } : {}),
      open: (channel) => this.#open(channel),
      lateAnswerMs: this.#connectTimeoutMs(),
      discover: (session, { version, timeoutMs, signal: probeSignal }) => {
        session.ownCapabilities = this.#client.capabilities(version) as JsonObject;
        const link = this.#statelessLink(session, version);
        const requestSignal = probeSignal ?? signal;
        return session.request('server/discover', withEnvelope(link, undefined), {
          timeoutMs,
          ...(requestSignal ? { signal: requestSignal } : {}),
        });
      },
      initialize: (session) => this.#negotiate(session, signal),
    };
  }

  #open(channel: Channel): Session {
    const client = this.#client;
    const session: Session = new Session({
      role: 'client',
      channel,
      methods: client.methods,
      handleRequest: (request) => client.handleRequest(session, request),
      handleNotification: (method, params) => client.handleNotification(method, params),
      handleClose: (error) => {
        if (this.#session === session) client.handleClose(error);
      },
      onError: (error) => client.report(error),
    });
    this.#session = session;
    session.start();
    return session;
  }

  /** How long the connection's first request in its era waits: initialize, or discover in era "stateless". */
  #connectTimeoutMs(): number {
    const { options } = this.#client;
    return options.initializeTimeoutMs ?? options.requestTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  }

  #negotiate(session: Session, signal: AbortSignal | undefined): Promise<InitializeResult> {
    const { options } = this.#client;
    const pinned = options.protocolVersion;
    const requested = pinned ?? HANDSHAKE_VERSIONS[0];
    const timeoutMs = this.#connectTimeoutMs();
    const requestOptions = signal ? { signal, timeoutMs } : { timeoutMs };
    return negotiate(session, {
      clientInfo: this.#client.info,
      capabilities: this.#client.capabilities(requested),
      protocolVersion: requested,
      supportedVersions: pinned === undefined ? HANDSHAKE_VERSIONS : [requested],
      sendInitialize: (params) =>
        this.request('initialize', params, requestOptions).catch((error: unknown) => {
          throw toConnectError('initialize', error, timeoutMs);
        }),
    });
  }

  #statelessLink(session: Session, version: string): StatelessLink {
    return {
      version,
      capabilities: this.#client.capabilities(version),
      clientInfo: this.#client.info,
      maxRounds: this.#client.options.maxInputRounds ?? 10,
      ...acceptedResultTypes(this.#client.options),
      send: (method, params, options) => session.request(method, params, options),
      answer: (method, params, signal) => this.#answerInput(session, method, params, signal),
    };
  }

  /** Answers one embedded input request (S26-MRTR) through the same handlers as server requests. */
  #answerInput(
    session: Session,
    method: string,
    params: JsonObject,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const request = {
      id: `input:${method}`,
      method,
      params,
      signal: signal ?? new AbortController().signal,
      get isCancelled() {
        return this.signal.aborted;
      },
    };
    return this.#client.handleRequest(session, request);
  }

  /**
   * A handshake-era request. When an HTTP server has forgotten the session (404, HTTP-31), the
   * client initializes again on the same channel (once for all requests that failed together) and
   * re-sends the request once: the server never processed it.
   */
  async #sendHandshake(
    session: Session,
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions,
  ): Promise<JsonObject> {
    try {
      return await session.request(method, params, options);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SESSION_EXPIRED' || method === 'initialize') throw error;
      this.#reinitializing ??= this.#reinitialize(session).finally(() => (this.#reinitializing = undefined));
      await this.#reinitializing;
      return session.request(method, params, options);
    }
  }

  async #reinitialize(session: Session): Promise<void> {
    session.protocolVersion = undefined;
    session.setState('new');
    this.#initialized = await this.#negotiate(session, undefined);
  }
}

/** The result types the client's extensions accept beyond complete and input_required, per method. */
function acceptedResultTypes(options: ClientOptions): { resultTypes?: Record<string, string[]> } {
  const resultTypes: Record<string, string[]> = {};
  for (const extension of options.extensions ?? []) {
    for (const [method, types] of Object.entries(extension.client?.resultTypes ?? {}))
      (resultTypes[method] ??= []).push(...types);
  }
  return Object.keys(resultTypes).length === 0 ? {} : { resultTypes };
}

/** A stateless-era server's discover result in the shape of an initialize result. */
function toInitializeResult(
  discover: JsonObject,
  negotiated: { version: string; capabilities: ServerCapabilities },
): InitializeResult {
  const meta = (discover._meta as JsonObject | undefined) ?? {};
  // S26-DISC-2: identity is in _meta; older drafts put it in the body, so read both.
  const serverInfo = (meta['io.modelcontextprotocol/serverInfo'] ??
    discover.serverInfo ?? { name: 'unknown', version: '0' }) as Implementation;
  return {
    protocolVersion: negotiated.version,
    capabilities: negotiated.capabilities,
    serverInfo,
    ...(typeof discover.instructions === 'string' ? { instructions: discover.instructions } : {}),
  };
}
