// A Channel wrapper that reports every message sent and every frame received, unchanged: the hook tests use
// to validate the wire (see test/support/wire-schema.ts) and to record transcripts.

import type { Frame } from '../jsonrpc/codec.ts';
import type { Message } from '../jsonrpc/message.ts';
import type { Channel, ChannelReceiver } from './channel.ts';

/** What a tap reports to. Called synchronously, in wire order; must not throw and must not modify what it sees. */
export interface ChannelObserver {
  /** A message (or batch) handed to `send`, before the transport accepts it. */
  onSend?(message: Message | readonly Message[]): void;
  /** A frame the channel delivered, before the receiver sees it. */
  onReceive?(frame: Frame): void;
}

/**
 * Wraps `channel` so `observer` sees each outgoing message when `send` is called and each incoming frame
 * before the receiver does. Sends are reported before they happen so a reply can never be observed ahead of
 * its request. Messages and frames pass through as the same objects; `info` reads through to the wrapped
 * channel. If the observer throws, the message still moves on and the error is rethrown from a microtask,
 * where the test runner reports it as uncaught, rather than breaking the transport's contract.
 */
export function tapChannel(channel: Channel, observer: ChannelObserver): Channel {
  const tapped: Channel = {
    open(receiver: ChannelReceiver): void {
      channel.open({
        handleFrame(frame) {
          report(() => observer.onReceive?.(frame));
          receiver.handleFrame(frame);
        },
        handleClose(error) {
          receiver.handleClose(error);
        },
      });
    },
    send(message, options) {
      report(() => observer.onSend?.(message));
      return channel.send(message, options);
    },
    close() {
      return channel.close();
    },
  };
  // A getter, not a copy: transports may learn facts (an HTTP session id) after the channel is wrapped.
  Object.defineProperty(tapped, 'info', { get: () => channel.info, enumerable: true });
  return tapped;
}

function report(call: () => void): void {
  try {
    call();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
