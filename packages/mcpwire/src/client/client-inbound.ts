// What reaches a Client from its server: requests (sampling, elicitation, roots) through the
// middleware chain to the handlers, notifications to the events, and the end of a connection.

import type { JsonObject } from '../jsonrpc/message.ts';
import { HANDSHAKE_VERSIONS } from '../protocol/revisions.ts';
import type { InboundRequest, Session } from '../protocol/session.ts';
import type { ClientEvents } from './events.ts';
import { runClientMiddleware, type ClientMiddleware } from './middleware.ts';
import { ServerRequests, type ClientRequestContext, type ServerRequestSources } from './server-requests.ts';
import type { Subscriptions } from './subscription.ts';

/** The parts of its Client an inbound message reaches. */
export interface ClientInboundParts extends ServerRequestSources {
  /** The client's middleware, outermost first; read at each request (`use` may add more). */
  middleware: readonly ClientMiddleware[];
  events: ClientEvents;
  subscriptions: Subscriptions;
  /** The client's pinned revision, if any: a request's context when the session has none yet. */
  protocolVersion: string | undefined;
  /** Called on `notifications/tools/list_changed`, before listeners hear of it. */
  handleToolsListChanged: () => void;
}

/** Routes one Client's inbound requests and notifications; one per Client, over all its connections. */
export class ClientInbound {
  #parts: ClientInboundParts;
  #serverRequests: ServerRequests;

  constructor(parts: ClientInboundParts) {
    this.#parts = parts;
    this.#serverRequests = new ServerRequests(parts);
  }

  /** Answers a server request through the middleware chain and the matching handler. */
  handleRequest(session: Session, request: InboundRequest): Promise<JsonObject> {
    const ctx: ClientRequestContext = {
      signal: request.signal,
      requestId: request.id,
      meta: (request.params._meta as JsonObject | undefined) ?? {},
      protocolVersion: session.protocolVersion ?? this.#parts.protocolVersion ?? HANDSHAKE_VERSIONS[0],
    };
    const wrapped = {
      direction: 'inbound' as const,
      method: request.method,
      params: request.params as JsonObject | undefined,
    };
    const handler = (params: JsonObject | undefined) =>
      this.#serverRequests.handle({ method: request.method, params: params ?? {} }, ctx);
    return runClientMiddleware(wrapped, { chain: this.#parts.middleware, handler });
  }

  /** Hands a notification to the subscriptions, the tool calls and the event listeners. */
  handleNotification(method: string, params: JsonObject): void {
    const { events, subscriptions } = this.#parts;
    if (method === 'notifications/subscriptions/acknowledged') return subscriptions.acknowledge(params);
    if (method === 'notifications/tools/list_changed') this.#parts.handleToolsListChanged();
    // ELIC-11: unknown or already completed elicitation ids are ignored.
    if (
      method === 'notifications/elicitation/complete' &&
      !this.#serverRequests.completeElicitation(params.elicitationId)
    )
      return;
    events.emitNotification(method, params);
  }

  /** The connection ended: open elicitations are forgotten and `close` listeners told. */
  handleClose(error: Error | undefined): void {
    this.#serverRequests.clear();
    this.#parts.events.emit('close', error ? { error } : {});
  }
}
