// The server's one handler table: every core request a client may send, each served here, in both
// eras, behind the same middleware. Its type is derived from the method table, so a core method
// without a handler does not compile (method-handlers.types.test.ts). Extensions add their own rows.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type { InboundRequestMethod, ParamsOf, ResultOf } from '../protocol/method-types.ts';
import { STATELESS_VERSIONS } from '../protocol/revisions.ts';
import type {
  DiscoverResult,
  EmptyResult,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  LoggingLevel,
  ServerCapabilities,
  SetLevelRequestParams,
  SubscribeRequestParams,
  SubscriptionsListenResult,
} from '../protocol/types/index.ts';
import type { RequestContext } from './context.ts';
import type { Tools } from './tools.ts';

/** What the core handlers use of their Server. */
export interface HandlerHost {
  readonly info: Implementation;
  readonly options: { readonly instructions?: string };
  readonly tools: Tools;
  readonly pageSize: number;
  capabilities(): ServerCapabilities;
}

/** The handshake-era connection's own state, for the methods scoped to it. */
export interface HandshakeConnection {
  initialize(params: InitializeRequestParams): InitializeResult | Promise<InitializeResult>;
  setLevel(params: SetLevelRequestParams): EmptyResult | Promise<EmptyResult>;
  subscribe(params: SubscribeRequestParams, isSubscribe: boolean): EmptyResult | Promise<EmptyResult>;
  /**
   * Sends a request to the client on this connection, tied to no inbound request: for work that
   * outlives the request that started it (a task's input, TASK-9). Checked like any server request.
   */
  sendRequest(method: string, params: JsonObject, options?: { signal?: AbortSignal }): Promise<JsonObject>;
  /** Sends a notification to the client on this connection (checked against the method table). */
  sendNotification(method: string, params: JsonObject): Promise<void>;
  /** The level the client chose with `logging/setLevel`, if any (work that outlives a request filters by it). */
  readonly logLevel: LoggingLevel | undefined;
  /**
   * An id of this handshake-era session, unguessable and unique in the process, for state that
   * belongs to the session when the client has no principal (a task, TASK-19); undefined for a
   * request served without a session (createSessionlessHandler).
   */
  readonly sessionId: string | undefined;
}

/**
 * Where a request arrived: the server, and the connection (handshake era) or the request's own
 * stream (stateless era). The object that carries a context's output, so nothing extra is made.
 */
export interface RequestOrigin {
  readonly server: HandlerHost;
  /** The handshake-era connection; undefined for a stateless request. */
  readonly connection: HandshakeConnection | undefined;
  /** Serves `subscriptions/listen` on the stateless request's own stream; absent in the handshake era. */
  listen?(): Promise<SubscriptionsListenResult>;
}

/**
 * One row of the handler table: params (checked against the method's row) in, result out. Throw
 * RpcError for protocol errors; anything else becomes -32603. Untyped (JSON objects) by default, as
 * an extension's handlers are; a core method's handler is typed from its row (CoreHandler).
 */
export type ServerMethodHandler<Params = JsonObject, Result = JsonObject> = (
  params: Params,
  ctx: RequestContext,
  origin: RequestOrigin,
) => Promise<Result>;

/** The core requests a server receives, derived from the method table. */
export type ServedMethod = InboundRequestMethod<'server'>;

/**
 * The handler of core method `M`: its row's params in (already checked against the row's shape),
 * its row's result out, so `{ content: 42 }` as a tools/call result does not compile.
 */
export type CoreHandler<M extends ServedMethod> = ServerMethodHandler<
  ParamsOf<M>,
  HandlerResult<ResultOf<M>>
>;

/** The fields the stateless-era dispatcher adds to a complete result (S26-CACHE-1, stateless.ts). */
type DecoratedKey = 'resultType' | 'ttlMs' | 'cacheScope';

/**
 * What a handler returns for a result type `R`: `R` with the fields the dispatcher adds made
 * optional (a handler may set its own `ttlMs`, as a resource's `cache` option does; it need not).
 */
export type HandlerResult<R> = { [K in keyof R as K extends DecoratedKey ? never : K]: R[K] } & {
  [K in DecoratedKey & keyof R]?: R[K];
};

/** A handler for every core request a server receives, each typed from its row; a missing one is a type error. */
export type CoreHandlers = { readonly [M in ServedMethod]: CoreHandler<M> };

/**
 * The methods of the resources, prompts and completions features: served by `Server`
 * (feature-handlers.ts), not by `ServerCore`, so a server of tools bundles none of their code.
 */
export type FeatureMethod =
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete';

/** The handlers of the feature methods; with {@link CORE_HANDLERS}, every core method has one. */
export type FeatureHandlers = Pick<CoreHandlers, FeatureMethod>;

/** The connection-scoped methods exist only on a handshake-era connection (their rows end at 2025-11-25). */
function connectionOf(origin: RequestOrigin, method: string): HandshakeConnection {
  if (origin.connection) return origin.connection;
  throw new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`);
}

/**
 * Tasks are described (TASK-*, S26-TASK-*) and served by an extension that replaces these through
 * `wraps` (`tasks()` of `mcpwire/extensions/tasks`); without one the gate refuses them before this.
 */
function notServed<Result>(_params: unknown, ctx: RequestContext): Promise<Result> {
  return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: "${ctx.method}"`));
}

/** The core handler table, the feature methods aside (FeatureHandlers). Order follows METHODS. */
export const CORE_HANDLERS: Omit<CoreHandlers, FeatureMethod> = {
  initialize: (params, _ctx, origin) =>
    Promise.resolve(connectionOf(origin, 'initialize').initialize(params)),
  // PING-2: an empty result, promptly, in any lifecycle state.
  ping: () => Promise.resolve({}),
  'server/discover': (_params, _ctx, { server }) => {
    const result: HandlerResult<DiscoverResult> = {
      supportedVersions: [...STATELESS_VERSIONS],
      capabilities: server.capabilities(),
    };
    if (server.options.instructions !== undefined) result.instructions = server.options.instructions;
    return Promise.resolve(result);
  },
  'tools/list': (params, _ctx, { server }) => Promise.resolve(server.tools.list(params, server.pageSize)),
  'tools/call': (params, ctx, { server }) => server.tools.call(params, ctx),
  'resources/subscribe': (params, _ctx, origin) =>
    Promise.resolve(connectionOf(origin, 'resources/subscribe').subscribe(params, true)),
  'resources/unsubscribe': (params, _ctx, origin) =>
    Promise.resolve(connectionOf(origin, 'resources/unsubscribe').subscribe(params, false)),
  'logging/setLevel': (params, _ctx, origin) =>
    Promise.resolve(connectionOf(origin, 'logging/setLevel').setLevel(params)),
  'subscriptions/listen': (_params, _ctx, origin) =>
    origin.listen
      ? origin.listen()
      : Promise.reject(new RpcError(ErrorCode.MethodNotFound, 'Method not found: "subscriptions/listen"')),
  'tasks/get': notServed,
  'tasks/result': notServed,
  'tasks/list': notServed,
  'tasks/cancel': notServed,
  'tasks/update': notServed,
};

/**
 * A handler that may answer with a plain value instead of a promise: ServerCore.dispatch calls one in
 * place of the table's handler only when that is still the core handler (no extension wraps or
 * replaces the method) and no middleware is registered, so nothing that expects a promise sees it.
 */
export type PlainHandler = (
  params: JsonObject,
  ctx: RequestContext,
  origin: RequestOrigin,
) => Promise<JsonObject> | JsonObject;

/** The core methods with a plain-value twin of their {@link CORE_HANDLERS} entry. */
export const PLAIN_HANDLERS: { readonly [M in 'tools/call']: PlainHandler } = {
  'tools/call': (params, ctx, { server }) =>
    // Checked against the tools/call row by the inbound check, as CORE_HANDLERS' params are.
    server.tools.callPlain(params as unknown as ParamsOf<'tools/call'>, ctx) as
      JsonObject | Promise<JsonObject>,
};
