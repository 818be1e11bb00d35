// Building the RequestContext a handler receives, the same way in both eras: only the facts and
// where notifications go differ (a session in the handshake era, the request's stream statelessly).

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';
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
  /** The authenticated sender, from the channel (`ChannelInfo.principalOf`). */
  auth?: Principal | undefined;
}

/** Where the context's output goes. */
export interface ContextOutput {
  notify(method: string, params: JsonObject, options: SendOptions): Promise<void>;
  /** Whether a log message at `level` should be sent (the client's chosen level, per era). */
  isLogEnabled(level: LoggingLevel): boolean;
  broker: InputBroker;
  /** Drops the request's connection, keeping it resumable (see `RequestContext.disconnectForPolling`). */
  disconnectForPolling?: () => boolean;
}

/**
 * A RequestContext: progress only when the request carried a `progressToken` and only increasing
 * (PROG-1/3), logs filtered by `output.isLogEnabled`, nothing at all once the request is cancelled;
 * every message names the request it belongs to.
 */
export function createRequestContext(facts: ContextFacts, output: ContextOutput): RequestContext {
  return new Context(facts, output);
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * One request's context. Its methods are closures made on first access and kept (so
 * `const { log } = ctx` works), not per request: most handlers use one or two of them, and a
 * context with ten eager closures was the largest allocation of a stateless request.
 */
class Context implements RequestContext {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly requestId: RequestId;
  readonly method: string;
  readonly meta: JsonObject;
  readonly auth: Principal | undefined;
  readonly #request: ContextFacts['request'];
  readonly #output: ContextOutput;
  #lastProgress = -Infinity;
  #sendProgress: RequestContext['sendProgress'] | undefined;
  #log: RequestContext['log'] | undefined;
  #elicit: RequestContext['elicit'] | undefined;
  #sample: RequestContext['sample'] | undefined;
  #listRoots: RequestContext['listRoots'] | undefined;
  #disconnectForPolling: RequestContext['disconnectForPolling'] | undefined;

  constructor(facts: ContextFacts, output: ContextOutput) {
    this.era = facts.era;
    this.protocolVersion = facts.protocolVersion;
    this.clientCapabilities = facts.clientCapabilities;
    this.clientInfo = facts.clientInfo;
    this.requestId = facts.request.id;
    this.method = facts.request.method;
    this.meta = facts.meta;
    this.auth = facts.auth;
    this.#request = facts.request;
    this.#output = output;
  }

  get askedInputKeys(): readonly string[] {
    return this.#output.broker.asked ?? NO_KEYS;
  }

  get carriedAcrossRounds(): string | undefined {
    return this.#output.broker.carried;
  }

  get carryAcrossRounds(): RequestContext['carryAcrossRounds'] {
    return (value) => this.#output.broker.carry?.(value);
  }

  /** Made only for handlers that use it. */
  get signal(): AbortSignal {
    return this.#request.signal;
  }

  get isCancelled(): boolean {
    return this.#request.isCancelled;
  }

  get sendProgress(): RequestContext['sendProgress'] {
    return (this.#sendProgress ??= (progress, options = {}) => {
      const token = this.meta.progressToken;
      const hasToken = typeof token === 'string' || typeof token === 'number';
      if (!hasToken || !(progress > this.#lastProgress) || this.isCancelled) return Promise.resolve();
      this.#lastProgress = progress;
      return this.#output.notify(
        'notifications/progress',
        { progressToken: token, progress, ...options },
        { relatedRequestId: this.requestId },
      );
    });
  }

  get log(): RequestContext['log'] {
    return (this.#log ??= (level, data, logger) => {
      if (this.isCancelled || !this.#output.isLogEnabled(level)) return Promise.resolve();
      const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
      return this.#output
        .notify('notifications/message', params, { relatedRequestId: this.requestId })
        .catch(() => {});
    });
  }

  get elicit(): RequestContext['elicit'] {
    return (this.#elicit ??= (params, options = {}) =>
      this.#output.broker.request('elicitation/create', params as unknown as JsonObject, options) as never);
  }

  get sample(): RequestContext['sample'] {
    return (this.#sample ??= (params, options = {}) =>
      this.#output.broker.request(
        'sampling/createMessage',
        params as unknown as JsonObject,
        options,
      ) as never);
  }

  get listRoots(): RequestContext['listRoots'] {
    return (this.#listRoots ??= (options = {}) =>
      this.#output.broker.request('roots/list', undefined, options) as never);
  }

  get disconnectForPolling(): RequestContext['disconnectForPolling'] {
    return (this.#disconnectForPolling ??= () =>
      this.isCancelled ? false : (this.#output.disconnectForPolling?.() ?? false));
  }
}
