// The client's end of a Streamable HTTP connection (2025-11-25 section 2.8, 2026-07-28 section 2.7): the
// era of each message and its headers, the frames received, closing, and the fall back to the 2024-11-05
// HTTP+SSE transport (COMPAT-2). POSTs are sent by ./client-post.ts, GETs by ./client-get-stream.ts.

import { decodeFrame, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import {
  isNotification,
  isRequest,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Message,
} from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { Inbox } from '../inbox.ts';
import { GetStreams } from './client-get-stream.ts';
import { createExchange, errorResponseIn, PostSender, type Exchange, type Refusal } from './client-post.ts';
import { HttpClientSession } from './client-session.ts';
import { discardBody, type FetchCall, type Fetcher, type HeaderRecord } from './http-fetcher.ts';
import { claimOf, isBatch } from './http-messages.ts';
import { LegacySseConnection } from './legacy-sse-client.ts';
import { setStatelessHeaders } from './mcp-headers.ts';
import { PendingRequests, type PendingRequest, type SingleFrame } from './pending-requests.ts';
import type { ReconnectionOptions } from './response-stream.ts';
import { ToolHeaderRegistry } from './tool-header-annotations.ts';

/** What a channel needs from its transport. */
export interface StreamableHttpChannelOptions {
  url: URL;
  /** The channel's own: closed with it. */
  fetcher: Fetcher;
  reconnection: ReconnectionOptions;
  /** Out-of-band problems: a dropped tool, a GET stream given up. Must not throw. */
  onError(error: Error): void;
}

/** How long `close` waits for the session's DELETE, in ms. */
const DELETE_TIMEOUT_MS = 2000;

/**
 * A channel to one Streamable HTTP endpoint, in whichever era each message speaks: a request whose
 * `params._meta` names a protocol version is stateless-era (2026-07-28), anything else handshake-era.
 * For a request `send` resolves once the POST's answer is read (its response delivered) and rejects
 * with HttpError, SessionExpiredError, ResponseStreamLostError, AnswerUndeliveredError or
 * FetchFailedError; an answer to a server request is re-posted after a network failure; a non-2xx whose
 * body is a JSON-RPC error for the request is delivered as that error instead. Frames are delivered
 * in arrival order; responses already delivered are not delivered again. What is sent after
 * `notifications/initialized` is posted once that POST was answered (LIFE-4). `close` aborts every
 * stream, DELETEs a handshake-era session, then closes the fetcher's connections; it is idempotent.
 */
export class StreamableHttpClientChannel implements Channel {
  readonly #options: StreamableHttpChannelOptions;
  readonly #inbox = new Inbox();
  readonly #pending = new PendingRequests();
  readonly #session = new HttpClientSession();
  readonly #tools: ToolHeaderRegistry;
  readonly #streams: GetStreams;
  readonly #posts: PostSender;
  /** The protocol version of the latest stateless-era request; undefined in the handshake era. */
  #statelessVersion: string | undefined;
  #hasSentInitialize = false;
  /**
   * While `notifications/initialized` is being posted: what is sent after it waits, so a relay that
   * writes the next request at once cannot have it reach the server first (POSTs travel apart).
   */
  #initializing: Promise<void> | undefined;
  #handshake: LegacySseConnection | undefined;
  #handshakeReady: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: StreamableHttpChannelOptions) {
    this.#options = options;
    this.#tools = new ToolHeaderRegistry((error) => options.onError(error));
    const receive = (frame: Frame) => this.#receive(frame);
    const session = this.#session;
    this.#streams = new GetStreams({ ...options, session, deliver: (data) => receive(decodeFrame(data)) });
    this.#posts = new PostSender({
      ...options,
      session,
      streams: this.#streams,
      pending: this.#pending,
      receive,
      isClosed: () => this.#inbox.isClosed,
      fallBack: (exchange, refusal) => this.#fallBack(exchange, refusal),
    });
  }

  /**
   * The session id once assigned. Request/response while Streamable HTTP: every POST of a request is
   * answered, a handshake-era server's refusal included (2026-07-28 checklist section 3.3), so a
   * request left unanswered is an outage; not after falling back to HTTP+SSE, whose POSTs get 202.
   */
  get info(): ChannelInfo {
    const facts: { isRequestResponse?: true; sessionId?: string } =
      this.#handshake === undefined ? { isRequestResponse: true } : {};
    const sessionId = this.#session.id;
    if (sessionId !== undefined) facts.sessionId = sessionId;
    return facts;
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  async send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) throw new ConnectionClosedError('The HTTP channel is closed');
    if (this.#handshake !== undefined) {
      await this.#handshakeReady;
      this.#pending.addAll(message);
      return this.#handshake.send(message);
    }
    if (this.#initializing !== undefined) await this.#initializing;
    if (isBatch(message)) return this.#sendBatch(message);
    if (isRequest(message)) return this.#sendRequest(message);
    if (isNotification(message)) {
      const sent = this.#sendNotification(message);
      if (message.method === 'notifications/initialized') this.#holdUntil(sent);
      return sent;
    }
    // An answer to a server request (handshake era only: S26-HTTP-3 sends no responses).
    return this.#posts.sendAnswer(message, () => this.#session.headers());
  }

  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    // Set before anything runs: the receiver's handleClose may call close() again.
    let done!: () => void;
    this.#closing = new Promise((resolve) => (done = resolve));
    const deletion = this.#handshake === undefined ? this.#session.id : undefined;
    const headers = this.#session.headers();
    this.#finish();
    void (deletion === undefined ? Promise.resolve() : this.#deleteSession(headers)).finally(() => {
      // Every exchange is over (aborted, or the DELETE answered): no socket is left open.
      this.#options.fetcher.close();
      done();
    });
    return this.#closing;
  }

  /** Later sends wait until `sent` settles (either way). */
  #holdUntil(sent: Promise<void>): void {
    const release = (): void => {
      if (this.#initializing === settled) this.#initializing = undefined;
    };
    const settled = sent.then(release, release);
    this.#initializing = settled;
  }

  async #sendRequest(request: JsonRpcRequest): Promise<void> {
    const claim = claimOf(request);
    let headers: HeaderRecord;
    let mayFallBack = false;
    if (claim !== undefined) {
      this.#statelessVersion = claim;
      const args = request.params?.arguments;
      const params =
        request.method === 'tools/call' ? this.#tools.paramHeaders(String(request.params?.name), args) : [];
      headers = statelessHeaders(request, { version: claim, params });
    } else {
      if (request.method === 'initialize') mayFallBack = this.#beginSession();
      headers = this.#session.headers();
    }
    const ids = [request.id];
    const exchange = createExchange(request, { headers, ids, isStateless: claim !== undefined, mayFallBack });
    this.#pending.add(request.id, {
      method: request.method,
      isStateless: exchange.isStateless,
      controller: exchange.controller,
    });
    try {
      await this.#posts.send(exchange);
    } catch (error) {
      this.#pending.delete(request.id);
      throw error;
    }
  }

  async #sendNotification(notification: JsonRpcNotification): Promise<void> {
    const pending = this.#cancelledRequest(notification);
    // S26-HTTP-10: closing the request's stream is the stateless era's cancellation; nothing is posted.
    if (pending?.isStateless) return this.#pending.forget(pending);
    const version = this.#statelessVersion;
    const headers =
      version === undefined ? this.#session.headers() : statelessHeaders(notification, { version });
    await this.#posts.send(
      createExchange(notification, { headers, ids: [], isStateless: version !== undefined }),
    );
    // The server will not answer a cancelled request: stop reading its stream.
    if (pending !== undefined) this.#pending.forget(pending);
    // HTTP-17: the server's own stream, once initialized.
    if (version === undefined && notification.method === 'notifications/initialized' && !this.#inbox.isClosed)
      this.#streams.openStandalone();
  }

  async #sendBatch(batch: readonly Message[]): Promise<void> {
    const ids = this.#pending.addAll(batch);
    try {
      await this.#posts.send(createExchange(batch, { headers: this.#session.headers(), ids }));
    } catch (error) {
      for (const id of ids) this.#pending.delete(id);
      throw error;
    }
  }

  /** Starts a handshake-era session; true for the channel's first initialize. */
  #beginSession(): boolean {
    this.#statelessVersion = undefined;
    this.#streams.endSession();
    const isFirst = !this.#hasSentInitialize;
    this.#hasSentInitialize = true;
    return isFirst;
  }

  /** COMPAT-2: switch to HTTP+SSE, then re-send the initialize there. */
  async #fallBack(exchange: Exchange, refusal: Refusal): Promise<void> {
    const handshake = new LegacySseConnection({
      fetcher: this.#options.fetcher,
      url: this.#options.url,
      deliver: (frame) => this.#receive(frame),
      handleEnd: (error) => this.#finish(error),
    });
    this.#handshake = handshake;
    this.#handshakeReady = handshake.start();
    try {
      await this.#handshakeReady;
    } catch (cause) {
      this.#handshake = undefined;
      handshake.close();
      const { response, call, body } = refusal;
      const error = errorResponseIn(response.status, { body, ids: exchange.ids });
      if (error !== undefined) return this.#receive({ type: 'message', message: error });
      throw await this.#options.fetcher.toHttpError(response, call, body, cause);
    }
    await handshake.send(exchange.body);
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
      if (
        request.method === 'initialize' &&
        !request.isStateless &&
        typeof result.protocolVersion === 'string'
      )
        this.#session.protocolVersion = result.protocolVersion;
      return request.method === 'tools/list' ? this.#tools.filterToolsList(result) : result;
    });
  }

  /** Ends the channel: aborts every exchange and stream, then tells the receiver (once). */
  #finish(error?: Error): void {
    if (this.#inbox.isClosed) return;
    this.#posts.abortAll();
    this.#pending.abortAll();
    this.#streams.close();
    this.#handshake?.close();
    this.#inbox.close(error);
  }

  async #deleteSession(headers: HeaderRecord): Promise<void> {
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

/** A stateless-era message's headers (setStatelessHeaders) as a HeaderRecord. */
function statelessHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  options: Parameters<typeof setStatelessHeaders>[2],
): HeaderRecord {
  const headers = new Headers();
  setStatelessHeaders(headers, message, options);
  const record: HeaderRecord = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}
