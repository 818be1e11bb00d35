// The RequestContext a tool handler sees while it runs as a task: the request's facts, the task's
// signal, and input through the task (handshake era: real requests tagged with the related task,
// TASK-9/15; stateless era: the task's `inputRequests`, answered with tasks/update, S26-TASK-10).

import type { JsonObject, RequestId } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type { ClientCapabilities, Implementation } from '../../protocol/types/index.ts';
import type { Era, InputMethod, InputOptions, RequestContext } from '../../server/context.ts';
import type { HandshakeConnection } from '../../server/method-handlers.ts';
import { isLevelEnabled } from '../../server/logging.ts';
import type { TaskControl } from './task-control.ts';
import { RELATED_TASK_META_KEY } from './tasks-protocol.ts';

const noop = (): Promise<void> => Promise.resolve();

/** The facts of a request a task's context keeps (a re-run rebuilds them from TaskRerun.context). */
export type RequestFacts =
  'era' | 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'requestId' | 'method' | 'meta' | 'auth';

/**
 * A task's context. `connection` is the handshake-era connection that created the task (its input
 * requests and progress go there); undefined in the stateless era, which sends no progress and no
 * logs for tasks (S26-TASK-13). Handshake-era progress and logs carry the related task (TASK-15).
 */
export class TaskRequestContext implements RequestContext {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly requestId: RequestId;
  readonly method: string;
  readonly meta: JsonObject;
  readonly auth: Principal | undefined;
  readonly sendProgress: RequestContext['sendProgress'];
  readonly log: RequestContext['log'];
  /** A task has no input rounds of its own request: its input goes through `tasks/update`. */
  readonly askedInputKeys: readonly string[] = [];
  readonly carriedAcrossRounds: string | undefined = undefined;
  readonly carryAcrossRounds: RequestContext['carryAcrossRounds'] = () => {};
  readonly #control: TaskControl;
  readonly #connection: HandshakeConnection | undefined;
  #count = 0;
  #waiting = 0;

  constructor(
    request: Pick<RequestContext, RequestFacts>,
    control: TaskControl,
    connection: HandshakeConnection | undefined,
  ) {
    this.era = request.era;
    this.protocolVersion = request.protocolVersion;
    this.clientCapabilities = request.clientCapabilities;
    this.clientInfo = request.clientInfo;
    this.requestId = request.requestId;
    this.method = request.method;
    this.meta = request.meta;
    this.auth = request.auth;
    this.#control = control;
    this.#connection = connection;
    // A task outlives its connection (the client may resume it elsewhere): what its creating
    // connection can no longer carry is dropped, never a failure of the task.
    this.sendProgress = connection ? this.#progressTo(connection, request.meta.progressToken) : noop;
    this.log = connection ? this.#logTo(connection) : noop;
  }

  /**
   * Handshake-era logs of a task: on the connection, filtered by its `logging/setLevel`, each
   * carrying the related task (TASK-15), as the request that created the task has ended.
   */
  #logTo(connection: HandshakeConnection): RequestContext['log'] {
    return (level, data, logger) => {
      if (this.isCancelled || !isLevelEnabled(level, connection.logLevel)) return Promise.resolve();
      const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
      params._meta = { [RELATED_TASK_META_KEY]: { taskId: this.taskId } };
      return connection.sendNotification('notifications/message', params).catch(() => {});
    };
  }

  /**
   * Handshake-era progress of a task: the request's token stays valid for the task's life, and each
   * notification carries the related task (TASK-15). Sent on the connection, as the request's own
   * stream ended with its CreateTaskResult. Only increasing values (PROG-3).
   */
  #progressTo(connection: HandshakeConnection, token: unknown): RequestContext['sendProgress'] {
    if (typeof token !== 'string' && typeof token !== 'number') return noop;
    let last = -Infinity;
    return (progress, options = {}) => {
      if (!(progress > last) || this.isCancelled) return Promise.resolve();
      last = progress;
      const meta = { [RELATED_TASK_META_KEY]: { taskId: this.taskId } };
      return connection
        .sendNotification('notifications/progress', {
          progressToken: token,
          progress,
          ...options,
          _meta: meta,
        })
        .catch(() => {});
    };
  }

  /** The task's id. */
  get taskId(): string {
    return this.#control.taskId;
  }

  /** Aborts when the task is cancelled or expires. */
  get signal(): AbortSignal {
    return this.#control.signal;
  }

  get isCancelled(): boolean {
    return this.#control.signal.aborted;
  }

  readonly elicit: RequestContext['elicit'] = (params, options = {}) =>
    this.#input('elicitation/create', params as unknown as JsonObject, options) as never;

  readonly sample: RequestContext['sample'] = (params, options = {}) =>
    this.#input('sampling/createMessage', params as unknown as JsonObject, options) as never;

  readonly listRoots: RequestContext['listRoots'] = (options = {}) =>
    this.#input('roots/list', undefined, options) as never;

  /** A task has no connection of its own to drop. */
  readonly disconnectForPolling: RequestContext['disconnectForPolling'] = () => false;

  #input(method: InputMethod, params: JsonObject | undefined, options: InputOptions): Promise<JsonObject> {
    const key = options.key ?? `input-${this.#count}`;
    this.#count++;
    if (!this.#connection) return this.#control.requestInput(key, params ? { method, params } : { method });
    return this.#request(this.#connection, method, params ?? {});
  }

  /** TASK-9: `input_required` while a tagged request is out; back to `working` when none is. */
  async #request(
    connection: HandshakeConnection,
    method: InputMethod,
    params: JsonObject,
  ): Promise<JsonObject> {
    const meta = {
      ...(params._meta as JsonObject | undefined),
      [RELATED_TASK_META_KEY]: { taskId: this.taskId },
    };
    this.#waiting++;
    if (this.#waiting === 1) await this.#control.setStatus('input_required');
    try {
      return await connection.sendRequest(method, { ...params, _meta: meta }, { signal: this.signal });
    } finally {
      this.#waiting--;
      if (this.#waiting === 0 && !this.signal.aborted) await this.#control.setStatus('working');
    }
  }
}
