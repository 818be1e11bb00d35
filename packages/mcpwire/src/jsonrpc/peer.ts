// One end of a JSON-RPC connection: allocates ids, keeps the pending map, dispatches inbound calls.

import type { DiscardedMessage, Frame } from './codec.ts';
import { ConnectionClosedError, MessageTooLargeError } from './errors.ts';
import type {
  JsonObject,
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Message,
  RequestId,
  SendOptions,
} from './message.ts';
import { ErrorCode, failureResponse, RpcError } from './rpc-error.ts';

/** The upper layer's inbound side. Handlers may throw RpcError for a protocol error. */
export interface PeerHandler {
  /** Answers one request; `cancellation` fires when the peer cancels it (the response is then dropped). */
  handleRequest(request: JsonRpcRequest, cancellation: Cancellation): Promise<JsonObject> | JsonObject;
  /** Receives one notification. Throwing is reported to `onError`, never to the peer. */
  handleNotification(notification: JsonRpcNotification): void;
  /** Called once when the connection ends; pending requests have already been rejected. */
  handleClose?(error?: Error): void;
}

/** How a Peer is wired: where messages go, who handles inbound ones, and its policies. */
export interface PeerOptions {
  /** Writes one message (or a batch) to the connection. */
  send(message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  handler: PeerHandler;
  /** Whether an inbound batch may be served (only protocol revision 2025-03-26 allows them). */
  canBatch?: () => boolean;
  /** Whether to answer an undecodable frame with its error response (servers do; clients only report it). */
  shouldAnswerInvalid?: boolean;
  /** Local diagnostics: handler crashes, undecodable input, stray responses. Never sent on the wire. */
  onError?: (error: Error) => void;
  /** Told of every frame the channel delivers, before it is handled (a wire observer's hook). */
  onFrame?(frame: Frame): void;
}

interface Pending {
  method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/**
 * A JSON-RPC 2.0 peer over any message channel. Outbound ids are increasing integers, never reused.
 * One bad message or one throwing handler never stops it. It is itself the channel's receiver.
 */
export class Peer {
  #options: PeerOptions;
  #nextId = 0;
  // Made on first use and dropped when empty: an idle connection holds neither.
  #pending: Map<RequestId, Pending> | undefined;
  #inbound: Map<RequestId, Cancellation> | undefined;
  // The request whose handler runs right now; one answered within that call never enters #inbound.
  #currentId: RequestId | undefined;
  #current: Cancellation | undefined;
  #closed: Error | undefined;
  #lastReplySent: Promise<void> | undefined; // It has a failure handler (#reply).

  constructor(options: PeerOptions) {
    this.#options = options;
  }

  /** True once the connection has ended. */
  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  /** Allocates the id the next `request` will use. */
  nextId(): RequestId {
    return ++this.#nextId;
  }

  /**
   * Sends a request and resolves with its result, or rejects with RpcError (an error response) or
   * ConnectionClosedError. Pass an id from `nextId()` to know it before the call (for cancellation).
   */
  request(
    method: string,
    params: JsonObject | undefined,
    id: RequestId = this.nextId(),
    options?: SendOptions,
  ): Promise<JsonObject> {
    if (this.#closed)
      return Promise.reject(new ConnectionClosedError(`Cannot send "${method}": connection closed`));
    return new Promise<JsonObject>((resolve, reject) => {
      (this.#pending ??= new Map()).set(id, { method, resolve, reject });
      const message: JsonRpcRequest =
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      this.#options.send(message, options).catch((error: unknown) => {
        if (this.#dropPending(id)) reject(asError(error));
      });
    });
  }

  /** Sends a notification; resolves once the transport accepted it. */
  notify(method: string, params?: JsonObject, options?: SendOptions): Promise<void> {
    if (this.#closed)
      return Promise.reject(new ConnectionClosedError(`Cannot send "${method}": connection closed`));
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.#options.send(message, options);
  }

  /** Stops waiting for an outbound request: it rejects with `error`, and a late response is dropped. */
  abandon(id: RequestId, error: Error): boolean {
    const pending = this.#pending?.get(id);
    if (!pending) return false;
    this.#dropPending(id);
    pending.reject(error);
    return true;
  }

  /** Cancels an inbound request being handled: its signal fires and no response will be sent. */
  abortInbound(id: RequestId, reason?: unknown): boolean {
    if (this.#current !== undefined && this.#currentId === id && !this.#current.aborted) {
      this.#current.abort(reason);
      return true;
    }
    const controller = this.#inbound?.get(id);
    if (!controller) return false;
    this.#dropInbound(id);
    controller.abort(reason);
    return true;
  }

  /** The method of a pending outbound request, if it is still pending. */
  pendingMethod(id: RequestId): string | undefined {
    return this.#pending?.get(id)?.method;
  }

  /** Channel receiver: one decoded frame. */
  handleFrame(frame: Frame): void {
    this.#options.onFrame?.(frame);
    switch (frame.type) {
      case 'message':
        // No reply callback: the response goes to #reply (no closure per frame).
        this.#handleMessage(frame.message);
        return;
      case 'invalid':
        this.#report(new RpcError(frame.response.error.code, frame.response.error.message));
        if (frame.discarded !== undefined) this.#failDiscarded(frame.discarded);
        // A discarded response gets no answer (a response is never answered).
        if (this.#options.shouldAnswerInvalid !== false && frame.discarded?.kind !== 'response')
          this.#reply(frame.response);
        return;
      case 'batch':
        this.#handleBatch(frame.items);
        return;
    }
  }

  /** Channel receiver: the connection ended. Rejects every pending request and aborts inbound work. */
  handleClose(error?: Error): void {
    if (this.#closed) return;
    // Errors are built only when someone will see them (a closed short-lived channel is the common case).
    this.#closed = error ?? CLOSED;
    const pendingOnes = this.#pending;
    const inboundOnes = this.#inbound;
    this.#pending = undefined;
    this.#inbound = undefined;
    const hasWaiters = pendingOnes !== undefined || inboundOnes !== undefined || this.#current !== undefined;
    const closed = hasWaiters
      ? new ConnectionClosedError(error ? `Connection closed: ${error.message}` : 'Connection closed', {
          cause: error,
        })
      : CLOSED;
    for (const pending of pendingOnes?.values() ?? []) pending.reject(closed);
    for (const controller of inboundOnes?.values() ?? []) controller.abort(closed);
    this.#current?.abort(closed);
    this.#options.handler.handleClose?.(error);
  }

  /**
   * A message over the size limit was discarded. Unless its head showed a request, it may be the
   * response to one of ours: that request fails now (its id was read), or, with no id, every
   * pending one does, rather than each waiting for its timeout.
   */
  #failDiscarded(discarded: DiscardedMessage): void {
    if (discarded.kind === 'request' || this.#pending === undefined) return;
    const { id } = discarded;
    const ids = id === undefined ? [...this.#pending.keys()] : this.#pending.has(id) ? [id] : [];
    for (const each of ids) {
      const pending = this.#pending?.get(each);
      if (pending === undefined) continue;
      this.#dropPending(each);
      const { bytes, limit } = discarded;
      pending.reject(new MessageTooLargeError(pending.method, { bytes, limit, isIdRead: id !== undefined }));
    }
  }

  /** `reply` takes the response to a request; without it, the response goes to `#reply`. */
  #handleMessage(message: Message, reply?: (response: JsonRpcResponse) => void): void {
    if ('method' in message) {
      if ('id' in message) this.#handleRequest(message, reply);
      else this.#handleNotification(message);
      return;
    }
    this.#handleResponse(message);
  }

  #handleRequest(request: JsonRpcRequest, reply: ((response: JsonRpcResponse) => void) | undefined): void {
    const { id } = request;
    if (this.#inbound?.has(id) || (this.#current !== undefined && this.#currentId === id)) {
      const error = new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in progress`,
      );
      this.#answer(errorResponse(id, error), reply);
      return;
    }
    const controller = new Cancellation();
    // While the handler runs synchronously, the request is #current (a nested request, on a channel
    // that delivers synchronously, keeps the outer one to put back).
    const outerId = this.#currentId;
    const outer = this.#current;
    this.#currentId = id;
    this.#current = controller;
    let outcome: Promise<JsonObject> | JsonObject;
    try {
      outcome = this.#options.handler.handleRequest(request, controller);
    } catch (error) {
      this.#currentId = outerId;
      this.#current = outer;
      // Cancelled (or the connection closed) while it ran: no response (CANCEL-5).
      if (!controller.aborted) this.#answer(this.#toErrorResponse(id, request.method, error), reply);
      return;
    }
    this.#currentId = outerId;
    this.#current = outer;
    if (!(outcome instanceof Promise)) {
      if (!controller.aborted) this.#answer({ jsonrpc: '2.0', id, result: outcome }, reply);
      return;
    }
    if (controller.aborted) {
      // Cancelled while the handler ran: no response, and a failure is the cancellation's.
      outcome.catch(() => {});
      return;
    }
    (this.#inbound ??= new Map()).set(id, controller);
    const finish = (response: JsonRpcResponse): void => {
      // A cancelled request gets no response (CANCEL-5): abortInbound removed it from the map.
      if (this.#inbound?.get(id) !== controller) return;
      this.#dropInbound(id);
      this.#answer(response, reply);
    };
    outcome.then(
      (result) => finish({ jsonrpc: '2.0', id, result }),
      (error: unknown) => {
        // A cancelled request's failure is the cancellation itself, not a crash worth reporting.
        if (controller.aborted) return finish({ jsonrpc: '2.0', id, error: CANCELLED });
        finish(this.#toErrorResponse(id, request.method, error));
      },
    );
  }

  #answer(response: JsonRpcResponse, reply: ((response: JsonRpcResponse) => void) | undefined): void {
    if (reply === undefined) this.#reply(response);
    else reply(response);
  }

  #handleNotification(notification: JsonRpcNotification): void {
    try {
      this.#options.handler.handleNotification(notification);
    } catch (error) {
      this.#report(asError(error));
    }
  }

  #handleResponse(response: JsonRpcResponse): void {
    const id = response.id;
    const pending = id === undefined ? undefined : this.#pending?.get(id);
    if (id === undefined || !pending) {
      // Late (after cancel or timeout) or unknown: dropped (CANCEL-6); id-less errors are only reported.
      if ('error' in response) this.#report(RpcError.fromErrorObject(response.error));
      return;
    }
    this.#dropPending(id);
    if ('error' in response) pending.reject(RpcError.fromErrorObject(response.error));
    else pending.resolve(response.result);
  }

  // The last entry drops the whole map (a delete can reallocate its table; an idle peer holds none).
  #dropPending(id: RequestId): boolean {
    const pending = this.#pending;
    if (!pending?.has(id)) return false;
    if (pending.size === 1) this.#pending = undefined;
    else pending.delete(id);
    return true;
  }

  #dropInbound(id: RequestId): void {
    const inbound = this.#inbound;
    if (!inbound?.has(id)) return;
    if (inbound.size === 1) this.#inbound = undefined;
    else inbound.delete(id);
  }

  #handleBatch(items: ReadonlyArray<Exclude<Frame, { type: 'batch' }>>): void {
    if (!(this.#options.canBatch?.() ?? false)) {
      const error = new RpcError(
        ErrorCode.InvalidRequest,
        'Invalid Request: JSON-RPC batches are not supported by the negotiated protocol revision',
      );
      this.#report(error);
      if (this.#options.shouldAnswerInvalid !== false)
        this.#reply({ jsonrpc: '2.0', error: error.toErrorObject() });
      return;
    }
    const responses: JsonRpcResponse[] = [];
    let waiting = 0;
    let dispatched = false;
    const flush = (): void => {
      if (dispatched && waiting === 0 && responses.length > 0) this.#reply(responses);
    };
    for (const item of items) {
      if (item.type === 'invalid') {
        responses.push(item.response);
        continue;
      }
      const isCall = 'method' in item.message && 'id' in item.message;
      if (isCall) waiting++;
      this.#handleMessage(item.message, (response) => {
        responses.push(response);
        waiting--;
        flush();
      });
    }
    dispatched = true;
    flush();
  }

  #toErrorResponse(id: RequestId, method: string, error: unknown): JsonRpcErrorResponse {
    return failureResponse(id, method, error, (failure) => this.#report(failure));
  }

  #reply(response: JsonRpcResponse | JsonRpcResponse[]): void {
    if (this.#closed) return;
    const options =
      !Array.isArray(response) && response.id !== undefined ? { relatedRequestId: response.id } : undefined;
    const sent = this.#options.send(response, options);
    // Stdio writes a tick's replies at once and returns one promise for them: one handler serves all.
    if (sent === this.#lastReplySent) return;
    this.#lastReplySent = sent;
    sent.catch((error: unknown) => {
      // A reply lost because the connection closed meanwhile (EPIPE) is no news: the close is reported once.
      if (!this.#closed) this.#report(asError(error));
    });
  }

  #report(error: Error): void {
    this.#options.onError?.(error);
  }
}

const CLOSED = new ConnectionClosedError();
const CANCELLED = Object.freeze({ code: ErrorCode.InternalError, message: 'Cancelled' });

function errorResponse(id: RequestId, error: RpcError): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: error.toErrorObject() };
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * The cancellation of one inbound request: `aborted` is a plain flag; the AbortSignal is made only
 * when someone asks for it (most requests finish without anyone listening, and a signal is the
 * costliest object a request would otherwise allocate).
 */
export class Cancellation {
  #controller: AbortController | undefined;
  #isAborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#isAborted;
  }

  /** Aborts when the request is cancelled; made on first use (already aborted if it has been). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#isAborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.#isAborted) return;
    this.#isAborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
