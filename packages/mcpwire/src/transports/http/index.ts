// The public Streamable HTTP server API (`mcpwire/http`): a web-standard `(Request) => Promise<Response>`
// handler serving both protocol eras on one endpoint, and its pluggable event store. Runtime-neutral;
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
} from './options.ts';
export type { RequestServer, RequestVia } from '../channel.ts';
export {
  InMemoryEventStore,
  type EventStore,
  type InMemoryEventStoreOptions,
  type StoredEvent,
} from './event-store.ts';
export { LOOPBACK_HOSTNAMES } from './security.ts';
export { decodeHeaderValue } from './request-headers.ts';
export { encodeSseEvent, createSseEncoder, type SseEvent } from './sse-writer.ts';
export {
  createLegacySseHandler,
  type LegacySseHandler,
  type LegacySseHandlerOptions,
} from './legacy-sse-server.ts';
export * from './client-index.ts';
