// Taps an official SDK client transport (v1 or v2; both have `send` and an `onmessage` slot) so every
// message it carries is checked against the negotiated revision's JSON Schema, from the server's side.

import { createWireValidator, type WireValidator } from '../support/wire-schema.ts';

/** The part of an official SDK transport the tap needs. */
interface SdkTransport {
  send(message: never, ...rest: never[]): Promise<void>;
  onmessage?: ((message: never, ...rest: never[]) => void) | undefined;
}

type Handler = (message: unknown, ...rest: unknown[]) => void;

/**
 * Watches the wire between an official client and the server under test. It learns the negotiated
 * revision from the `initialize` response, and validates every message against that revision's schema:
 * what the client sends as received by the server, what arrives as sent by the server.
 */
export class SdkWireTap {
  readonly validator: WireValidator;
  /** How many messages went through, both ways. */
  checkedCount = 0;
  /** Every error response the server sent, with the method of the request it answered. */
  readonly serverErrors: Array<{ method: string; error: unknown }> = [];
  /** Methods of the client's requests still awaiting an answer, by id. */
  readonly #pending = new Map<unknown, string>();
  #initializeId: unknown;
  #protocolVersion: string | undefined;

  constructor() {
    this.validator = createWireValidator({ revision: () => this.#protocolVersion, side: 'server' });
  }

  /** The revision in the server's `initialize` result, once it has arrived. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

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
        this.#noteRequest(message);
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
      this.#noteResponse(message);
      this.checkedCount += 1;
      this.validator.check(message, 'sent');
      handler(message, ...rest);
    };
  }

  #noteRequest(message: unknown): void {
    if (!isRecord(message) || typeof message.method !== 'string' || message.id === undefined) return;
    this.#pending.set(message.id, message.method);
    if (message.method === 'initialize') this.#initializeId = message.id;
  }

  #noteResponse(message: unknown): void {
    if (!isRecord(message) || 'method' in message || message.id === undefined) return;
    const method = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    if (method !== undefined && 'error' in message) this.serverErrors.push({ method, error: message.error });
    if (message.id !== this.#initializeId) return;
    const version = isRecord(message.result) ? message.result.protocolVersion : undefined;
    if (typeof version === 'string') this.#protocolVersion = version;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
