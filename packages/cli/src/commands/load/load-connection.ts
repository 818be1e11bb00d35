// One connection of `mcpwire load`: the library's Client (the handshake, the checks, the first
// request of each step) and beneath it the wire engine that sends the timed loop's requests from
// the Client's templates (load-wire.ts): over stdio on the Client's own process channel, over
// Streamable HTTP on keep-alive sockets of its own, re-initialising through a new Client when the
// server answers 404 to the session.

import type { Client } from 'mcpwire/client';
import type { Channel, JsonObject } from 'mcpwire';
import type { HttpAuthorization } from 'mcpwire/http';
import { openClient, type OpenClient, type OpenOptions } from '../../target/open-client.ts';
import type { Target } from '../../target/target.ts';
import { HttpEngine, HttpStatusError, SessionExpiredError } from './http-engine.ts';
import type { SendTiming } from './send-timing.ts';
import type { LoadStep } from './load-steps.ts';
import type { SendSettled } from './run-connection.ts';
import { bodyOf, type LoadWire, type WireTemplate } from './load-wire.ts';
import { StdioEngine } from './stdio-engine.ts';
import { SettledRequests, WorkerRequest } from './worker-request.ts';

/**
 * Ids of the engine's requests: far above the Client's own (which count from 1) on the same channel,
 * and small integers for V8 (under 2^31) for a billion requests, so an id is never a heap number.
 */
let nextId = 2 ** 30;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A connection `LoadRun` sends on. */
export class LoadConnection implements AsyncDisposable {
  readonly #target: Target;
  readonly #options: OpenOptions;
  readonly #wire: LoadWire;
  #opened!: OpenClient;
  #stdio: StdioEngine | undefined;
  #http: HttpEngine | undefined;
  #channel: Channel | undefined;
  #sessionLine = '';
  #reopening: Promise<void> | undefined;
  #reopenError: unknown;
  #authorization: HttpAuthorization | undefined;
  /** On the engine, each closed-loop worker's request, reused: one in flight per worker. */
  readonly #workerRequests: WorkerRequest[] = [];
  readonly #settledRequests = new SettledRequests();
  /** The last header lines built (`#headerLinesOf`): rebuilt when a part of them changes. */
  #headers: {
    template: WireTemplate | undefined;
    sessionLine: string;
    credentials: string | undefined;
    lines: string;
  } = { template: undefined, sessionLine: '', credentials: undefined, lines: '' };

  private constructor(target: Target, options: OpenOptions, wire: LoadWire) {
    this.#target = target;
    this.#options = options;
    this.#wire = wire;
  }

  /** Connects to `target` through the Client, the engine beneath it; rejects as openClient does. */
  static async open(target: Target, options: OpenOptions, wire: LoadWire): Promise<LoadConnection> {
    const connection = new LoadConnection(target, options, wire);
    await connection.#connect();
    return connection;
  }

  /** The Client of the connection (a new one after the server expired the session). */
  get client(): Client {
    return this.#opened.client;
  }

  get pid(): number | undefined {
    return this.#opened.pid;
  }

  stderrTail(): string {
    return this.#opened.stderrTail();
  }

  /** False once the connection is gone for good (the process exited, or re-initialising failed). */
  get isConnected(): boolean {
    if (this.#reopenError !== undefined) return false;
    if (this.#stdio !== undefined) return this.#stdio.isConnected;
    return this.#reopening !== undefined || this.#opened.client.isConnected;
  }

  /**
   * Sends request `i` of worker `worker` of `step`: through the Client until it has sent the step
   * once (or when the engine cannot send it), else on the wire engine. Resolves with the message of
   * a tool result that says isError, else undefined; rejects as the request failed. Over stdio the
   * engine fills `timing` (the write and the answer); elsewhere it stays NaN.
   */
  async send(step: LoadStep, i: number, worker: number, timing?: SendTiming): Promise<string | undefined> {
    if (this.#reopening !== undefined) await this.#reopening;
    if (this.#reopenError !== undefined) throw this.#reopenError;
    const template = this.#wire.templateOf(step.wire);
    const engineReady = this.#stdio !== undefined || this.#http !== undefined;
    if (template === undefined || template === null || !engineReady) return step.send(this.client, i, worker);
    const id = nextId++;
    const params = step.wire.paramsOf(i, worker);
    const result =
      this.#stdio !== undefined
        ? await this.#stdio.request(template, id, params, timing)
        : await this.#post(template, id, params, step.wire.method);
    return step.wire.failureOf(result);
  }

  /**
   * As `send`, for a closed-loop worker (one request in flight): hands `settled` what `send` resolves
   * with (`handleAnswer`) or rejects with (`handleError`), never before this call returns. On the
   * engine (stdio, Streamable HTTP) it allocates no promise: each answer settles the worker's reused request as it is
   * taken, and the workers of one read's answers hear in one microtask after it (SettledRequests);
   * over HTTP likewise, each answer settling the request as its response is read.
   */
  sendThen(step: LoadStep, i: number, worker: number, timing: SendTiming, settled: SendSettled): void {
    const isEngineReady =
      this.#stdio !== undefined ||
      (this.#http !== undefined && this.#reopening === undefined && this.#reopenError === undefined);
    const template = isEngineReady ? this.#wire.templateOf(step.wire) : undefined;
    if (template === undefined || template === null) {
      this.send(step, i, worker, timing).then(
        (failure) => settled.handleAnswer(failure),
        (error: unknown) => settled.handleError(error),
      );
      return;
    }
    const id = nextId++;
    const request = (this.#workerRequests[worker] ??= new WorkerRequest(this.#settledRequests));
    request.use(step.wire, timing, settled);
    const params = step.wire.paramsOf(i, worker);
    if (this.#stdio !== undefined) return this.#stdio.send(template, id, params, request);
    const body = bodyOf(template, id, params);
    request.useHttp(this.#retryHttp, template, body, id);
    this.#http!.send(this.#headerLinesOf(template), body, id, request);
  }

  /**
   * A closed-loop worker's HTTP request failed with `error`: if the session expired or the server
   * asks for authorization, what `send` does then (a promise: the rare path), else undefined.
   */
  readonly #retryHttp = (
    error: unknown,
    template: WireTemplate,
    body: string,
    id: number,
  ): Promise<JsonObject> | undefined =>
    this.#isRecoverable(error)
      ? this.#recover(error, template, body, id, template.message.method as string)
      : undefined;

  async [Symbol.asyncDispose](): Promise<void> {
    this.#stdio?.dispose();
    this.#http?.close();
    await this.#reopening;
    await this.#opened[Symbol.asyncDispose]();
  }

  async #connect(): Promise<void> {
    if (this.#target.kind === 'stdio') {
      const engine = new StdioEngine(this.#options.timeoutMs ?? 60_000);
      this.#opened = await openClient(this.#target, {
        ...this.#options,
        tap: this.#wire.tap((channel) => engine.wrap(channel)),
      });
      this.#stdio = engine;
      return;
    }
    const isStreamable = this.#target.transport === 'streamable';
    this.#opened = await openClient(this.#target, {
      ...this.#options,
      ...(isStreamable
        ? {
            tap: this.#wire.tap(
              (channel) => (this.#channel = channel),
              (inner) => (this.#authorization = inner),
            ),
          }
        : {}),
    });
    if (!isStreamable) return;
    const sessionId = this.#channel?.info?.sessionId;
    this.#sessionLine = sessionId === undefined ? '' : `mcp-session-id: ${sessionId}\r\n`;
    this.#http ??= new HttpEngine({
      url: new URL(this.#target.url),
      timeoutMs: this.#options.timeoutMs ?? 60_000,
      maxBodyBytes: this.#options.maxMessageBytes ?? DEFAULT_MAX_BODY_BYTES,
    });
  }

  async #post(
    template: WireTemplate,
    id: number,
    params: JsonObject | undefined,
    method: string,
  ): Promise<JsonObject> {
    const body = bodyOf(template, id, params);
    try {
      return await this.#http!.post(this.#headerLinesOf(template), body, id, method);
    } catch (error) {
      if (!this.#isRecoverable(error)) throw error;
      return await this.#recover(error, template, body, id, method);
    }
  }

  /** The header lines of `template`'s requests: its own, the session's, the credentials. */
  #headerLinesOf(template: WireTemplate): string {
    const credentials = this.#wire.authorization;
    if (
      this.#headers.template !== template ||
      this.#headers.sessionLine !== this.#sessionLine ||
      this.#headers.credentials !== credentials
    ) {
      const lines =
        template.headerLines +
        this.#sessionLine +
        (credentials === undefined ? '' : `authorization: ${credentials}\r\n`);
      this.#headers = { template, sessionLine: this.#sessionLine, credentials, lines };
    }
    return this.#headers.lines;
  }

  /** A 404 to the session (it expired) or a 401 the library's authorization may answer. */
  #isRecoverable(error: unknown): error is HttpStatusError {
    return (
      error instanceof HttpStatusError &&
      ((error.status === 404 && this.#sessionLine !== '') ||
        (error.status === 401 && this.#authorization !== undefined))
    );
  }

  /** After a 404: re-initialises and fails the request as session_expired; after a 401: authorizes. */
  async #recover(
    error: HttpStatusError,
    template: WireTemplate,
    body: string,
    id: number,
    method: string,
  ): Promise<JsonObject> {
    if (error.status === 404) {
      void this.#reopen();
      throw new SessionExpiredError(this.#sessionLine.slice(16, -2));
    }
    return this.#postAuthorized(template, body, id, method, error);
  }

  /**
   * After a 401: the library's authorization is asked again (given the 401 as the answer to its
   * current credentials), and the request sent with what it gives; its rules decide how often.
   */
  async #postAuthorized(
    template: WireTemplate,
    body: string,
    id: number,
    method: string,
    refusal: HttpStatusError,
  ): Promise<JsonObject> {
    const headers = new Headers();
    for (const line of (template.headerLines + this.#sessionLine).split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    let outcome = { error: refusal } as { result: JsonObject } | { error: unknown };
    let isFirst = true;
    await this.#authorization!.send(
      { method: 'POST', url: new URL((this.#target as { url: string }).url), headers },
      async (withCredentials) => {
        if (isFirst) {
          isFirst = false;
          return new Response(null, { status: 401, headers: Object.fromEntries(refusal.headers) });
        }
        this.#wire.authorization = withCredentials.get('authorization') ?? undefined;
        const credentials =
          this.#wire.authorization === undefined ? '' : `authorization: ${this.#wire.authorization}\r\n`;
        try {
          outcome = {
            result: await this.#http!.post(
              template.headerLines + this.#sessionLine + credentials,
              body,
              id,
              method,
            ),
          };
          return new Response(null, { status: 200 });
        } catch (error) {
          outcome = { error };
          return error instanceof HttpStatusError
            ? new Response(null, { status: error.status, headers: Object.fromEntries(error.headers) })
            : new Response(null, { status: 200 });
        }
      },
    );
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  /** Re-initialises through a new Client (its handshake gives the new session); once at a time. */
  #reopen(): Promise<void> {
    this.#reopening ??= (async () => {
      const old = this.#opened;
      try {
        await this.#connect();
        void Promise.resolve(old[Symbol.asyncDispose]()).catch(() => {});
      } catch (error) {
        this.#reopenError = error;
      } finally {
        this.#reopening = undefined;
      }
    })();
    return this.#reopening;
  }
}
