// A stateless-era request's channel with its authenticated sender attached: the server reads it
// through `ChannelInfo.principalOf` and hands it to the handler as `ctx.auth`.

import type { Message, RequestId, SendOptions } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type { Channel, ChannelInfo, ChannelReceiver, ChannelServer } from '../channel.ts';

/**
 * `server` as seen by one request `requestId` sent by `principal`: each channel it is given is
 * passed on unchanged except that its `info` names `principal` as the sender of `requestId`.
 */
export function serverWithSender(
  server: ChannelServer,
  sender: { requestId: RequestId; principal: Principal },
): ChannelServer {
  return { connect: (channel) => server.connect(new SenderChannel(channel, sender)) };
}

/** A channel that delegates everything and adds `principalOf` to the inner channel's facts. */
class SenderChannel implements Channel {
  readonly info: ChannelInfo;
  readonly #inner: Channel;

  constructor(inner: Channel, sender: { requestId: RequestId; principal: Principal }) {
    this.#inner = inner;
    const { requestId, principal } = sender;
    this.info = {
      ...inner.info,
      principalOf: (id) => (id === requestId ? principal : inner.info?.principalOf?.(id)),
    };
  }

  open(receiver: ChannelReceiver): void {
    this.#inner.open(receiver);
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
