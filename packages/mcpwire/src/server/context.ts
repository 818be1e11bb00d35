// The request context every server handler receives: the same shape in both protocol eras.

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from '../protocol/types/index.ts';

/** The era a request arrived in: handshake (2024-11-05 .. 2025-11-25) or stateless (2026-07-28). */
export type Era = 'handshake' | 'stateless';

/**
 * Everything a handler may know and do while serving one request (its functions may be destructured). In the handshake era the
 * client facts come from `initialize`; in the stateless era from the request's own `_meta`.
 * Input requests (elicit, sample, listRoots) are real server->client requests in the handshake
 * era and multi-round-trip `inputRequests` in the stateless era; the handler cannot tell.
 */
export interface RequestContext {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly requestId: RequestId;
  readonly method: string;
  /** Fires when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** True once the request is cancelled: `signal.aborted` without making the signal (cheap to poll). */
  readonly isCancelled: boolean;
  /** The request's `params._meta`, as received. */
  readonly meta: JsonObject;
  /**
   * Who sent the request, as the HTTP transport verified it (a bearer token's subject, client,
   * scopes, expiry and claims, with `bearerAuth` of `mcpwire/auth`); undefined without
   * authentication (stdio, an unprotected endpoint). Never the token itself (SEC-5).
   */
  readonly auth: Principal | undefined;
  /**
   * Reports progress when the client asked for it (`_meta.progressToken`); a no-op otherwise.
   * Values must increase (PROG-3): a non-increasing value is dropped.
   */
  readonly sendProgress: (progress: number, options?: { total?: number; message?: string }) => Promise<void>;
  /** Sends `notifications/message` if `level` passes the client's chosen level; a no-op otherwise. */
  readonly log: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>;
  /** Asks the user through the client (form or URL mode). Rejects if the client lacks the capability. */
  readonly elicit: (params: ElicitRequestParams, options?: InputOptions) => Promise<ElicitResult>;
  /** Asks the client's model for a completion. Rejects if the client lacks the capability. */
  readonly sample: (
    params: CreateMessageRequestParams,
    options?: InputOptions,
  ) => Promise<CreateMessageResult>;
  /** Lists the client's roots. Rejects if the client lacks the capability. */
  readonly listRoots: (options?: InputOptions) => Promise<ListRootsResult>;
  /**
   * Asks the transport to drop the connection carrying this request's messages while the request
   * stays resumable (polling, 2025-11-25, SEP-1699): over Streamable HTTP the server closes the
   * request's event stream connection, and the client reconnects with GET and Last-Event-ID and
   * receives the rest, including the result, so a long-running handler need not hold a connection
   * open. Later progress, logs and the result are kept for that replay. Returns false, doing
   * nothing, where the client could not resume: other transports, revisions before 2025-11-25, a
   * client that accepts JSON only, and the stateless era. (Named `closeSseStream` before issue 23.)
   */
  readonly disconnectForPolling: () => boolean;
  /**
   * Stateless era: the keys of the input requests the previous round asked for, as the verified
   * `requestState` names them (a forged or stale state is refused before the handler runs); empty
   * on a first round, in the handshake era and for methods without input rounds. A handler that
   * keeps work alive across rounds (a proxy's call upstream) finds it by a key it chose.
   */
  readonly askedInputKeys: readonly string[];
  /**
   * Stateless era: what `carryAcrossRounds` sealed into the previous round's requestState (verified,
   * so the client can only echo it or drop it); undefined on a first round, in the handshake era and
   * for methods without input rounds.
   */
  readonly carriedAcrossRounds: string | undefined;
  /**
   * Stateless era: seals `value` into this round's requestState, should the round end needing
   * input; the next round reads it as `carriedAcrossRounds`. A handler that keeps work alive across
   * rounds (a proxy's call upstream) names it here when the input keys are not its own choice. Does
   * nothing in the handshake era and for methods without input rounds.
   */
  readonly carryAcrossRounds: (value: string) => void;
}

/** Options for one input request. */
export interface InputOptions {
  /**
   * A stable name for this input (the `inputRequests` key in the stateless era). Defaults to the
   * call's position among the handler's input requests, which is stable when the handler asks in
   * the same order every time.
   */
  key?: string;
  timeoutMs?: number;
}

/** How a context obtains input from the client; one implementation per era. */
export interface InputBroker {
  /** The keys the previous round asked for, from the verified requestState (`RequestContext.askedInputKeys`). */
  readonly asked?: readonly string[];
  /** What the previous round carried (`RequestContext.carriedAcrossRounds`). */
  readonly carried?: string | undefined;
  /** Keeps `value` for the next round (`RequestContext.carryAcrossRounds`); absent where there are no rounds. */
  carry?(value: string): void;
  request(method: InputMethod, params: JsonObject | undefined, options: InputOptions): Promise<JsonObject>;
}

/** The server->client requests that a handler may make. */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** One inbound request's handler: params in, result out. Throw RpcError for protocol errors. */
export type MethodHandler = (params: JsonObject, ctx: RequestContext) => Promise<JsonObject>;

/**
 * Middleware around the method table: sees every request (method, params, context) and calls
 * `next` to continue, or answers itself. Runs in registration order, outermost first.
 */
export type Middleware = (
  request: { method: string; params: JsonObject; ctx: RequestContext },
  next: () => Promise<JsonObject>,
) => Promise<JsonObject>;

/** Runs `handler` inside the middleware chain. */
export function runMiddleware(
  chain: readonly Middleware[],
  request: { method: string; params: JsonObject; ctx: RequestContext },
  handler: () => Promise<JsonObject>,
): Promise<JsonObject> {
  const step = (index: number): Promise<JsonObject> => {
    const middleware = chain[index];
    return middleware ? middleware(request, () => step(index + 1)) : handler();
  };
  return step(0);
}
