// A server that serves requests one at a time (ServerCore's `serveRequest`) as the channels a
// transport opens: each request in a channel's frames is served on its own, and its response and
// notifications go back on that channel. For channels that carry one POST each (Streamable HTTP
// without sessions), where nothing outlives the request.

import type { Frame } from '../jsonrpc/codec.ts';
import type { JsonObject, JsonRpcRequest, Message, RequestId, SendOptions } from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';
import type { Channel, ChannelReceiver, ChannelServer, RequestServer, RequestVia } from './channel.ts';

/** `server` as a ChannelServer whose channels need no session. */
export function servingRequests(server: RequestServer): ChannelServer {
  return {
    connect: (channel: Channel) => channel.open(new RequestReceiver(server, channel)),
  };
}

/** Serves the requests of one channel; `notifications/cancelled` and the channel's end cancel them. */
class RequestReceiver implements ChannelReceiver {
  readonly #server: RequestServer;
  readonly #channel: Channel;
  #inFlight: Map<RequestId, ChannelVia> | undefined;

  constructor(server: RequestServer, channel: Channel) {
    this.#server = server;
    this.#channel = channel;
  }

  handleFrame(frame: Frame): void {
    if (frame.type === 'invalid') {
      this.#channel.send(frame.response).catch(() => {});
      return;
    }
    if (frame.type === 'message') return this.#handle(frame.message);
    for (const item of frame.items) {
      if (item.type === 'message') this.#handle(item.message);
      else this.#channel.send(item.response).catch(() => {});
    }
  }

  handleClose(): void {
    for (const via of this.#inFlight?.values() ?? []) via.cancel('The connection closed');
    this.#inFlight = undefined;
  }

  #handle(message: Message): void {
    if (!('method' in message)) return; // A response: this side asked nothing.
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled') {
        const params = message.params ?? {};
        this.#inFlight?.get(params.requestId as RequestId)?.cancel(params.reason);
      }
      return;
    }
    const { id } = message;
    const via = new ChannelVia(this.#channel, id);
    (this.#inFlight ??= new Map()).set(id, via);
    void this.#server.serveRequest(message as JsonRpcRequest, via).then((response) => {
      this.#inFlight?.delete(id);
      return this.#channel.send(response, { relatedRequestId: id }).catch(() => {});
    });
  }
}

/** One request's way back: notifications on its channel, its cancellation, its sender. */
class ChannelVia implements RequestVia {
  readonly #channel: Channel;
  readonly #id: RequestId;
  #controller: AbortController | undefined;
  #isCancelled = false;
  #reason: unknown;

  constructor(channel: Channel, id: RequestId) {
    this.#channel = channel;
    this.#id = id;
  }

  get protocolVersion(): string | undefined {
    return this.#channel.info?.negotiated?.protocolVersion;
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

  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void> {
    return this.#channel.send({ jsonrpc: '2.0', method, params }, options ?? { relatedRequestId: this.#id });
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return this.#channel.info?.principalOf?.(requestId);
  }
}
