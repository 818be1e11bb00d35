// A handshake-era request served without a session (`ServerCore.serveRequest`): its scope is the
// revision its transport says the client negotiated (2025-03-26 when none, HTTP-34) and nothing else;
// its output is its own stream. What needs a session is refused by the ordinary checks: asking the
// client anything fails as an undeclared client capability (the client's capabilities are unknown),
// and notifications unrelated to the request have nowhere to go.

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import { CapabilityNotNegotiatedError, ProtocolStateError } from '../protocol/capabilities.ts';
import type { InboundScope } from '../protocol/inbound-check.ts';
import type { Principal } from '../protocol/principal.ts';
import type {
  ClientCapabilities,
  EmptyResult,
  InitializeRequestParams,
  InitializeResult,
  LoggingLevel,
  SetLevelRequestParams,
} from '../protocol/types/index.ts';
import type { RequestVia } from '../transports/channel.ts';
import type { InputBroker } from './context.ts';
import { answerInitialize, requestedLevel } from './handshake.ts';
import type { HandshakeConnection, RequestOrigin } from './method-handlers.ts';
import type { StatelessHost } from './stateless.ts';
import type { ContextOutput } from './request-context.ts';

/** What serving a request without a session needs of the server definition. */
export interface SessionlessHost extends StatelessHost {
  capabilitiesAt(version: string): object;
  reportError(error: Error): void;
}

/** The revision a handshake-era request without a stated one is served in (HTTP-34). */
export const ASSUMED_VERSION = '2025-03-26';

/**
 * The scope of one handshake-era request without a session (`HandshakeScope` of serve.ts): no
 * lifecycle (`initialize` is answered as ever, the client keeps no session of ours either), no
 * client capabilities or info.
 */
export class SessionlessScope {
  readonly era = 'handshake';
  readonly inbound: InboundScope;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities = {};
  readonly clientInfo = undefined;
  readonly #host: SessionlessHost;
  readonly #via: RequestVia;

  constructor(host: SessionlessHost, method: string, via: RequestVia) {
    this.#host = host;
    this.#via = via;
    const version = via.protocolVersion ?? ASSUMED_VERSION;
    this.protocolVersion = version;
    this.inbound = {
      receiver: 'server',
      era: 'handshake',
      protocolVersion: method === 'initialize' ? undefined : version,
      ownCapabilities: host.capabilitiesAt(version),
    };
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return this.#via.principalOf(requestId);
  }

  outputFor(): ContextOutput & RequestOrigin {
    return new SessionlessOutput(this.#host, this.#via);
  }
}

/** A handshake-era request's output and origin without a session: its own stream, and nothing more. */
class SessionlessOutput implements ContextOutput, RequestOrigin, HandshakeConnection {
  readonly server: SessionlessHost;
  readonly #via: RequestVia;

  constructor(host: SessionlessHost, via: RequestVia) {
    this.server = host;
    this.#via = via;
  }

  get connection(): HandshakeConnection {
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
