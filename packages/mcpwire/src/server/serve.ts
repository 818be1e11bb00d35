// One request served on its own (`ServerCore.serveRequest`), for every transport that keeps no session
// for it: a stateless-era request (modern.ts) wherever it arrives on HTTP, and a handshake-era one in the
// revision the transport says the client negotiated, through the same inbound check, middleware and
// handler table as a session's requests. The caller's `via` is the request's scope (that revision) and
// its sink (notifications on its stream, its cancellation, its sender); nothing else is made per request.
// What needs a session is refused by the ordinary checks: asking the client anything fails as an
// undeclared client capability (the client's capabilities are unknown), and notifications unrelated
// to the request have nowhere to go.

import type {
  JsonObject,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
  SendOptions,
} from '../jsonrpc/message.ts';
import { ErrorCode, failureResponse, RpcError } from '../jsonrpc/rpc-error.ts';
import { CapabilityNotNegotiatedError, ProtocolStateError } from '../protocol/capabilities.ts';
import { adaptResultForRevision } from '../protocol/downgrade.ts';
import { isModernClaim } from '../protocol/envelope.ts';
import { checkInbound, type InboundScope } from '../protocol/inbound-check.ts';
import type { LoggingLevel } from '../protocol/types/index.ts';
import type { Principal } from '../protocol/principal.ts';
import { isWireObserved, observeWire, type WireEvent } from '../protocol/wire-observer.ts';
import type { RequestVia } from '../transports/channel.ts';
import type { InputBroker } from './context.ts';
import { answerInitialize, requestedLevel } from './handshake.ts';
import type { LegacyConnection, RequestOrigin } from './method-handlers.ts';
import { serveModern, type ModernHost, type ModernRequest } from './modern.ts';
import { createRequestContext, type ContextOutput } from './request-context.ts';

/** What serving a request without a session needs of the server definition. */
export interface SessionlessHost extends ModernHost {
  capabilitiesAt(version: string): object;
  reportError(error: Error): void;
}

/** The revision a handshake-era request without a stated one is served in (HTTP-34). */
const ASSUMED_VERSION = '2025-03-26';

/**
 * Serves `request` and resolves with its response; a handler's failure becomes an error response.
 * Never rejects. With a wire observer installed (the test suite's schema check), the request, its
 * notifications and its response are reported as one connection's traffic.
 */
export function serveRequest(
  host: SessionlessHost,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonRpcResponse> {
  if (!isWireObserved()) return serveAndAnswer(host, request, via);
  const observed = new ObservedVia(request, via);
  return serveAndAnswer(host, request, observed).then((response) => {
    observed.observe(response, versionOfAnswer(request, via, response));
    return response;
  });
}

async function serveAndAnswer(
  host: SessionlessHost,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonRpcResponse> {
  const { id, method } = request;
  try {
    return { jsonrpc: '2.0', id, result: await serveOne(host, request, via) };
  } catch (error) {
    // A cancelled request's failure is the cancellation itself, not a crash worth reporting.
    if (via.isCancelled && !(error instanceof RpcError))
      return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Cancelled' } };
    return failureResponse(id, method, error, (failure) => host.reportError(failure));
  }
}

async function serveOne(
  host: SessionlessHost,
  request: JsonRpcRequest,
  via: RequestVia,
): Promise<JsonObject> {
  const { id, method } = request;
  const params = request.params ?? {};
  const inbound = new ViaRequest(request, params, via);
  if (isModernClaim(params) || host.methods.isStatelessOnly(method)) return serveModern(host, inbound, via);
  // The handshake era: `initialize` is answered as ever (the client keeps no session of ours either);
  // anything else is served in the revision the client negotiated.
  const isInitialize = method === 'initialize';
  const version = via.protocolVersion ?? ASSUMED_VERSION;
  const scope: InboundScope = {
    receiver: 'server',
    era: 'legacy',
    protocolVersion: isInitialize ? undefined : version,
    ownCapabilities: host.capabilitiesAt(version),
  };
  checkInbound(host.methods.lookup(method), request, scope);
  const output = new SessionlessOutput(host, via);
  const ctx = createRequestContext(
    {
      era: 'legacy',
      protocolVersion: version,
      clientCapabilities: {},
      clientInfo: undefined,
      request: inbound,
      meta: (params._meta as JsonObject | undefined) ?? {},
      auth: via.principalOf(id),
    },
    output,
  );
  const result = await host.dispatch(method, params, ctx, output);
  return isInitialize ? result : adaptResultForRevision(method, result, version);
}

/** The request as the handler layer sees it: its signal and cancellation are the via's. */
class ViaRequest implements ModernRequest {
  readonly id: RequestId;
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

/**
 * The revision a request's traffic is checked under: 2026-07-28 for a stateless-era request (as a
 * dual-era session reports it), else the negotiated one, or the one `initialize` chose.
 */
function versionOfAnswer(
  request: JsonRpcRequest,
  via: RequestVia,
  response: JsonRpcResponse,
): string | undefined {
  if (isModernClaim(request.params)) return '2026-07-28';
  if (request.method !== 'initialize') return via.protocolVersion ?? ASSUMED_VERSION;
  const chosen = 'result' in response ? response.result.protocolVersion : undefined;
  return typeof chosen === 'string' ? chosen : undefined;
}

/** A via that reports the request and everything sent for it to the wire observer. */
class ObservedVia implements RequestVia {
  readonly #via: RequestVia;
  /** The connection identity the observer groups this request's traffic by. */
  readonly #connection = {};

  constructor(request: JsonRpcRequest, via: RequestVia) {
    this.#via = via;
    const version = isModernClaim(request.params) ? '2026-07-28' : via.protocolVersion;
    this.#report('received', { type: 'message', message: request }, version);
  }

  get protocolVersion(): string | undefined {
    return this.#via.protocolVersion;
  }

  get signal(): AbortSignal {
    return this.#via.signal;
  }

  get isCancelled(): boolean {
    return this.#via.isCancelled;
  }

  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void> {
    this.#report('sent', { jsonrpc: '2.0', method, params }, undefined);
    return this.#via.notify(method, params, options);
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return this.#via.principalOf(requestId);
  }

  observe(response: JsonRpcResponse, version: string | undefined): void {
    this.#report('sent', response, version);
  }

  #report(direction: 'sent' | 'received', message: WireEvent['message'], version: string | undefined): void {
    observeWire({ connection: this.#connection, role: 'server', direction, protocolVersion: version, message });
  }
}

/** A handshake-era request's output and origin without a session: its own stream, and nothing more. */
class SessionlessOutput implements ContextOutput, RequestOrigin, LegacyConnection {
  readonly server: SessionlessHost;
  readonly #via: RequestVia;

  constructor(host: SessionlessHost, via: RequestVia) {
    this.server = host;
    this.#via = via;
  }

  get connection(): LegacyConnection {
    return this;
  }

  notify(method: string, params: JsonObject, options: SendOptions): Promise<void> {
    return this.#via.notify(method, params, options);
  }

  /** No `logging/setLevel` is remembered: every level is sent, as to a client that set none. */
  isLogEnabled(): boolean {
    return true;
  }

  readonly logLevel: LoggingLevel | undefined = undefined;

  /** No session: a task created here without a principal is reachable by its id alone. */
  readonly sessionId: string | undefined = undefined;

  get broker(): InputBroker {
    return { request: (method) => Promise.reject(notAskable(this.server, method)) };
  }

  initialize(params: JsonObject): JsonObject {
    return answerInitialize(this.server, params).result;
  }

  setLevel(params: JsonObject): JsonObject {
    requestedLevel(params);
    return {};
  }

  subscribe(): JsonObject {
    return {};
  }

  sendRequest(method: string): Promise<JsonObject> {
    return Promise.reject(notAskable(this.server, method));
  }

  sendNotification(method: string): Promise<void> {
    return Promise.reject(
      new ProtocolStateError(`Cannot send "${method}": there is no session to send it on`),
    );
  }
}

/** The error of asking a client whose capabilities are unknown: its gate was not negotiated. */
function notAskable(host: SessionlessHost, method: string): Error {
  const gate = host.methods.lookup(method)?.gate;
  return gate
    ? new CapabilityNotNegotiatedError(method, gate)
    : new ProtocolStateError(`Cannot send "${method}": there is no session to send it on`);
}
