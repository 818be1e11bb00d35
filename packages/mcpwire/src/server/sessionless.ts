// One request served without a session (`ServerCore.serveRequest`), for transports that keep none: a
// stateless-era request as always (modern.ts), a handshake-era one in the revision the transport says
// the client negotiated, through the same inbound check, middleware and handler table as a session's
// requests. What needs a session is refused by the ordinary checks: asking the client anything fails
// as an undeclared client capability (the client's capabilities are unknown), and notifications
// unrelated to the request have nowhere to go.

import type { JsonObject, JsonRpcRequest, JsonRpcResponse, SendOptions } from '../jsonrpc/message.ts';
import { ErrorCode, failureResponse, RpcError } from '../jsonrpc/rpc-error.ts';
import { CapabilityNotNegotiatedError, ProtocolStateError } from '../protocol/capabilities.ts';
import { adaptResultForRevision } from '../protocol/downgrade.ts';
import { isModernClaim } from '../protocol/envelope.ts';
import { checkInbound, type InboundScope } from '../protocol/inbound-check.ts';
import type {
  EmptyResult,
  InitializeRequestParams,
  InitializeResult,
  LoggingLevel,
  SetLevelRequestParams,
} from '../protocol/types/index.ts';
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

/** Serves `request` and resolves with its response; a handler's failure becomes an error response. */
export async function serveSessionless(
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
  const inbound: ModernRequest = {
    id,
    method,
    params,
    get signal() {
      return via.signal;
    },
    get isCancelled() {
      return via.isCancelled;
    },
  };
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

  initialize(params: InitializeRequestParams): InitializeResult {
    return answerInitialize(this.server, params).result;
  }

  setLevel(params: SetLevelRequestParams): EmptyResult {
    requestedLevel(params);
    return {};
  }

  subscribe(): EmptyResult {
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
