// The public Streamable HTTP server API (`mcpwire/http`): a web-standard `(Request) => Promise<Response>`
// handler serving both protocol eras on one endpoint, and its pluggable event store, session store
// and message bus (handlers sharing the last two serve each other's sessions). Runtime-neutral;
// for Node's http module see `mcpwire/node`.

export { createHttpHandler, type HttpHandler } from './handler.ts';
export { createSessionlessHandler, type SessionlessHandlerOptions } from './sessionless-handler.ts';
export {
  chainHandlers,
  type ChainableHandler,
  type ChainedHandler,
  type ExchangeHandler,
  type HeaderReader,
  type HttpReply,
  type HttpRequestView,
} from './exchange.ts';
export type {
  AuthorizedRequest,
  ChannelServer,
  HttpAuth,
  HttpHandlerOptions,
  Principal,
  ToolSchemaSource,
  FanOutSource,
  ListKind,
} from './options.ts';
export type { RequestServer, RequestVia } from '../channel.ts';
export {
  InMemoryEventStore,
  type EventStore,
  type InMemoryEventStoreOptions,
  type StoredEvent,
} from './event-store.ts';
export {
  InMemorySessionStore,
  type Awaitable,
  type SessionCreateLimits,
  type SessionCreation,
  type SessionRefusal,
  type SessionStore,
  type SessionUpdate,
} from './session-store.ts';
export type { SessionChange, SessionFacts, SessionRecord } from '../../protocol/session-record.ts';
export { StoreUnavailableError } from './store-unavailable.ts';
export {
  HOLDER_STOPPED,
  holderStoppedResponse,
  type LeaseOutcome,
  type RequestLease,
  type RequestLeases,
} from './request-leases.ts';
export { BusTopic, InMemoryMessageBus, type BusListener, type MessageBus } from './message-bus.ts';
export { LOOPBACK_HOSTNAMES } from './security.ts';
export { decodeHeaderValue } from './request-headers.ts';
export { encodeSseEvent, createSseEncoder, type SseEvent } from './sse-writer.ts';
export {
  createLegacySseHandler,
  type LegacySseHandler,
  type LegacySseHandlerOptions,
} from './legacy-sse-server.ts';
export * from './client-index.ts';
