// The conversation between a client and a server, kept in wire order from the client's side: each request with
// its response, the server's notifications, the methods the client sent. Tests read it to check rounds, ids,
// `_meta` envelopes and subscription ids.

import type { Frame } from 'mcpwire';
import type { Message } from 'mcpwire';
import type { ChannelObserver } from 'mcpwire';

/** A JSON-RPC message as it crossed the wire, read loosely. */
export interface WireMessage {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** One request the client sent and the response it got (once it arrived). */
export interface Exchange {
  request: WireMessage;
  response?: WireMessage;
}

/** Records one connection; feed it with `noteClient`/`noteServer`, or tap a Channel with `observer`. */
export class ConversationLog {
  /** Every request the client sent, in order, each with its response once it arrived. */
  readonly exchanges: Exchange[] = [];
  /** Every notification the server sent, in order. */
  readonly serverNotifications: WireMessage[] = [];
  /** Every request the server sent (handshake era only), in order. */
  readonly serverRequests: WireMessage[] = [];
  /** Every notification the client sent, in order. */
  readonly clientNotifications: WireMessage[] = [];
  /** Every method the client sent (requests and notifications), in order. */
  readonly clientMethods: string[] = [];
  /** For `tapChannel` on our client's channel: what it sends and what it receives. */
  readonly observer: ChannelObserver = {
    onSend: (message: Message | readonly Message[]) => {
      for (const item of Array.isArray(message) ? message : [message]) this.noteClient(item);
    },
    onReceive: (frame: Frame) => {
      if (frame.type === 'message') this.noteServer(frame.message);
    },
  };

  /** A mark for `exchangesOf`/`callsOf`: only exchanges that start after this point. */
  get mark(): number {
    return this.exchanges.length;
  }

  /** The exchanges of one method since `mark` (default: all), optionally only those whose params match. */
  exchangesOf(
    method: string,
    options: { since?: number; matches?: (params: Record<string, unknown>) => boolean } = {},
  ): Exchange[] {
    const { since = 0, matches = () => true } = options;
    return this.exchanges
      .slice(since)
      .filter((exchange) => exchange.request.method === method && matches(exchange.request.params ?? {}));
  }

  /** The exchanges of `tools/call` for one tool since `mark` (default: all). */
  callsOf(tool: string, since = 0): Exchange[] {
    return this.exchangesOf('tools/call', { since, matches: (params) => params.name === tool });
  }

  /** Records a message the client sent. */
  noteClient(message: unknown): void {
    const wire = message as WireMessage;
    if (typeof wire.method !== 'string') return;
    this.clientMethods.push(wire.method);
    if (wire.id === undefined) this.clientNotifications.push(wire);
    else this.exchanges.push({ request: wire });
  }

  /** Records a message the server sent. */
  noteServer(message: unknown): void {
    const wire = message as WireMessage;
    if (typeof wire.method === 'string') {
      (wire.id === undefined ? this.serverNotifications : this.serverRequests).push(wire);
      return;
    }
    const exchange = this.exchanges.find(
      (entry) => entry.request.id === wire.id && entry.response === undefined,
    );
    if (exchange) exchange.response = wire;
  }
}

/** The `_meta` of a message's params (a request's envelope, a notification's subscription id). */
export function metaOf(message: WireMessage | undefined): Record<string, unknown> {
  const meta = message?.params?._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
}
