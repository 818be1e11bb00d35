// Checks the wire between our Client and a real server against the official JSON Schemas: an era probe
// (`server/discover`, before any `initialize`) against 2026-07-28, everything from `initialize` on against
// the revision the handshake settled.

import type { Frame } from 'mcpwire';
import type { JsonObject, Message } from 'mcpwire';
import { STATELESS_VERSIONS } from 'mcpwire';
import type { ChannelObserver } from 'mcpwire';
import { createWireValidator, type WireValidator } from '../support/wire-schema.ts';

/** Validates one client connection from the client's side; pass `observer` to `tapChannel`. */
export class ClientWireCheck {
  readonly observer: ChannelObserver;
  /** How many messages and frames went through, both ways. */
  checkedCount = 0;
  /** The params of the `initialize` request our client sent, once sent. */
  initializeParams: JsonObject | undefined;
  readonly #probe: WireValidator;
  readonly #handshake: WireValidator;
  #hasSentInitialize = false;

  /** `negotiated` reads the handshake's revision once known (e.g. `() => client.protocolVersion`). */
  constructor(negotiated: () => string | undefined) {
    this.#probe = createWireValidator({ side: 'client', revision: STATELESS_VERSIONS[0] });
    this.#handshake = createWireValidator({ side: 'client', revision: negotiated });
    this.observer = {
      onSend: (message) => this.#onSend(message),
      onReceive: (frame) => this.#onReceive(frame),
    };
  }

  /** Failures of messages our client sent. */
  get clientFailures(): string[] {
    return this.#failures().filter((failure) => failure.startsWith('sent '));
  }

  /** Failures of messages the server sent (not ours to fix when the server is someone else's). */
  get serverFailures(): string[] {
    return this.#failures().filter((failure) => !failure.startsWith('sent '));
  }

  #failures(): string[] {
    return [...this.#probe.failures.map((failure) => `${failure} [era probe]`), ...this.#handshake.failures];
  }

  #onSend(message: Message | readonly Message[]): void {
    const call = Array.isArray(message) ? undefined : (message as { method?: unknown; params?: JsonObject });
    if (call?.method === 'initialize') {
      this.#hasSentInitialize = true;
      this.initializeParams = call.params;
    }
    this.checkedCount += 1;
    (this.#hasSentInitialize ? this.#handshake : this.#probe).check(message, 'sent');
  }

  #onReceive(frame: Frame): void {
    this.checkedCount += 1;
    (this.#hasSentInitialize ? this.#handshake : this.#probe).checkFrame(frame);
  }
}
