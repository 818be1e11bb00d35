// A closed-loop worker's request on the stdio engine, reused for each of its requests, and the queue
// that hands the answers of one read to their workers together once the read is done.

import type { JsonObject } from 'mcpwire';
import type { SendSettled } from './run-connection.ts';
import type { StepWire } from './load-steps.ts';
import type { WireTemplate } from './load-wire.ts';
import type { SendTiming } from './send-timing.ts';
import type { EngineRequest } from './timeout-sweep.ts';
import { runInMicrotask } from './microtask.ts';

/**
 * The workers whose requests were settled while the engine read one chunk of the server's stdout:
 * handed their outcomes in one microtask after it, in the order settled. So every answer of the
 * chunk is taken (and timed) before any worker sends again, and no request is written from inside
 * the channel's read; one microtask per chunk, none per request.
 */
export class SettledRequests {
  #queued: WorkerRequest[] = [];
  #spare: WorkerRequest[] = [];
  readonly #deliver = (): void => {
    const queued = this.#queued;
    this.#queued = this.#spare;
    this.#spare = queued;
    for (const request of queued) request.deliver();
    queued.length = 0;
  };

  push(request: WorkerRequest): void {
    if (this.#queued.push(request) === 1) runInMicrotask(this.#deliver);
  }
}

/**
 * What an HTTP connection does when a worker's request fails: a promise of the request's outcome
 * when it recovers (the session expired, authorization asked for), else undefined.
 */
export type RetryHttp = (
  error: unknown,
  template: WireTemplate,
  body: string,
  id: number,
) => Promise<JsonObject> | undefined;

/** A closed-loop worker's request (one in flight at a time): settles the worker with the step's verdict. */
export class WorkerRequest implements EngineRequest {
  method = '';
  sentAt = 0;
  timing: SendTiming | undefined;
  readonly #settledRequests: SettledRequests;
  #retry: RetryHttp | undefined;
  #template: WireTemplate | undefined;
  #body = '';
  #id = 0;
  /** Over HTTP the engine settles it once its socket is idle: the worker hears at once, no microtask. */
  #isImmediate = false;
  #wire: StepWire | undefined;
  #settled: SendSettled | undefined;
  #result: JsonObject | undefined;
  #error: unknown;
  #hasFailed = false;

  constructor(settledRequests: SettledRequests) {
    this.#settledRequests = settledRequests;
  }

  /** Readies it for the worker's next request, of `wire`. */
  use(wire: StepWire, timing: SendTiming, settled: SendSettled): void {
    this.method = wire.method;
    this.timing = timing;
    this.#wire = wire;
    this.#settled = settled;
    this.#retry = undefined;
    this.#isImmediate = false;
  }

  /** Over HTTP: what it was sent as, and who may recover it when it fails (`RetryHttp`). */
  useHttp(retry: RetryHttp, template: WireTemplate, body: string, id: number): void {
    this.#retry = retry;
    this.#template = template;
    this.#body = body;
    this.#id = id;
    this.#isImmediate = true;
  }

  resolve(result: JsonObject): void {
    this.#result = result;
    this.#hasFailed = false;
    if (this.#isImmediate) this.deliver();
    else this.#settledRequests.push(this);
  }

  reject(error: unknown): void {
    const recovery = this.#retry?.(error, this.#template!, this.#body, this.#id);
    if (recovery === undefined) return this.#fail(error);
    // Timed from the worker's start to the outcome: the engine's times are the first attempt's.
    if (this.timing !== undefined) this.timing.answeredAt = NaN;
    recovery.then(
      (result) => this.resolve(result),
      (caught: unknown) => this.#fail(caught),
    );
  }

  #fail(error: unknown): void {
    this.#error = error;
    this.#hasFailed = true;
    if (this.#isImmediate) this.deliver();
    else this.#settledRequests.push(this);
  }

  /** Hands the outcome to the worker: the step's verdict on the result, or the failure. */
  deliver(): void {
    const result = this.#result;
    const error = this.#error;
    this.#result = this.#error = undefined;
    if (this.#hasFailed) return this.#settled!.handleError(error);
    let failure: string | undefined;
    try {
      failure = this.#wire!.failureOf(result!);
    } catch (caught) {
      return this.#settled!.handleError(caught);
    }
    this.#settled!.handleAnswer(failure);
  }
}
