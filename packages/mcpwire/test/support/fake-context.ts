// A RequestContext for unit tests of the server's feature handlers: no session behind it; input
// requests (elicit, sample, listRoots) reject, notifications go nowhere.

import type { JsonObject } from '../../src/jsonrpc/message.ts';
import { RpcError } from '../../src/jsonrpc/rpc-error.ts';
import type { Era, RequestContext } from '../../src/server/context.ts';

/** A context for a request to `method` in `era` (the era's newest revision). */
export function fakeContext(method: string, era: Era = 'handshake'): RequestContext {
  const refuse = () => Promise.reject(new Error('not available in this test'));
  return {
    era,
    protocolVersion: era === 'handshake' ? '2025-11-25' : '2026-07-28',
    clientCapabilities: {},
    clientInfo: undefined,
    requestId: 1,
    method,
    signal: new AbortController().signal,
    isCancelled: false,
    meta: {},
    auth: undefined,
    sendProgress: () => Promise.resolve(),
    log: () => Promise.resolve(),
    elicit: refuse,
    sample: refuse,
    listRoots: refuse,
    disconnectForPolling: () => false,
    askedInputKeys: [],
    carriedAcrossRounds: undefined,
    carryAcrossRounds: () => {},
  };
}

/**
 * Params as a peer may send them, typed as a feature handler's params: a method's row checks only
 * their top-level shape, so the handler still meets nested values of the wrong type (and a wrapper
 * may call it with params the row never saw). For tests of those checks.
 */
export function fromWire<Params>(params: JsonObject): Params {
  return params as Params;
}

/** An assert.rejects predicate: an RpcError with `code` (and a message matching `pattern`). */
export const isRpcError =
  (code: number, pattern?: RegExp) =>
  (error: unknown): boolean =>
    error instanceof RpcError &&
    error.code === code &&
    (pattern === undefined || pattern.test(error.message));
