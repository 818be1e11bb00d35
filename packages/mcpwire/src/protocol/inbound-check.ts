// The one inbound check of a request, for both eras: known? right sender and kind? lifecycle? in this
// revision? negotiated? params valid? Derived from the method's row; the wording of each era's errors
// is kept as the handshake-era Session and the stateless dispatcher have always sent it.

import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from './capabilities.ts';
import { canSend, checkParams, isGateRequired, isMethodInRevision, type MethodSpec } from './methods.ts';

/**
 * What the receiving side knows when a request arrives. A handshake-era Session keeps one for the
 * connection; the stateless dispatcher makes one per request (its revision comes with the request).
 */
export interface InboundScope {
  /** The side receiving the request. */
  readonly receiver: 'client' | 'server';
  readonly era: 'handshake' | 'stateless';
  /** The negotiated (handshake) or requested (stateless) revision; undefined before initialize. */
  readonly protocolVersion: string | undefined;
  /** The receiver's declared capabilities: gates on its own side are checked against them. */
  readonly ownCapabilities: object;
  /** Handshake-era lifecycle: throws RpcError -32600 for a request the session state does not allow. */
  checkLifecycle?(method: string): void;
}

/**
 * Checks one inbound request against its row (`spec`, undefined for an unknown method). Throws the
 * RpcError the receiver answers with (-32601, -32600 or -32602), or returns the row for dispatch.
 */
export function checkInbound(
  spec: MethodSpec | undefined,
  request: { method: string; params?: unknown },
  scope: InboundScope,
): MethodSpec {
  const { method } = request;
  const sender = scope.receiver === 'client' ? 'server' : 'client';
  const version = scope.protocolVersion;
  if (scope.era === 'stateless') {
    if (!spec || spec.kind !== 'request' || !canSend(spec, sender) || !isMethodInRevision(spec, version!)) {
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: "${method}"${spec ? ` does not exist in protocol revision ${version}` : ''}`,
      );
    }
  } else {
    if (!spec || !canSend(spec, sender))
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`);
    if (spec.kind !== 'request') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: "${method}" is a notification and must not carry an id`,
      );
    }
    scope.checkLifecycle?.(method);
    if (version !== undefined && !isMethodInRevision(spec, version)) {
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: "${method}" is not part of protocol revision ${version}`,
      );
    }
  }
  if (version !== undefined) checkGate(spec, method, scope);
  const problem = checkParams(method, spec, request.params);
  if (problem) throw new RpcError(ErrorCode.InvalidParams, problem);
  return spec;
}

/** A gate on the receiver's side must be declared (LIFE-11); the sender's own gates are its business. */
function checkGate(spec: MethodSpec, method: string, scope: InboundScope): void {
  const gate = scope.era === 'stateless' ? (spec.statelessGate ?? spec.gate) : spec.gate;
  if (!gate || (gate.side !== scope.receiver && gate.side !== 'receiver')) return;
  if (!isGateRequired(method, scope.protocolVersion!) || hasCapability(scope.ownCapabilities, gate.path))
    return;
  const needs = `needs the ${scope.receiver} capability "${gate.path.join('.')}"`;
  throw new RpcError(
    ErrorCode.MethodNotFound,
    scope.era === 'stateless'
      ? `Method not found: "${method}" ${needs}, which this server does not declare`
      : `Method not found: "${method}" ${needs}, which was not declared`,
  );
}

/**
 * The handshake-era lifecycle (LIFE-5/6): throws RpcError -32600 for a request the `receiver` may
 * not take in session `state`. `ping` is always allowed.
 */
export function checkLifecycle(
  receiver: 'client' | 'server',
  state: 'new' | 'initializing' | 'operating' | 'closed',
  method: string,
): void {
  if (method === 'ping') return;
  if (receiver === 'server') {
    if (state === 'new' && method !== 'initialize') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: "${method}" before initialize; only "initialize" and "ping" are allowed`,
      );
    }
    if (state === 'initializing') {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: "${method}" before notifications/initialized; only "ping" is allowed`,
      );
    }
    if (state === 'operating' && method === 'initialize') {
      throw new RpcError(ErrorCode.InvalidRequest, 'Invalid Request: the session is already initialized');
    }
  } else if (state === 'new') {
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Invalid Request: "${method}" before initialization finished; only "ping" is allowed`,
    );
  }
}
