// Taps an official SDK client transport connected in the stateless era (2026-07-28): there is no `initialize`
// to learn the revision from, so every message is checked against 2026-07-28 from the start, from the
// server's side, and the conversation is kept for the tests to read.

import { createWireValidator, type WireValidator } from '../support/wire-schema.ts';
import { ConversationLog } from './conversation-log.ts';

/** The stateless-era revision every message is checked against. */
export const STATELESS_REVISION = '2026-07-28';

/** The part of an official SDK transport the tap needs. */
interface SdkTransport {
  send(message: never, ...rest: never[]): Promise<void>;
  onmessage?: ((message: never, ...rest: never[]) => void) | undefined;
}

type Handler = (message: unknown, ...rest: unknown[]) => void;

/** Watches the wire between an official client and the server under test in the stateless era. */
export class SdkStatelessWireTap {
  readonly validator: WireValidator = createWireValidator({ revision: STATELESS_REVISION, side: 'server' });
  readonly log = new ConversationLog();
  /** How many messages went through, both ways. */
  checkedCount = 0;

  /** Schema failures of messages the server sent (each line names the method and the schema errors). */
  get serverFailures(): string[] {
    return this.validator.failures.filter((failure) => failure.startsWith('sent '));
  }

  /** Schema failures of messages the official client sent (not ours to fix; shown as diagnostics). */
  get clientFailures(): string[] {
    return this.validator.failures.filter((failure) => !failure.startsWith('sent '));
  }

  /** Wraps `transport` in place and returns it. Call before `client.connect`, which sets `onmessage`. */
  attach<T extends SdkTransport>(transport: T): T {
    const send = transport.send.bind(transport) as (message: unknown, ...rest: unknown[]) => Promise<void>;
    Object.defineProperty(transport, 'send', {
      configurable: true,
      value: (message: unknown, ...rest: unknown[]) => {
        this.log.noteClient(message);
        this.checkedCount += 1;
        this.validator.check(message, 'received');
        return send(message, ...rest);
      },
    });
    let onmessage: Handler | undefined;
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      get: () => onmessage,
      set: (handler: Handler | undefined) => {
        onmessage = handler === undefined ? undefined : this.#watch(handler);
      },
    });
    return transport;
  }

  #watch(handler: Handler): Handler {
    return (message, ...rest) => {
      this.log.noteServer(message);
      this.checkedCount += 1;
      this.validator.check(message, 'sent');
      handler(message, ...rest);
    };
  }
}
