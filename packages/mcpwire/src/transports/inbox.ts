// Delivery to a ChannelReceiver: frames before `open` are buffered, and close is reported exactly once.

import type { Frame } from '../jsonrpc/codec.ts';
import type { ChannelReceiver } from './channel.ts';

/**
 * The receiving half shared by the stdio channels. Frames are delivered in arrival order; frames
 * and a close that happen before `open` are held and replayed by `open`. After close, frames are
 * dropped and `handleClose` has been (or, if not yet open, will be) called exactly once.
 */
export class Inbox {
  #receiver: ChannelReceiver | undefined;
  #backlog: Frame[] = [];
  #isClosed = false;
  #closeError: Error | undefined;

  /** Starts delivery; throws if called twice (Channel.open is called once). */
  open(receiver: ChannelReceiver): void {
    if (this.#receiver !== undefined) throw new Error('Channel.open was called twice');
    this.#receiver = receiver;
    const backlog = this.#backlog;
    this.#backlog = [];
    const wasClosed = this.#isClosed;
    for (const frame of backlog) {
      // Closed by the receiver itself during the replay: it has had handleClose, so stop.
      if (this.#isClosed && !wasClosed) return;
      receiver.handleFrame(frame);
    }
    if (wasClosed) receiver.handleClose(...this.#closeArgs());
  }

  /** Delivers (or, before open, buffers) one frame; a no-op after close. */
  deliver(frame: Frame): void {
    if (this.#isClosed) return;
    if (this.#receiver === undefined) this.#backlog.push(frame);
    else this.#receiver.handleFrame(frame);
  }

  /** Closes delivery. Returns true the first time only; later calls change nothing. */
  close(error?: Error): boolean {
    if (this.#isClosed) return false;
    this.#isClosed = true;
    this.#closeError = error;
    this.#receiver?.handleClose(...this.#closeArgs());
    return true;
  }

  /** True once `close` has been called. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  // handleClose(undefined) and handleClose() differ to a receiver that checks arguments.length.
  #closeArgs(): [] | [Error] {
    return this.#closeError === undefined ? [] : [this.#closeError];
  }
}
