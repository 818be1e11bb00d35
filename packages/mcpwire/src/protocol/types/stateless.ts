// What 2026-07-28 ("stateless", no handshake) adds to the wire: the per-request `_meta` envelope, result types,
// multi round-trip requests (MRTR), caching hints, `server/discover`, `subscriptions/listen` and new error codes.

import type { Implementation, MetaObject, ProgressToken, RequestId, Result } from './base.ts';
import type { ClientCapabilities, ServerCapabilities } from './capabilities.ts';
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from './elicitation.ts';
import type { LoggingLevel } from './logging.ts';
import type { ListRootsResult } from './roots.ts';
import type { CreateMessageRequestParams, CreateMessageResult } from './sampling.ts';

/**
 * Reserved `_meta` keys. `relatedTask` is 2025-11-25's (tasks); the others are 2026-07-28's envelope: every
 * request carries `protocolVersion` and `clientCapabilities` (and should carry `clientInfo`), every result
 * should carry `serverInfo`, and everything on a `subscriptions/listen` stream carries `subscriptionId`.
 */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  relatedTask: 'io.modelcontextprotocol/related-task',
} as const;

/** Error codes 2026-07-28 defines in its reserved range -32020..-32099 (each answered with HTTP 400). */
export const StatelessErrorCode = {
  /** A `Mcp-Method`/`Mcp-Name`/`x-mcp-header` header is missing or disagrees with the body. */
  HeaderMismatch: -32020,
  /** Serving the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol version is not served; `data` is `UnsupportedProtocolVersionErrorData`. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The `data` of a -32022 error: what the server serves and an echo of what was asked. */
export interface UnsupportedProtocolVersionErrorData {
  supported: string[];
  requested: string;
  [key: string]: unknown;
}

/** The `data` of a -32021 error: the missing capabilities as a capabilities object, e.g. `{ elicitation: {} }`. */
export interface MissingRequiredClientCapabilityErrorData {
  requiredCapabilities: ClientCapabilities;
  [key: string]: unknown;
}

/** The `_meta` every 2026-07-28 request must carry; a request without it gets -32602. */
export interface RequestMetaObject extends MetaObject {
  [MetaKey.protocolVersion]: string;
  /** `{}` means no optional capabilities. */
  [MetaKey.clientCapabilities]: ClientCapabilities;
  [MetaKey.clientInfo]?: Implementation;
  /** Asks for `notifications/message` at this level or above on this request's stream (deprecated). */
  [MetaKey.logLevel]?: LoggingLevel;
  progressToken?: ProgressToken;
}

/** The `_meta` of a 2026-07-28 notification. */
export interface NotificationMetaObject extends MetaObject {
  /** The id of the `subscriptions/listen` request whose stream carries the notification. */
  [MetaKey.subscriptionId]?: RequestId;
}

/** The `_meta` of a 2026-07-28 result. */
export interface ResultMetaObject extends MetaObject {
  [MetaKey.serverInfo]?: Implementation;
}

/**
 * What kind of result this is; required on every 2026-07-28 result, and a missing one means `"complete"`.
 * Extensions add values (the tasks extension's `"task"`); a client rejects values it did not opt in to.
 */
export type ResultType = 'complete' | 'input_required' | (string & Record<never, never>);

/**
 * A request the server needs the client to fulfil before it can finish (not a JSON-RPC message: no `jsonrpc`,
 * no `id`). URL elicitations carry no `elicitationId` and no request carries `task` in 2026-07-28.
 */
export type InputRequest =
  | {
      method: 'elicitation/create';
      params: ElicitRequestFormParams | Omit<ElicitRequestURLParams, 'elicitationId'>;
    }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: { _meta?: MetaObject } };

/** Input requests keyed by server-chosen keys, unique within the request. */
export interface InputRequests {
  [key: string]: InputRequest;
}

/** The answer to one input request. In 2026-07-28 these carry no `resultType`. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** Answers keyed by the `inputRequests` keys they answer. */
export interface InputResponses {
  [key: string]: InputResponse;
}

/**
 * What `tools/call`, `resources/read` or `prompts/get` may return instead of a complete result: the client
 * gathers the inputs and re-sends the same request with a new id, `inputResponses` and the echoed `requestState`.
 * At least one of `inputRequests` and `requestState` is present.
 */
export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  /** Opaque; echoed byte for byte, never parsed. */
  requestState?: string;
  _meta?: ResultMetaObject;
}

/** Fields a retried MRTR request adds to its params. */
export interface InputResponseRequestParams {
  _meta: RequestMetaObject;
  inputResponses?: InputResponses;
  requestState?: string;
}

/** Caching hints on complete results of discover, list and read requests. */
export interface CacheableResult extends Result {
  resultType: ResultType;
  /** Milliseconds the result stays fresh; an integer >= 0, where 0 means immediately stale. */
  ttlMs: number;
  /** `"private"` results may be reused only within the same authorization context. */
  cacheScope: 'public' | 'private';
  _meta?: ResultMetaObject;
}

/** Result of `server/discover`: which versions and capabilities the server has. */
export interface DiscoverResult extends CacheableResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** Which notifications a `subscriptions/listen` stream should carry; each kind is opt-in. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  /** URIs to receive `notifications/resources/updated` for. */
  resourceSubscriptions?: string[];
}

/** Params of `subscriptions/listen`. */
export interface SubscriptionsListenRequestParams {
  _meta: RequestMetaObject;
  notifications: SubscriptionFilter;
}

/** The result that gracefully ends a listen stream. */
export interface SubscriptionsListenResult extends Result {
  resultType: ResultType;
  _meta: ResultMetaObject & { [MetaKey.subscriptionId]: RequestId };
}

/** Params of `notifications/subscriptions/acknowledged`: the subset of the filter the server will honour. */
export interface SubscriptionsAcknowledgedNotificationParams {
  _meta?: NotificationMetaObject;
  notifications: SubscriptionFilter;
}
