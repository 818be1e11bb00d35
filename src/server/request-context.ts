// Building the RequestContext a handler receives, the same way in both eras: only the facts and
// where notifications go differ (a session in the handshake era, the request's stream statelessly).

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../protocol/types/index.ts';
import type { Era, InputBroker, RequestContext } from './context.ts';

/** What is known about the request and its client. */
export interface ContextFacts {
  era: Era;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  request: { id: RequestId; method: string; readonly signal: AbortSignal; readonly isCancelled: boolean };
  meta: JsonObject;
}

/** Where the context's output goes. */
export interface ContextOutput {
  notify(method: string, params: JsonObject, options: SendOptions): Promise<void>;
  /** Whether a log message at `level` should be sent (the client's chosen level, per era). */
  isLogEnabled(level: LoggingLevel): boolean;
  broker: InputBroker;
  /** Closes the request's SSE connection, keeping its stream (see `RequestContext.closeSseStream`). */
  closeStream?: () => boolean;
}

/**
 * A RequestContext: progress only when the request carried a `progressToken` and only increasing
 * (PROG-1/3), logs filtered by `output.isLogEnabled`, nothing at all once the request is cancelled;
 * every message names the request it belongs to.
 */
export function createRequestContext(facts: ContextFacts, output: ContextOutput): RequestContext {
  const { request } = facts;
  const token = facts.meta.progressToken;
  const related = { relatedRequestId: request.id };
  let lastProgress = -Infinity;
  const { broker } = output;
  return {
    era: facts.era,
    protocolVersion: facts.protocolVersion,
    clientCapabilities: facts.clientCapabilities,
    clientInfo: facts.clientInfo,
    requestId: request.id,
    method: request.method,
    // A getter: the signal is made only for handlers that use it.
    get signal() {
      return request.signal;
    },
    get isCancelled() {
      return request.isCancelled;
    },
    meta: facts.meta,
    sendProgress: (progress, options = {}) => {
      const hasToken = typeof token === 'string' || typeof token === 'number';
      if (!hasToken || !(progress > lastProgress) || request.isCancelled) return Promise.resolve();
      lastProgress = progress;
      return output.notify('notifications/progress', { progressToken: token, progress, ...options }, related);
    },
    log: (level, data, logger) => {
      if (request.isCancelled || !output.isLogEnabled(level)) return Promise.resolve();
      const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
      return output.notify('notifications/message', params, related).catch(() => {});
    },
    elicit: (params, options = {}) =>
      broker.request('elicitation/create', params as unknown as JsonObject, options) as never,
    sample: (params, options = {}) =>
      broker.request('sampling/createMessage', params as unknown as JsonObject, options) as never,
    listRoots: (options = {}) => broker.request('roots/list', undefined, options) as never,
    closeSseStream: () => (request.isCancelled ? false : (output.closeStream?.() ?? false)),
  };
}
