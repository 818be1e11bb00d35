// The one way a request reaches the server's handlers, in either era and on any transport:
// `serve(host, request, scope)` runs the inbound check, builds the request context, and calls the
// middleware chain and the handler table (`ServerCore.dispatch`). Transports differ only in the scope
// they pass: a handshake-era session's (server-session.ts, one object per connection), a stateless
// request's (its `_meta` envelope, stateless.ts), or a request served without a session
// (`ServerCore.serveRequest`: the revision its transport says the client negotiated).

import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.ts';
import { ErrorCode, failureResponse, RpcError } from '../jsonrpc/rpc-error.ts';
import { adaptResultForRevision } from '../protocol/downgrade.ts';
import { initializeRefusal, isStatelessClaim } from '../protocol/envelope.ts';
import { hasFeature } from '../protocol/revisions.ts';
import { checkInbound, type InboundScope } from '../protocol/inbound-check.ts';
import type { Principal } from '../protocol/principal.ts';
import type { ClientCapabilities, Implementation } from '../protocol/types/index.ts';
import { isWireObserved } from '../protocol/wire-observer.ts';
import type { RequestVia } from '../transports/channel.ts';
import type { RequestOrigin } from './method-handlers.ts';
import {
  serveStateless,
  type StatelessHost,
  type StatelessRequest,
  type StatelessStream,
} from './stateless.ts';
import { ObservedVia } from './observed-via.ts';
import { createRequestContext, type ContextOutput } from './request-context.ts';
import { requestClientCapabilities } from './request-capabilities.ts';
import { SessionlessScope, type SessionlessHost } from './sessionless-scope.ts';

export type { SessionlessHost };

/** A stateless-era request's scope: its facts come with it; what it sends goes to its stream. */
export interface StatelessScope {
  readonly era: 'stateless';
  readonly stream: StatelessStream;
}

/**
 * A handshake-era request's scope: what the session (or, without one, the transport) knows of the
 * client, and where the request's output goes. A session keeps one for the connection.
 */
export interface HandshakeScope {
  readonly era: 'handshake';
  /** What the inbound check reads: lifecycle, the negotiated revision, the server's capabilities. */
  readonly inbound: InboundScope;
  /** The revision the handler sees. */
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** Who sent `requestId`, as the transport authenticated it (becomes `ctx.auth`). */
  principalOf(requestId: StatelessRequest['id']): Principal | undefined;
  /** The request's output and origin (notifications, log level, input, the connection); one per request. */
  outputFor(request: StatelessRequest): ContextOutput & RequestOrigin;
}

/** Where a request comes from: one of the two eras' scopes. */
export type RequestScope = StatelessScope | HandshakeScope;

/**
 * Serves one request that passed no check yet: check -> context -> middleware -> handler table.
 * Resolves with the result (adapted to the handshake-era revision), or rejects with the RpcError to
 * answer (anything else a handler throws is the caller's -32603). Every inbound request of a Server
 * comes through here; nothing else calls the handler table. The result is a plain value, not a
 * promise, only where `dispatch` answered with one (no middleware, the method's core handler
 * unwrapped, a synchronous result): the caller answers it without a turn of the event loop.
 */
export function serve(
  host: StatelessHost,
  request: StatelessRequest,
  scope: RequestScope,
): Promise<JsonObject> | JsonObject {
  // Not an async function: a 2025-06-18-or-later result goes back as the handler's own promise (or
  // plain value), with no wrapper promise and no extra turn per request. A synchronous throw still
  // rejects.
  try {
    if (scope.era === 'stateless') return serveStateless(host, request, scope.stream);
    const { method, params } = request;
    if (host.eras !== undefined && host.eras !== 'both') checkEra(host, method, params);
    checkInbound(host.methods.lookup(method), request, scope.inbound);
    const output = scope.outputFor(request);
    const version = scope.protocolVersion;
    const meta = params._meta as JsonObject | undefined;
    const ctx = createRequestContext(
      {
        era: 'handshake',
        protocolVersion: version,
        clientCapabilities:
          meta === undefined
            ? scope.clientCapabilities
            : requestClientCapabilities(scope.clientCapabilities, meta),
        clientInfo: scope.clientInfo,
        request,
        meta: meta ?? {},
        auth: scope.principalOf(request.id),
      },
      output,
    );
    const result = host.dispatch(method, params, ctx, output);
    if (hasFeature(version, 'resourceLink')) return result;
    if (!(result instanceof Promise)) return adaptResultForRevision(method, result, version);
    return result.then((value) => adaptResultForRevision(method, value, version));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Throws the error a server restricted to one era answers a handshake-era request with: on a
 * handshake-only server, a 2026-07-28 method is unknown (-32601, as a 2025 server answers
 * `server/discover`); on a 2026-07-28-only server, `initialize` is refused with -32022 naming the
 * versions it serves (S26-VER-2, S26-VER-5).
 */
function checkEra(host: StatelessHost, method: string, params: JsonObject): void {
  if (host.eras === 'handshake' && host.methods.isStatelessOnly(method))
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`);
  if (host.eras === 'stateless' && method === 'initialize') throw initializeRefusal(params.protocolVersion);
}

/**
 * Serves `request` without a session (`ServerCore.serveRequest`): `via` is its scope (the revision
 * the client negotiated, if any) and its way back. Resolves with its response, a handler's failure
 * included; never rejects. With a wire observer installed (the test suite's schema check), the
 * request, its notifications and its response are reported as one connection's traffic.
 */
export function serveRequest(
  host: SessionlessHost,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonRpcResponse> {
  if (!isWireObserved()) return serveAndAnswer(host, request, via);
  const observed = new ObservedVia(request, via);
  return serveAndAnswer(host, request, observed).then((response) => {
    observed.observe(request, response);
    return response;
  });
}

async function serveAndAnswer(
  host: SessionlessHost,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonRpcResponse> {
  const { id, method } = request;
  const params = request.params ?? {};
  const inbound = new ViaRequest(request, params, via);
  // A stateless-only method without a claim is a broken stateless request (-32602).
  // A handshake-only server ignores the claim, as a 2025 server would (`serve` refuses a 2026 method).
  const isStateless =
    host.eras !== 'handshake' && (isStatelessClaim(params) || host.methods.isStatelessOnly(method));
  try {
    const scope: RequestScope = isStateless
      ? { era: 'stateless', stream: via }
      : new SessionlessScope(host, method, via);
    return { jsonrpc: '2.0', id, result: await serve(host, inbound, scope) };
  } catch (error) {
    // A cancelled request's failure is the cancellation itself, not a crash worth reporting.
    if (via.isCancelled && !(error instanceof RpcError))
      return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Cancelled' } };
    return failureResponse(id, method, error, (failure) => host.reportError(failure));
  }
}

/** The request as the handler layer sees it: its signal and cancellation are the via's. */
class ViaRequest implements StatelessRequest {
  readonly id: JsonRpcRequest['id'];
  readonly method: string;
  readonly params: JsonObject;
  readonly #via: RequestVia;

  constructor(request: JsonRpcRequest, params: JsonObject, via: RequestVia) {
    this.id = request.id;
    this.method = request.method;
    this.params = params;
    this.#via = via;
  }

  get signal(): AbortSignal {
    return this.#via.signal;
  }

  get isCancelled(): boolean {
    return this.#via.isCancelled;
  }
}
