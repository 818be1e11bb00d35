// One handshake-era POST served without a session (createSessionlessHandler): a channel of its own
// that carries the POST's frame to the server and its answers back, as one JSON body or an SSE
// stream (post-exchange.ts), and ends with the last response. Nothing is kept for resumption, so the
// stream is live only, and a client that goes away cancels its requests.

import { encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { JsonRpcRequest, Message } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type { Channel, ChannelInfo, ChannelReceiver, ChannelServer } from '../channel.ts';
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

/** Serves the POST on a channel of its own: 202 without requests, else their answer. */
export function serveSessionlessPost(
  server: ChannelServer,
  request: Pick<HttpRequestView, 'onGone'>,
  post: SessionlessPost,
): Promise<HttpReply> {
  const channel = new PostChannel(post);
  server.connect(channel);
  if (post.requests.length === 0) {
    void channel.close();
    return Promise.resolve(emptyReply(202));
  }
  const stopWatching = request.onGone(() => void channel.close());
  channel.onClose = stopWatching;
  return channel.response;
}

class PostChannel implements Channel {
  readonly info: ChannelInfo;
  readonly response: Promise<HttpReply>;
  onClose: (() => void) | undefined;
  readonly #frame: Frame;
  readonly #exchange: PostExchange | undefined;
  #receiver: ChannelReceiver | undefined;
  #isClosed = false;

  constructor(post: SessionlessPost) {
    const { principal, protocolVersion } = post;
    const principalOf = () => principal;
    this.info =
      protocolVersion === undefined ? { principalOf } : { principalOf, negotiated: { protocolVersion } };
    this.#frame = post.frame;
    if (post.requests.length > 0) {
      this.#exchange = new PostExchange(
        post.requests.map((item) => item.id),
        {
          accepts: post.accepts,
          isBatch: post.frame.type === 'batch',
          headers: {},
          keepAliveMs: post.keepAliveMs,
          maxSseBufferBytes: post.maxSseBufferBytes,
          openStream: () => new LiveStream(),
          priming: undefined,
          closeAfterMs: undefined,
        },
      );
    }
    this.response = this.#exchange?.response ?? Promise.resolve(emptyReply(202));
  }

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
    receiver.handleFrame(this.#frame);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    const exchange = this.#exchange;
    if (this.#isClosed || !exchange) return Promise.reject(new ConnectionClosedError());
    const sent = exchange.handle(message);
    if (exchange.isDone) {
      // Answered: the channel ends once the last response is on its way.
      const end = (): void => void this.close();
      sent.then(end, end);
    }
    return sent;
  }

  close(): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    this.#isClosed = true;
    this.#exchange?.abort();
    this.#receiver?.handleClose();
    this.onClose?.();
    return Promise.resolve();
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
