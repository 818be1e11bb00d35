// The client's end of a Streamable HTTP connection (2025-11-25 section 2.8, 2026-07-28 section 2.7):
// each message its own POST, answers as JSON or SSE, the handshake-era session and GET stream, the
// stateless-era request headers, and the fall back to the 2024-11-05 HTTP+SSE transport (COMPAT-2).

import { decodeFrame, encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import {
  isNotification,
  isRequest,
  type JsonRpcErrorResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Message,
  type RequestId,
} from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { Inbox } from '../inbox.ts';
import { HttpClientSession } from './client-session.ts';
import { HttpError, ResponseStreamLostError, SessionExpiredError } from './http-errors.ts';
import {
  discardBody,
  mediaTypeOf,
  readErrorBody,
  type ErrorBody,
  type FetchCall,
  type Fetcher,
} from './http-fetcher.ts';
import { claimOf, isBatch, isModernErrorBody } from './http-messages.ts';
import { LegacySseConnection } from './legacy-sse-client.ts';
import { McpHeader, setModernHeaders } from './mcp-headers.ts';
import { PendingRequests, type PendingRequest, type SingleFrame } from './pending-requests.ts';
import { followStream, type ReconnectionOptions, type StreamPlan } from './response-stream.ts';
import { ToolHeaderRegistry } from './tool-header-annotations.ts';

/** What a channel needs from its transport. */
export interface StreamableHttpChannelOptions {
  url: URL;
  fetcher: Fetcher;
  reconnection: ReconnectionOptions;
  /** Out-of-band problems: a dropped tool, a GET stream given up. Must not throw. */
  onError(error: Error): void;
}

/** How long `close` waits for the session's DELETE, in ms. */
const DELETE_TIMEOUT_MS = 2000;

/** One POST and what its answer is expected to carry. */
interface Exchange {
  body: Message | readonly Message[];
  headers: Headers;
  rpcMethod?: string;
  /** Requests whose responses this POST's answer carries. */
  ids: RequestId[];
  isModern: boolean;
  controller: AbortController;
  /** The first handshake `initialize`: a 400/404/405 without a modern error means HTTP+SSE (COMPAT-2). */
  mayFallBack: boolean;
}

/**
 * A channel to one Streamable HTTP endpoint, in whichever era each message speaks: a request whose
 * `params._meta` names a protocol version is stateless-era (2026-07-28), anything else handshake-era.
 * For a request `send` resolves once the POST's answer is read (its response delivered) and rejects
 * with HttpError, SessionExpiredError, ResponseStreamLostError or FetchFailedError; a non-2xx whose
 * body is a JSON-RPC error for the request is delivered as that error instead. Frames are delivered
 * in arrival order; responses already delivered are not delivered again. `close` aborts every
 * stream, DELETEs a handshake-era session, and is idempotent.
 */
export class StreamableHttpClientChannel implements Channel {
  readonly #options: StreamableHttpChannelOptions;
  readonly #inbox = new Inbox();
  readonly #pending = new PendingRequests();
  readonly #session = new HttpClientSession();
  readonly #tools: ToolHeaderRegistry;
  /** Controllers of every POST in flight. */
  readonly #live = new Set<AbortController>();
  /** The protocol version of the latest stateless-era request; undefined in the handshake era. */
  #modernVersion: string | undefined;
  #hasSentInitialize = false;
  #getStream: AbortController | undefined;
  #legacy: LegacySseConnection | undefined;
  #legacyReady: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: StreamableHttpChannelOptions) {
    this.#options = options;
    this.#tools = new ToolHeaderRegistry((error) => options.onError(error));
  }

  /** `http` with the session id once assigned; `sse` after falling back to HTTP+SSE. */
  get info(): ChannelInfo {
    const kind = this.#legacy === undefined ? 'http' : 'sse';
    const sessionId = this.#session.id;
    return sessionId === undefined ? { kind } : { kind, sessionId };
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  async send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) throw new ConnectionClosedError('The HTTP channel is closed');
    if (this.#legacy !== undefined) {
      await this.#legacyReady;
      this.#pending.addAll(message);
      return this.#legacy.send(message);
    }
    if (isBatch(message)) return this.#sendBatch(message);
    if (isRequest(message)) return this.#sendRequest(message);
    if (isNotification(message)) return this.#sendNotification(message);
    return this.#post(this.#exchange(message, this.#session.headers(), []));
  }

  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    // Set before anything runs: the receiver's handleClose may call close() again.
    let done!: () => void;
    this.#closing = new Promise((resolve) => (done = resolve));
    const deletion = this.#legacy === undefined ? this.#session.id : undefined;
    const headers = this.#session.headers();
    this.#finish();
    void (deletion === undefined ? Promise.resolve() : this.#deleteSession(headers)).finally(done);
    return this.#closing;
  }

  async #sendRequest(request: JsonRpcRequest): Promise<void> {
    const claim = claimOf(request);
    let headers: Headers;
    let mayFallBack = false;
    if (claim !== undefined) {
      this.#modernVersion = claim;
      headers = new Headers();
      const args = request.params?.arguments;
      const params =
        request.method === 'tools/call' ? this.#tools.paramHeaders(String(request.params?.name), args) : [];
      setModernHeaders(headers, request, { version: claim, params });
    } else {
      if (request.method === 'initialize') mayFallBack = this.#beginSession();
      headers = this.#session.headers();
    }
    const exchange = { ...this.#exchange(request, headers, [request.id], claim !== undefined), mayFallBack };
    this.#pending.add(request.id, {
      method: request.method,
      isModern: exchange.isModern,
      controller: exchange.controller,
    });
    try {
      await this.#post(exchange);
    } catch (error) {
      this.#pending.delete(request.id);
      throw error;
    }
  }

  async #sendNotification(notification: JsonRpcNotification): Promise<void> {
    const pending = this.#cancelledRequest(notification);
    // S26-HTTP-10: closing the request's stream is the stateless era's cancellation; nothing is posted.
    if (pending?.isModern) return this.#pending.forget(pending);
    const version = this.#modernVersion;
    const headers = version === undefined ? this.#session.headers() : new Headers();
    if (version !== undefined) setModernHeaders(headers, notification, { version });
    await this.#post(this.#exchange(notification, headers, [], version !== undefined));
    // The server will not answer a cancelled request: stop reading its stream.
    if (pending !== undefined) this.#pending.forget(pending);
    if (version === undefined && notification.method === 'notifications/initialized') this.#openGetStream();
  }

  async #sendBatch(batch: readonly Message[]): Promise<void> {
    const ids = this.#pending.addAll(batch);
    try {
      await this.#post(this.#exchange(batch, this.#session.headers(), ids));
    } catch (error) {
      for (const id of ids) this.#pending.delete(id);
      throw error;
    }
  }

  #exchange(body: Exchange['body'], headers: Headers, ids: RequestId[], isModern = false): Exchange {
    const controller = new AbortController();
    const rpcMethod = isBatch(body) ? undefined : 'method' in body ? body.method : undefined;
    const exchange: Exchange = { body, headers, ids, isModern, controller, mayFallBack: false };
    if (rpcMethod !== undefined) exchange.rpcMethod = rpcMethod;
    return exchange;
  }

  /** Starts a handshake-era session; true for the channel's first initialize. */
  #beginSession(): boolean {
    this.#modernVersion = undefined;
    this.#endSession();
    const isFirst = !this.#hasSentInitialize;
    this.#hasSentInitialize = true;
    return isFirst;
  }

  #endSession(): void {
    this.#session.reset();
    this.#getStream?.abort();
    this.#getStream = undefined;
  }

  async #post(exchange: Exchange): Promise<void> {
    const { controller } = exchange;
    const headers = new Headers(exchange.headers);
    headers.set('Accept', 'application/json, text/event-stream');
    headers.set('Content-Type', 'application/json');
    const call: FetchCall = {
      method: 'POST',
      url: this.#options.url,
      headers,
      body: encodeMessage(exchange.body),
      signal: controller.signal,
      ...(exchange.rpcMethod === undefined ? {} : { rpcMethod: exchange.rpcMethod }),
    };
    this.#live.add(controller);
    try {
      const response = await this.#options.fetcher.send(call);
      if (response.ok) await this.#handleAccepted(response, exchange);
      else await this.#handleRefused(response, exchange, call);
    } catch (error) {
      // Aborted on purpose: a cancellation (nothing to report) or close (below).
      if (!controller.signal.aborted) throw error;
    } finally {
      this.#live.delete(controller);
    }
    if (controller.signal.aborted && this.#inbox.isClosed)
      throw new ConnectionClosedError(
        `The HTTP channel closed before "${call.rpcMethod ?? 'a batch'}" was answered`,
      );
  }

  async #handleAccepted(response: Response, exchange: Exchange): Promise<void> {
    if (exchange.rpcMethod === 'initialize' && !exchange.isModern) this.#session.learn(response);
    const type = mediaTypeOf(response);
    if (type === 'text/event-stream') {
      const following = followStream(response, this.#plan(exchange));
      // Nothing is owed to a notification: its send resolves now, the stream is read on the side.
      if (exchange.ids.length > 0) return following;
      following.catch((error: Error) => this.#options.onError(error));
      return;
    }
    if (type === 'application/json') {
      const text = await response.text();
      if (text.trim() !== '') this.#receive(decodeFrame(text));
    } else {
      discardBody(response);
    }
    // 202 to a request: the response may still come on the GET stream.
    if (response.status !== 202 && this.#pending.isOwed(exchange.ids))
      throw new ResponseStreamLostError(
        exchange.rpcMethod ?? 'a batch',
        `the server answered ${response.status} ${type || 'with no body'} without the response`,
      );
  }

  async #handleRefused(response: Response, exchange: Exchange, call: FetchCall): Promise<void> {
    const sentSession = exchange.headers.get(McpHeader.sessionId);
    if (response.status === 404 && sentSession !== null) {
      discardBody(response);
      if (this.#session.id === sentSession) this.#endSession();
      throw new SessionExpiredError(sentSession, exchange.rpcMethod);
    }
    const body = await readErrorBody(response);
    if (
      exchange.mayFallBack &&
      [400, 404, 405].includes(response.status) &&
      !isModernErrorBody(response.status, body.response?.error)
    )
      return this.#fallBack(response, exchange, { call, body });
    if (this.#deliverErrorBody(response.status, body, exchange.ids)) return;
    throw await this.#options.fetcher.toHttpError(response, call, body);
  }

  /** Delivers a 4xx body that is a JSON-RPC error for one of `ids` (not 401/403: authorization). */
  #deliverErrorBody(status: number, body: ErrorBody, ids: RequestId[]): boolean {
    const error: JsonRpcErrorResponse | undefined = body.response;
    if (status < 400 || status > 499 || status === 401 || status === 403) return false;
    if (error?.id === undefined || !ids.includes(error.id)) return false;
    this.#receive({ type: 'message', message: error });
    return true;
  }

  /** COMPAT-2: switch to HTTP+SSE, then re-send the initialize there. */
  async #fallBack(
    response: Response,
    exchange: Exchange,
    failed: { call: FetchCall; body: ErrorBody },
  ): Promise<void> {
    const legacy = new LegacySseConnection({
      fetcher: this.#options.fetcher,
      url: this.#options.url,
      deliver: (frame) => this.#receive(frame),
      handleEnd: (error) => this.#finish(error),
    });
    this.#legacy = legacy;
    this.#legacyReady = legacy.start();
    try {
      await this.#legacyReady;
    } catch (cause) {
      this.#legacy = undefined;
      legacy.close();
      if (this.#deliverErrorBody(response.status, failed.body, exchange.ids)) return;
      throw await this.#options.fetcher.toHttpError(response, failed.call, failed.body, cause);
    }
    await legacy.send(exchange.body);
  }

  #plan(exchange: Exchange): StreamPlan {
    return {
      name: exchange.rpcMethod ?? 'a batch',
      canResume: !exchange.isModern,
      isStandalone: false,
      signal: exchange.controller.signal,
      reconnection: this.#options.reconnection,
      deliver: (data) => this.#receive(decodeFrame(data)),
      isOwed: () => this.#pending.isOwed(exchange.ids),
      resume: (lastEventId, signal) => this.#resume(lastEventId, signal),
    };
  }

  /** GET with `Last-Event-ID` (HTTP-23), or a fresh GET stream when `lastEventId` is empty. */
  async #resume(lastEventId: string, signal: AbortSignal): Promise<Response> {
    const headers = this.#session.headers();
    headers.set('Accept', 'text/event-stream');
    if (lastEventId !== '') headers.set(McpHeader.lastEventId, lastEventId);
    const call: FetchCall = { method: 'GET', url: this.#options.url, headers, signal };
    const response = await this.#options.fetcher.send(call);
    if (response.ok && mediaTypeOf(response) === 'text/event-stream') return response;
    const sentSession = headers.get(McpHeader.sessionId);
    if (response.status === 404 && sentSession !== null) {
      discardBody(response);
      if (this.#session.id === sentSession) this.#endSession();
      throw new SessionExpiredError(sentSession);
    }
    throw await this.#options.fetcher.toHttpError(response, call);
  }

  /** HTTP-17: the server's own stream, once initialized; a 405 means it offers none (HTTP-18). */
  #openGetStream(): void {
    if (this.#getStream !== undefined || this.#inbox.isClosed) return;
    const controller = new AbortController();
    this.#getStream = controller;
    const plan: StreamPlan = {
      name: 'the GET stream',
      canResume: true,
      isStandalone: true,
      signal: controller.signal,
      reconnection: this.#options.reconnection,
      deliver: (data) => this.#receive(decodeFrame(data)),
      isOwed: () => false,
      resume: (lastEventId, signal) => this.#resume(lastEventId, signal),
    };
    this.#resume('', controller.signal)
      .then((response) => followStream(response, plan))
      .catch((error: Error) => {
        if (controller.signal.aborted || (error instanceof HttpError && error.status === 405)) return;
        this.#options.onError(error);
      })
      .finally(() => {
        if (this.#getStream === controller) this.#getStream = undefined;
      });
  }

  /** The pending request a `notifications/cancelled` names, if any. */
  #cancelledRequest(notification: JsonRpcNotification): PendingRequest | undefined {
    if (notification.method !== 'notifications/cancelled') return undefined;
    const id = notification.params?.requestId;
    return typeof id === 'string' || typeof id === 'number' ? this.#pending.get(id) : undefined;
  }

  /** Every incoming frame passes here: responses are matched, tools/list filtered, replays dropped. */
  #receive(frame: Frame): void {
    if (frame.type === 'batch') {
      const items = frame.items.map((item) => this.#inspect(item)).filter((item) => item !== undefined);
      if (items.length > 0) this.#inbox.deliver({ type: 'batch', items });
      return;
    }
    const inspected = this.#inspect(frame);
    if (inspected !== undefined) this.#inbox.deliver(inspected);
  }

  #inspect(frame: SingleFrame): SingleFrame | undefined {
    return this.#pending.match(frame, (request, result) => {
      if (request.method === 'initialize' && !request.isModern && typeof result.protocolVersion === 'string')
        this.#session.protocolVersion = result.protocolVersion;
      return request.method === 'tools/list' ? this.#tools.filterToolsList(result) : result;
    });
  }

  /** Ends the channel: aborts every exchange and stream, then tells the receiver (once). */
  #finish(error?: Error): void {
    if (this.#inbox.isClosed) return;
    for (const controller of this.#live) controller.abort();
    this.#pending.abortAll();
    this.#getStream?.abort();
    this.#legacy?.close();
    this.#inbox.close(error);
  }

  async #deleteSession(headers: Headers): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), DELETE_TIMEOUT_MS);
    try {
      const call: FetchCall = {
        method: 'DELETE',
        url: this.#options.url,
        headers,
        signal: controller.signal,
      };
      discardBody(await this.#options.fetcher.send(call));
    } catch {
      // HTTP-32 is a courtesy: an unreachable server or a refusal leaves nothing to clean up here.
    } finally {
      clearTimeout(timer);
    }
  }
}
