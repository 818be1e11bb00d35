// Serving one stateless-era request (2026-07-28) on a short-lived channel of its own: the server
// session sees one frame; what it sends becomes one JSON body, or an SSE stream when a notification
// comes before the response (S26-HTTP-5/6). Closing the stream cancels the request (S26-HTTP-10).

import type { Frame } from '../../jsonrpc/codec.ts';
import { encodeMessage } from '../../jsonrpc/codec.ts';
import type { JsonRpcRequest, Message } from '../../jsonrpc/message.ts';
import { isErrorResponse, isRequest, isResponse } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { emptyReply, type HttpReply, type HttpRequestView } from './exchange.ts';
import { errorReply, jsonReply, statusForErrorCode, TRANSPORT_ERROR } from './json-response.ts';
import type { ChannelServer } from './options.ts';
import { SSE_HEADERS, SseConnection } from './sse-writer.ts';

/**
 * Serves `message` through `server` and resolves with the HTTP response: JSON (status by error code)
 * when the response is the first message, else `text/event-stream` ending after the response. A
 * `subscriptions/listen` stream stays open until the client leaves or the server closes.
 */
export function serveModernRequest(
  server: ChannelServer,
  message: JsonRpcRequest,
  request: Pick<HttpRequestView, 'onGone'>,
  options: { keepAliveMs: number },
): Promise<HttpReply> {
  const exchange = new ModernExchange(message, request, options.keepAliveMs);
  server.connect(exchange);
  return exchange.response;
}

/** The request's channel. States: pending (nothing sent yet), streaming (SSE), done. */
class ModernExchange implements Channel {
  readonly info: ChannelInfo = {};
  readonly response: Promise<HttpReply>;
  #message: JsonRpcRequest;
  #request: Pick<HttpRequestView, 'onGone'>;
  #stopWatching: (() => void) | undefined;
  #isGone = false;
  #keepAliveMs: number;
  #receiver: ChannelReceiver | undefined;
  #state: 'pending' | 'streaming' | 'done' = 'pending';
  #connection: SseConnection | undefined;
  #isClosed = false;
  #resolve!: (response: HttpReply) => void;

  constructor(message: JsonRpcRequest, request: Pick<HttpRequestView, 'onGone'>, keepAliveMs: number) {
    this.#message = message;
    this.#request = request;
    this.#keepAliveMs = keepAliveMs;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
    const frame: Frame = { type: 'message', message: this.#message };
    this.#stopWatching = this.#request.onGone(() => {
      this.#isGone = true;
      this.#cancel();
    });
    queueMicrotask(() => {
      if (this.#isGone) return;
      receiver.handleFrame(frame);
    });
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (Array.isArray(message)) return Promise.reject(new Error('Batches do not exist in 2026-07-28'));
    const single = message as Message;
    // S26-HTTP-6: a request's stream never carries server-to-client requests (MRTR replaces them).
    if (isRequest(single))
      return Promise.reject(new Error(`Cannot send "${single.method}" on a request stream`));
    if (this.#state === 'done') return Promise.resolve(); // Cancelled: nothing more for it (S26-HTTP-10).
    if (isResponse(single)) {
      if (single.id !== this.#message.id) return Promise.resolve();
      if (this.#state === 'pending') {
        const status = isErrorResponse(single) ? statusForErrorCode(single.error.code) : 200;
        this.#resolve(jsonReply(single, status));
      } else this.#connection?.write({ event: 'message', data: encodeMessage(single) });
      this.#finish();
      return Promise.resolve();
    }
    if (this.#state === 'pending') this.#startStream();
    this.#connection?.write({ event: 'message', data: encodeMessage(single) });
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    this.#isClosed = true;
    this.#stopWatching?.();
    if (this.#state === 'pending') {
      this.#resolve(
        errorReply({
          status: 503,
          code: TRANSPORT_ERROR,
          message: 'The server closed before answering',
          id: this.#message.id,
        }),
      );
    }
    this.#state = 'done';
    this.#connection?.close();
    this.#receiver?.handleClose();
    return Promise.resolve();
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
    this.#connection?.close();
    queueMicrotask(() => void this.close());
  }

  /** The client went away: cancel the request inside the session, then release the channel. */
  #cancel(): void {
    if (this.#state === 'done') return;
    if (this.#state === 'pending') this.#resolve(emptyReply(499));
    this.#state = 'done';
    this.#receiver?.handleFrame({
      type: 'message',
      message: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: this.#message.id, reason: 'The client closed the response stream' },
      },
    });
    this.#finish();
  }
}
