// One handshake-era POST served without a session (createSessionlessHandler): each request in its frame
// goes to `RequestServer.serveRequest` with a via of its own, and the answers go back as one JSON body
// or an SSE stream (post-exchange.ts), ending with the last response. Nothing is kept for resumption,
// so the stream is live only, and a client that goes away cancels its requests.

import { encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import type { JsonObject, JsonRpcRequest, Message, RequestId, SendOptions } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type { RequestServer, RequestVia } from '../channel.ts';
import { emptyReply, type HttpReply, type HttpRequestView } from './exchange.ts';
import { PostExchange, type Accepts, type PostStream } from './post-exchange.ts';
import type { SseConnection } from './sse-writer.ts';

/** What one POST is served with. */
export interface SessionlessPost {
  frame: Frame;
  requests: readonly JsonRpcRequest[];
  accepts: Accepts;
  /** The revision the client negotiated (its header); undefined for `initialize`. */
  protocolVersion: string | undefined;
  principal: Principal | undefined;
  keepAliveMs: number;
  maxSseBufferBytes: number;
}

/**
 * Serves the POST: 202 without requests, else their answer. Invalid items of the frame are answered
 * in it; `notifications/cancelled` cancels a request of the same POST; other notifications and
 * responses are dropped (nothing of a session to deliver them to).
 */
export function serveSessionlessPost(
  server: RequestServer,
  request: Pick<HttpRequestView, 'onGone'>,
  post: SessionlessPost,
): Promise<HttpReply> {
  if (post.requests.length === 0) return Promise.resolve(emptyReply(202));
  const exchange = new PostExchange(post.requests, {
    accepts: post.accepts,
    isBatch: post.frame.type === 'batch',
    headers: {},
    keepAliveMs: post.keepAliveMs,
    maxSseBufferBytes: post.maxSseBufferBytes,
    streams: LIVE_STREAMS,
    priming: undefined,
    closeAfterMs: undefined,
  });
  const vias = new Map<RequestId, PostVia>();
  const stopWatching = request.onGone(() => {
    for (const via of vias.values()) via.cancel('The connection closed');
    exchange.abort();
  });
  const items = post.frame.type === 'batch' ? post.frame.items : [post.frame];
  for (const item of items) {
    if (item.type === 'invalid') {
      void exchange.handle(item.response).catch(() => {});
      continue;
    }
    const message = item.message;
    if (!('method' in message)) continue; // A response: this side asked nothing.
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled') {
        const params = message.params ?? {};
        vias.get(params.requestId as RequestId)?.cancel(params.reason);
      }
      continue;
    }
    const via = new PostVia(exchange, message.id, post);
    vias.set(message.id, via);
    void server.serveRequest(message, via).then((response) => {
      vias.delete(message.id);
      void exchange.handle(response).catch(() => {});
      if (exchange.isDone) stopWatching();
    });
  }
  return exchange.response;
}

/** A sessionless POST's stream is live only: nothing is kept to resume it from. */
const LIVE_STREAMS = { openPostStream: (): PostStream => new LiveStream() };

/** One request's way back: notifications on the POST's stream, its cancellation, its sender. */
class PostVia implements RequestVia {
  readonly protocolVersion: string | undefined;
  readonly #exchange: PostExchange;
  readonly #id: RequestId;
  readonly #principal: Principal | undefined;
  #controller: AbortController | undefined;
  #isCancelled = false;
  #reason: unknown;

  constructor(exchange: PostExchange, id: RequestId, post: SessionlessPost) {
    this.#exchange = exchange;
    this.#id = id;
    this.protocolVersion = post.protocolVersion;
    this.#principal = post.principal;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#isCancelled) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get isCancelled(): boolean {
    return this.#isCancelled;
  }

  cancel(reason: unknown): void {
    if (this.#isCancelled) return;
    this.#isCancelled = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  notify(method: string, params: JsonObject, _options?: SendOptions): Promise<void> {
    return this.#exchange.handle({ jsonrpc: '2.0', method, params });
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return requestId === this.#id ? this.#principal : undefined;
  }
}

/** A POST's SSE stream that keeps nothing: without a session no client could resume it. */
class LiveStream implements PostStream {
  #connection: SseConnection | undefined;

  open(connection: SseConnection): void {
    this.#connection = connection;
  }

  send(message: Message | readonly Message[]): Promise<void> {
    this.#connection?.write({ event: 'message', data: encodeMessage(message) });
    return Promise.resolve();
  }

  detach(): void {
    this.finish();
  }

  finish(): void {
    this.#connection?.close();
    this.#connection = undefined;
  }
}
