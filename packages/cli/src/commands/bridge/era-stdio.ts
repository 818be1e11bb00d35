// `mcpwire bridge <url>` when the host speaks the handshake era and the remote only 2026-07-28: the
// translation for that pair of eras (issue 25). The host's session lives here: its `initialize`
// (capabilities, client info), its log level and its resource subscriptions. Each host request goes
// out as a 2026-07-28 request through a library Client, which builds the `_meta` envelope from that
// state and runs the `input_required` rounds by asking the host (elicitation, sampling, roots) as a
// handshake-era server would. Results and errors come back unchanged, under the host's request id.

import {
  HANDSHAKE_VERSIONS,
  isKnownVersion,
  isStatelessVersion,
  RpcError,
  type Channel,
  type ClientCapabilities,
  type Implementation,
  type JsonObject,
  type JsonRpcRequest,
  type Message,
  type RequestId,
  type Transport,
} from 'mcpwire';
import { Client, type ClientHandlers, type Subscription, type SubscriptionFilter } from 'mcpwire/client';

/** The code the host's pending requests are answered with when the remote fails; as the relay's. */
const REMOTE_FAILED = -32_001;
/** A host request may wait this long for the remote (input rounds included); the host has its own timeout. */
const REQUEST_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** What the translator reports to its relay. */
export interface EraTranslatorEvents {
  /** A diagnostic for stderr (escaped by the caller). */
  note: (error: Error | string) => void;
  /** The remote failed for good: the relay ends with exit 3. */
  remoteGone: (reason: string) => void;
}

/**
 * Connects a 2026-07-28 Client to the remote. Resolves with it when the remote speaks that era;
 * rejects when it does not (the relay then keeps the remote's own answer to `initialize`).
 */
export async function connectStatelessRemote(
  transport: Transport,
  initialize: JsonRpcRequest,
  events: EraTranslatorEvents,
): Promise<{ client: Client; hostQueue: HostRequester }> {
  const params = (initialize.params ?? {}) as JsonObject;
  const hostInfo = (params.clientInfo ?? { name: 'mcpwire-bridge-host', version: '0' }) as Implementation;
  const hostCapabilities = (params.capabilities ?? {}) as ClientCapabilities;
  const hostQueue = new HostRequester();
  const client = new Client(hostInfo, {
    era: 'stateless',
    eraCache: false,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    capabilities: statelessCapabilities(hostCapabilities),
    handlers: handlersFor(hostCapabilities, hostQueue),
    onError: events.note,
  });
  await client.connect(transport);
  return { client, hostQueue };
}

/** The host's capabilities as the 2026-07-28 envelope declares them: `roots.listChanged` is gone there. */
function statelessCapabilities(host: ClientCapabilities): ClientCapabilities {
  const declared: ClientCapabilities = { ...host };
  if (typeof host.roots === 'object' && host.roots !== null) {
    const { listChanged: _listChanged, ...roots } = host.roots as JsonObject;
    declared.roots = roots;
  }
  return declared;
}

/** The Client's handlers: one per capability the host declared, each asking the host. */
function handlersFor(host: ClientCapabilities, queue: HostRequester): ClientHandlers {
  const handlers: ClientHandlers = {};
  if (host.elicitation !== undefined)
    handlers.elicitation = (params, ctx) => queue.request('elicitation/create', params, ctx.signal) as never;
  if (host.sampling !== undefined)
    handlers.sampling = (params, ctx) => queue.request('sampling/createMessage', params, ctx.signal) as never;
  if (host.roots !== undefined)
    handlers.roots = async (ctx) => {
      const result = await queue.request('roots/list', {}, ctx.signal);
      return Array.isArray(result.roots) ? (result.roots as never) : [];
    };
  return handlers;
}

/** Requests this bridge sends the host (its own ids), and the host's answers to them. */
export class HostRequester {
  #host: Channel | undefined;
  #next = 0;
  readonly #pending = new Map<RequestId, { resolve(result: JsonObject): void; reject(error: Error): void }>();

  attach(host: Channel): void {
    this.#host = host;
  }

  /** Sends `method` to the host; resolves with its result, rejects with its error (code and data kept). */
  request(method: string, params: object, signal: AbortSignal): Promise<JsonObject> {
    const host = this.#host;
    if (host === undefined) return Promise.reject(new RpcError(-32_603, 'the host is not connected'));
    const id = `mcpwire-bridge-${++this.#next}`;
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = () => {
        this.#pending.delete(id);
        const cancelled = { requestId: id, reason: 'the remote server no longer needs the answer' };
        void host
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancelled })
          .catch(() => {});
        reject(new RpcError(-32_800, 'cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = { resolve, reject };
      this.#pending.set(id, {
        resolve: (result) => (signal.removeEventListener('abort', onAbort), settle.resolve(result)),
        reject: (error) => (signal.removeEventListener('abort', onAbort), settle.reject(error)),
      });
      host.send({ jsonrpc: '2.0', id, method, params: params as JsonObject }).catch((error: unknown) => {
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** Takes the host's response if it answers one of ours; false when it is not ours. */
  settle(message: Message): boolean {
    if ('method' in message || !('id' in message) || message.id === null) return false;
    const waiting = this.#pending.get(message.id);
    if (waiting === undefined) return false;
    this.#pending.delete(message.id);
    if ('error' in message)
      waiting.reject(new RpcError(message.error.code, message.error.message, message.error.data));
    else waiting.resolve(message.result);
    return true;
  }

  /** Fails every request still waiting for the host (it went away). */
  failAll(reason: string): void {
    for (const waiting of this.#pending.values()) waiting.reject(new RpcError(-32_603, reason));
    this.#pending.clear();
  }
}

/**
 * The host's handshake-era session, served over `host` by forwarding to the 2026-07-28 `client`.
 * `receiver()` is what the host channel delivers to once the relay has switched to translation.
 */
export class HandshakeToStatelessTranslator {
  readonly #host: Channel;
  readonly #client: Client;
  readonly #queue: HostRequester;
  readonly #events: EraTranslatorEvents;
  /** The host's requests in flight: their abort controllers, by the host's id. */
  readonly #inFlight = new Map<RequestId, AbortController>();
  readonly #subscribed = new Set<string>();
  #listen: Subscription | undefined;
  #isClosed = false;

  constructor(host: Channel, client: Client, queue: HostRequester, events: EraTranslatorEvents) {
    this.#host = host;
    this.#client = client;
    this.#queue = queue;
    this.#events = events;
    queue.attach(host);
    // Every server notification (list changes, resource updates, log messages) goes to the host
    // as it is; progress a request claims is mapped in #forward.
    client.on('notification', ({ method, params }) => {
      if (isForHost(method)) this.#send({ jsonrpc: '2.0', method, params });
    });
    client.on('close', ({ error }) => {
      if (!this.#isClosed) events.remoteGone(error?.message ?? 'the remote server closed the connection');
    });
  }

  /** The answer to the host's `initialize`, from the remote's `server/discover`. */
  answerInitialize(request: JsonRpcRequest): void {
    const params = (request.params ?? {}) as JsonObject;
    const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
    const protocolVersion =
      isKnownVersion(asked) && !isStatelessVersion(asked) ? asked : HANDSHAKE_VERSIONS[0];
    const result: JsonObject = {
      protocolVersion,
      capabilities: (this.#client.serverCapabilities ?? {}) as JsonObject,
      serverInfo: (this.#client.serverInfo ?? {
        name: 'mcpwire-bridge',
        version: '0',
      }) as unknown as JsonObject,
      ...(this.#client.instructions === undefined ? {} : { instructions: this.#client.instructions }),
    };
    this.#send({ jsonrpc: '2.0', id: request.id, result });
    this.#openListen();
  }

  /** Each message from the host, once the relay has switched to translation. */
  handle(message: Message): void {
    if (this.#queue.settle(message)) return;
    if (!('method' in message)) return;
    if (!('id' in message)) return this.#notification(message.method, (message.params ?? {}) as JsonObject);
    void this.#request(message as JsonRpcRequest);
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#queue.failAll('the bridge is closing');
    for (const controller of this.#inFlight.values()) controller.abort();
    this.#listen?.close();
    await this.#client.close().catch(this.#events.note);
  }

  /** Answers every host request still in flight with an error naming the reason. */
  failPending(reason: string): void {
    for (const id of this.#inFlight.keys())
      this.#send({ jsonrpc: '2.0', id, error: { code: REMOTE_FAILED, message: reason } });
    this.#inFlight.clear();
  }

  #notification(method: string, params: JsonObject): void {
    // notifications/initialized and roots/list_changed need nothing here: 2026-07-28 asks for roots per request.
    if (method !== 'notifications/cancelled' || params.requestId === undefined) return;
    // Forgotten before the abort: a cancelled request gets no response (CANCEL rules of the spec).
    const controller = this.#inFlight.get(params.requestId as RequestId);
    this.#inFlight.delete(params.requestId as RequestId);
    controller?.abort();
  }

  async #request(request: JsonRpcRequest): Promise<void> {
    const params = (request.params ?? {}) as JsonObject;
    const controller = new AbortController();
    this.#inFlight.set(request.id, controller);
    let answer: Message;
    try {
      const result = await this.#served(request, params, controller.signal);
      answer = { jsonrpc: '2.0', id: request.id, result };
    } catch (error) {
      answer = { jsonrpc: '2.0', id: request.id, error: toErrorObject(error) };
    }
    // No longer in flight: the host cancelled it, or it was already answered with the remote's failure.
    if (this.#inFlight.get(request.id) !== controller) return;
    this.#inFlight.delete(request.id);
    this.#send(answer);
  }

  /** One host request: the methods of the host's session answered here, the rest sent on. */
  async #served(request: JsonRpcRequest, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    switch (request.method) {
      case 'initialize':
        throw new RpcError(-32_600, 'initialize was already answered on this connection');
      case 'ping':
        return {};
      case 'logging/setLevel':
        return (await this.#client.setLoggingLevel(params as never)) as JsonObject;
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return this.#subscription(request.method === 'resources/subscribe', params);
      default:
        return this.#forward(request, params, signal);
    }
  }

  async #forward(request: JsonRpcRequest, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
    const meta = (params._meta ?? {}) as JsonObject;
    const { progressToken, ...otherMeta } = meta;
    const sent: JsonObject = { ...params };
    if (Object.keys(otherMeta).length > 0) sent._meta = otherMeta;
    else delete sent._meta;
    return this.#client.request(request.method as never, sent as never, {
      signal,
      timeoutMs: REQUEST_TIMEOUT_MS,
      ...(progressToken === undefined
        ? {}
        : {
            onProgress: (progress) =>
              this.#send({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken, ...progress } as JsonObject,
              }),
          }),
    }) as Promise<JsonObject>;
  }

  /** `resources/(un)subscribe`: kept here, and the listen stream reopened with the new set. */
  #subscription(isSubscribe: boolean, params: JsonObject): JsonObject {
    const uri = params.uri;
    if (typeof uri !== 'string') throw new RpcError(-32_602, 'params.uri must be a string');
    if (isSubscribe) this.#subscribed.add(uri);
    else this.#subscribed.delete(uri);
    this.#openListen();
    return {};
  }

  /** (Re)opens `subscriptions/listen` for what the remote can announce and the host subscribed to. */
  #openListen(): void {
    const capabilities = (this.#client.serverCapabilities ?? {}) as Record<string, { listChanged?: boolean }>;
    const filter: SubscriptionFilter = {};
    if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
    if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
    if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
    if (this.#subscribed.size > 0) filter.resourceSubscriptions = [...this.#subscribed];
    const previous = this.#listen;
    this.#listen = Object.keys(filter).length === 0 ? undefined : this.#client.listen(filter);
    previous?.close();
  }

  #send(message: Message): void {
    if (this.#isClosed) return;
    this.#host.send(message).catch(this.#events.note);
  }
}

/**
 * Whether a remote notification has a meaning for the handshake-era host: not the listen stream's own
 * (`notifications/subscriptions/*`, 2026-07-28 only), nor progress no request claimed (its token
 * is the bridge's, unknown to the host).
 */
function isForHost(method: string): boolean {
  return !method.startsWith('notifications/subscriptions/') && method !== 'notifications/progress';
}

/** An error as JSON-RPC gives it to the host: an RpcError's code, message and data kept. */
function toErrorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError)
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  const message = error instanceof Error ? error.message : String(error);
  return { code: REMOTE_FAILED, message: `the remote server failed: ${message}` };
}
