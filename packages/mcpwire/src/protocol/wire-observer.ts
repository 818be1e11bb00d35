// A process-wide observer of every message a Session sends and receives: the test suite uses it to
// validate all traffic against the official schemas; tools may use it for tracing. Off by default.

import type { Frame } from '../jsonrpc/codec.ts';
import type { Message } from '../jsonrpc/message.ts';

/** One observed message. `connection` identifies the connection (compare by identity). */
export interface WireEvent {
  connection: object;
  role: 'client' | 'server';
  direction: 'sent' | 'received';
  /** The revision in force when the message passed (undefined before negotiation). */
  protocolVersion: string | undefined;
  message: Message | readonly Message[] | Frame;
}

let observer: ((event: WireEvent) => void) | undefined;

/** Installs the observer (one at a time) and returns the function that removes it. */
export function setWireObserver(next: (event: WireEvent) => void): () => void {
  observer = next;
  return () => {
    if (observer === next) observer = undefined;
  };
}

/** True while an observer is installed (callers skip building events otherwise). */
export function isWireObserved(): boolean {
  return observer !== undefined;
}

/** Reports one event to the observer, if any. An observer that throws is not the sender's problem. */
export function observeWire(event: WireEvent): void {
  try {
    observer?.(event);
  } catch {
    // The observer's failure must never change protocol behaviour.
  }
}
