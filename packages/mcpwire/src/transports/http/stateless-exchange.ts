// Serving one stateless-era request (2026-07-28) on HTTP: what the server sends for it becomes one JSON
// body, or an SSE stream when a notification comes before the response (S26-HTTP-5/6). Closing the
// stream cancels the request (S26-HTTP-10). An mcpwire server serves it with `serveRequest` (no
// session, no channel); a server that only serves channels gets a channel for the one request.

import type { Frame } from '../../jsonrpc/codec.ts';
import { encodeMessage } from '../../jsonrpc/codec.ts';
import type {
  JsonObject,
  JsonRpcRequest,
  JsonRpcResponse,
  Message,
  RequestId,
  SendOptions,
} from '../../jsonrpc/message.ts';
import { isErrorResponse, isRequest, isResponse } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver, RequestServer, RequestVia } from '../channel.ts';
import { emptyReply, type HttpReply, type HttpRequestView } from './exchange.ts';
import { errorReply, jsonReply, statusForErrorCode, TRANSPORT_ERROR } from './json-response.ts';
import type { ChannelServer, Principal } from './options.ts';
import { SSE_HEADERS, SseConnection } from './sse-writer.ts';

/** How one stateless request is served. */
export interface StatelessExchangeOptions {
  keepAliveMs: number;
  /** The request's authenticated sender (becomes `ctx.auth`). */
  principal: Principal | undefined;
}

/**
 * Serves `message` through `server` and resolves with the HTTP response: JSON (status by error code)
 * when the response is the first message, else `text/event-stream` ending after the response. A
 * `subscriptions/listen` stream stays open until the client leaves or the server closes.
 */
export function serveStatelessRequest(
  server: ChannelServer | RequestServer,
  message: JsonRpcRequest,
  request: Pick<HttpRequestView, 'onGone'>,
  options: StatelessExchangeOptions,
): Promise<HttpReply> {
  const exchange = new StatelessExchange(message, options);
  exchange.watch(request);
  if ('serveRequest' in server) {
    void server.serveRequest(message, exchange).then((response) => exchange.respond(response));
  } else {
    server.connect(new OneRequestChannel(message, exchange));
  }
  return exchange.response;
}

/**
 * One request's HTTP answer, and the request's way back for the server (its RequestVia). States:
 * pending (nothing sent yet), streaming (SSE), done (answered, or cancelled by the client leaving).
 */
class StatelessExchange implements RequestVia {
  readonly response: Promise<HttpReply>;
  readonly protocolVersion = undefined;
  readonly #id: RequestId;
  readonly #keepAliveMs: number;
  readonly #principal: Principal | undefined;
  #state: 'pending' | 'streaming' | 'done' = 'pending';
  #connection: SseConnection | undefined;
  #stopWatching: (() => void) | undefined;
  #controller: AbortController | undefined;
  #isCancelled = false;
  /** Told when the client leaves (the channel fallback forwards it as `notifications/cancelled`). */
  onCancel: (() => void) | undefined;
  #resolve!: (response: HttpReply) => void;

  constructor(message: JsonRpcRequest, options: StatelessExchangeOptions) {
    this.#id = message.id;
    this.#keepAliveMs = options.keepAliveMs;
    this.#principal = options.principal;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  watch(request: Pick<HttpRequestView, 'onGone'>): void {
    this.#stopWatching = request.onGone(() => this.#cancel());
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#isCancelled) this.#controller.abort('The client closed the response stream');
    }
    return this.#controller.signal;
  }

  get isCancelled(): boolean {
    return this.#isCancelled;
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return requestId === this.#id ? this.#principal : undefined;
  }

  /** A notification about the request: it turns the answer into an SSE stream. */
  notify(method: string, params: JsonObject, _options?: SendOptions): Promise<void> {
    this.write({ jsonrpc: '2.0', method, params });
    return Promise.resolve();
  }

  /** The request's response: JSON when nothing came before it, else the stream's last event. */
  respond(response: JsonRpcResponse): void {
    if (this.#state === 'done') return; // Cancelled: nothing more for it (S26-HTTP-10).
    if (this.#state === 'pending') {
      const status = isErrorResponse(response) ? statusForErrorCode(response.error.code) : 200;
      this.#resolve(jsonReply(response, status));
    } else this.#connection?.write({ event: 'message', data: encodeMessage(response) });
    this.#finish();
  }

  /** A message that is not the response (a notification): opens the stream if need be. */
  write(message: Message): void {
    if (this.#state === 'done') return;
    if (this.#state === 'pending') this.#startStream();
    this.#connection?.write({ event: 'message', data: encodeMessage(message) });
  }

  /** The server went away before answering: 503. */
  abandon(): void {
    if (this.#state === 'pending') {
      this.#resolve(
        errorReply({
          status: 503,
          code: TRANSPORT_ERROR,
          message: 'The server closed before answering',
          id: this.#id,
        }),
      );
    }
    this.#finish();
  }

  #startStream(): void {
    const connection = new SseConnection({ keepAliveMs: this.#keepAliveMs });
    connection.onGone(() => this.#cancel());
    this.#connection = connection;
    this.#state = 'streaming';
    this.#resolve({ status: 200, headers: { ...SSE_HEADERS }, body: connection.body });
  }

  #finish(): void {
    this.#state = 'done';
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    this.#connection?.close();
  }

  /** The client went away: the request is cancelled and its answer dropped. */
  #cancel(): void {
    if (this.#state === 'done') return;
    if (this.#state === 'pending') this.#resolve(emptyReply(499));
    this.#finish();
    this.#isCancelled = true;
    this.#controller?.abort('The client closed the response stream');
    this.onCancel?.();
  }
}

/**
 * The request as a channel, for a server that only serves channels (a replay mock, a custom
 * ChannelServer): it sees one frame; what it sends goes to the exchange; the channel ends with it.
 */
class OneRequestChannel implements Channel {
  readonly info: ChannelInfo;
  readonly #message: JsonRpcRequest;
  readonly #exchange: StatelessExchange;
  #receiver: ChannelReceiver | undefined;
  #isClosed = false;

  constructor(message: JsonRpcRequest, exchange: StatelessExchange) {
    this.#message = message;
    this.#exchange = exchange;
    this.info = { principalOf: (id) => exchange.principalOf(id) };
    exchange.onCancel = () => {
      this.#receiver?.handleFrame({
        type: 'message',
        message: {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: message.id, reason: 'The client closed the response stream' },
        },
      });
      queueMicrotask(() => void this.close());
    };
  }

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
    const frame: Frame = { type: 'message', message: this.#message };
    queueMicrotask(() => {
      if (!this.#exchange.isCancelled) receiver.handleFrame(frame);
    });
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (Array.isArray(message)) return Promise.reject(new Error('Batches do not exist in 2026-07-28'));
    const single = message as Message;
    // S26-HTTP-6: a request's stream never carries server-to-client requests (MRTR replaces them).
    if (isRequest(single))
      return Promise.reject(new Error(`Cannot send "${single.method}" on a request stream`));
    if (!isResponse(single)) this.#exchange.write(single);
    else if (single.id === this.#message.id) {
      this.#exchange.respond(single);
      queueMicrotask(() => void this.close());
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    this.#isClosed = true;
    this.#exchange.abandon();
    this.#receiver?.handleClose();
    return Promise.resolve();
  }
}
