// Public entry of `mcpwire/client`: the Client, its options, handler and event types, and its local errors.

export { Client } from './client.ts';
export type { ClientOptions, ListAllOptions } from './client-options.ts';
export type { ClientExtension, ClientExtensionPart } from './extension.ts';
export type { ElicitationMode } from './client-capabilities.ts';
export type { ClientHandlers, ClientRequestContext } from './server-requests.ts';
export type { ClientEvent, ClientEventMap, ClientListener } from './events.ts';
export type { ClientMiddleware, ClientMiddlewareRequest } from './middleware.ts';
export {
  ConnectClosedError,
  ConnectTimeoutError,
  InvalidResultError,
  NotConnectedError,
  OutputValidationError,
  PaginationLimitError,
  UnsupportedProtocolVersionError,
  type ConnectStep,
} from './errors.ts';
export type { RequestOptions } from '../protocol/session.ts';
export type { Progress, ProgressHandler } from '../protocol/progress.ts';
export { CapabilityNotNegotiatedError, ProtocolStateError } from '../protocol/capabilities.ts';
export {
  ConnectionClosedError,
  MessageTooLargeError,
  RequestCancelledError,
  RequestTimeoutError,
} from '../jsonrpc/errors.ts';
export { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
export type { Channel, Transport } from '../transports/channel.ts';
export { Subscription, type SubscriptionFilter } from './subscription.ts';
export {
  createEraCache,
  defaultEraCache,
  type EraCache,
  type EraKeyed,
  type EraVerdict,
} from './era-probe.ts';
export type { EraChoice } from './establish.ts';
