// A generic building block of the bridges: a handshake-era HTTP session's Channel whose outgoing
// messages are each put on the POST stream they belong with. A relay that gets a server's messages
// from a transport which does not say which request they belong to (stdio, the library's HTTP client
// channel) sends through this instead of the session channel itself.

import {
  isRequest,
  isResponse,
  type Channel,
  type ChannelInfo,
  type Frame,
  type Message,
  type RequestId,
} from 'mcpwire';

/**
 * Wraps `inner` (a session channel of the library's HTTP handler): the client's requests and
 * cancellations are noted as they arrive; each message sent without `relatedRequestId` gets one: a
 * progress notification its request's (by `progressToken`), any other request or notification the
 * latest client request still waiting (an open POST stream is where a client surely listens), else
 * none (the session's GET stream). A response finds its own stream.
 */
export class RelatedStreamChannel implements Channel {
  readonly #inner: Channel;
  /** The client's requests not answered yet, in arrival order. */
  readonly #pending = new Set<RequestId>();
  /** Progress tokens of pending requests -> their request. */
  readonly #progress = new Map<string | number, RequestId>();

  constructor(inner: Channel) {
    this.#inner = inner;
  }

  get info(): ChannelInfo {
    return this.#inner.info ?? {};
  }

  open(receiver: Parameters<Channel['open']>[0]): void {
    this.#inner.open({
      handleFrame: (frame) => {
        for (const message of messagesOf(frame)) this.#noteClientMessage(message);
        receiver.handleFrame(frame);
      },
      handleClose: (error) => receiver.handleClose(error),
    });
  }

  send(message: Message | readonly Message[], options?: Parameters<Channel['send']>[1]): Promise<void> {
    if (Array.isArray(message) || options?.relatedRequestId !== undefined)
      return this.#inner.send(message, options);
    const single = message as Message;
    if (isResponse(single) && single.id !== null && single.id !== undefined) this.#settled(single.id);
    const related = this.#relatedRequest(single);
    return this.#inner.send(
      single,
      related === undefined ? options : { ...options, relatedRequestId: related },
    );
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #noteClientMessage(message: Message): void {
    const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
    if (method === 'notifications/cancelled') {
      // The server will not answer it (CANCEL-5): its stream, which the client may have left, no
      // longer takes other messages.
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#settled(requestId);
      return;
    }
    if (!isRequest(message)) return;
    this.#pending.add(message.id);
    const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') this.#progress.set(token, message.id);
  }

  #relatedRequest(message: Message): RequestId | undefined {
    if (isResponse(message)) return undefined;
    const { method, params } = message as { method: string; params?: { progressToken?: unknown } };
    if (method === 'notifications/progress') {
      const token = params?.progressToken;
      return typeof token === 'string' || typeof token === 'number' ? this.#progress.get(token) : undefined;
    }
    let latest: RequestId | undefined;
    for (const id of this.#pending) latest = id;
    return latest;
  }

  #settled(id: RequestId): void {
    this.#pending.delete(id);
    for (const [token, request] of this.#progress) if (request === id) this.#progress.delete(token);
  }
}

function messagesOf(frame: Frame): Message[] {
  if (frame.type === 'message') return [frame.message];
  if (frame.type === 'batch')
    return frame.items.flatMap((item) => (item.type === 'message' ? [item.message] : []));
  return [];
}
