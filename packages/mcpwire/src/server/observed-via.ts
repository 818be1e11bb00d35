// A request served without a session, as the wire observer sees it: the request, its notifications
// and its response reported as one connection's traffic (the test suite checks every message our
// server sends against the schema of the revision in force). Made only while an observer is installed.

import type {
  JsonObject,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
  SendOptions,
} from '../jsonrpc/message.ts';
import { isStatelessClaim } from '../protocol/envelope.ts';
import type { Principal } from '../protocol/principal.ts';
import { observeWire, type WireEvent } from '../protocol/wire-observer.ts';
import type { RequestVia } from '../transports/channel.ts';
import { ASSUMED_VERSION } from './sessionless-scope.ts';

/** A via that reports the request and everything sent for it to the wire observer. */
export class ObservedVia implements RequestVia {
  readonly #via: RequestVia;
  /** The connection identity the observer groups this request's traffic by. */
  readonly #connection = {};

  constructor(request: JsonRpcRequest, via: RequestVia) {
    this.#via = via;
    const version = isStatelessClaim(request.params) ? '2026-07-28' : via.protocolVersion;
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

  /** Reports the response to `request`. */
  observe(request: JsonRpcRequest, response: JsonRpcResponse): void {
    this.#report('sent', response, this.#versionOfAnswer(request, response));
  }

  /**
   * The revision the answer is checked under: 2026-07-28 for a stateless-era request (as a dual-era
   * session reports it), else the negotiated one, or the one `initialize` chose.
   */
  #versionOfAnswer(request: JsonRpcRequest, response: JsonRpcResponse): string | undefined {
    if (isStatelessClaim(request.params)) return '2026-07-28';
    if (request.method !== 'initialize') return this.#via.protocolVersion ?? ASSUMED_VERSION;
    const chosen = 'result' in response ? response.result.protocolVersion : undefined;
    return typeof chosen === 'string' ? chosen : undefined;
  }

  #report(direction: 'sent' | 'received', message: WireEvent['message'], version: string | undefined): void {
    observeWire({
      connection: this.#connection,
      role: 'server',
      direction,
      protocolVersion: version,
      message,
    });
  }
}
