// An in-memory channel pair: two connected Channels in one process, for tests and embedding.

import { decodeFrame, encodeMessage, type Frame } from '../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../jsonrpc/errors.ts';
import type { Message } from '../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from './channel.ts';

class MemoryChannel implements Channel {
  readonly info: ChannelInfo = {};
  other: MemoryChannel | undefined;
  #receiver: ChannelReceiver | undefined;
  #backlog: Frame[] = [];
  #closed = false;

  open(receiver: ChannelReceiver): void {
    if (this.#receiver) throw new Error('Channel is already open');
    this.#receiver = receiver;
    for (const frame of this.#backlog.splice(0)) receiver.handleFrame(frame);
    if (this.#closed) receiver.handleClose();
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError());
    // Through the codec, as on a real wire: no shared object references, same validation.
    const frame = decodeFrame(encodeMessage(message));
    const other = this.other;
    queueMicrotask(() => other?.deliver(frame));
    return Promise.resolve();
  }

  deliver(frame: Frame): void {
    if (this.#closed) return;
    if (this.#receiver) this.#receiver.handleFrame(frame);
    else this.#backlog.push(frame);
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#receiver?.handleClose();
      const other = this.other;
      queueMicrotask(() => void other?.close());
    }
    return Promise.resolve();
  }
}

/**
 * Two connected in-memory channels: what one sends, the other receives, in order, on a later
 * microtask. Closing either closes both.
 */
export function createMemoryPair(): [Channel, Channel] {
  const a = new MemoryChannel();
  const b = new MemoryChannel();
  a.other = b;
  b.other = a;
  return [a, b];
}
