// One run of `mcpwire load`: the closed loop (N workers, one request in flight each) or the open
// model (sends on a fixed timetable, latency measured from each send's scheduled time, so a slow
// server cannot slow the arrivals and hide its queue: no coordinated omission), a warm-up first.

import { performance } from 'node:perf_hooks';
import { LoadRecorder, type Outcome } from './load-recorder.ts';
import type { LoadStep } from './load-steps.ts';
import type { LoadTally } from './load-tally.ts';
import type { SendTiming } from './send-timing.ts';
import type { LoadRandom } from './random.ts';
import type { RunConnection } from './run-connection.ts';
import { DONE, MEASURED, runSettledWorker, WARMUP, type ClosedLoop, type Phase } from './settled-worker.ts';

export type { RunConnection, SendSettled } from './run-connection.ts';

/** When the measured part ends: after this many requests, or this long after the warm-up. */
export type LoadStop = { requests: number } | { durationMs: number };
/** The warm-up: this many requests, or this long; never measured. */
export type LoadWarmup = { requests: number } | { ms: number };

/** What a run does. */
export interface LoadPlan {
  steps: readonly LoadStep[];
  /** The connections; worker (or send) `k` uses `connections[k % connections.length]`. */
  connections: readonly RunConnection[];
  random: LoadRandom;
  /** Closed loop: the workers. Open model: the most requests in flight. */
  concurrency: number;
  stop: LoadStop;
  warmup: LoadWarmup;
  /** Requests per second: the open model. Absent: the closed loop. */
  rate?: number;
  /** Called once, when the first measured request is sent (the CPU counters start there). */
  onMeasureStart?: () => void;
}

/** The open model's timetable: what was scheduled, sent, sent late (the cap was reached), dropped. */
export interface LoadSchedule {
  scheduled: number;
  sent: number;
  late: number;
  dropped: number;
}

/**
 * Runs `plan` once. `run` resolves when every request sent has settled; `stop` (Ctrl-C) ends it
 * early: nothing more is sent. The counters may be read while it runs (the progress line).
 */
export class LoadRun {
  readonly #plan: LoadPlan;
  readonly #recorder: LoadRecorder;
  readonly #cumulative: Float64Array;
  readonly #totalWeight: number;
  #isStopped = false;
  #started = 0;
  /** The phase requests are claimed in, when it began, how many it has started, and its bounds. */
  #phase: Phase = WARMUP;
  #phaseStart = NaN;
  #phaseStarted = 0;
  #phaseLimit = Infinity;
  #phaseEnd = Infinity;
  readonly #open: OpenState | undefined;
  /** One per closed-loop worker, reused: the hot path allocates none. */
  readonly #timings: SendTiming[] = [];

  constructor(plan: LoadPlan) {
    this.#plan = plan;
    this.#recorder = new LoadRecorder({
      stepCount: plan.steps.length,
      connectionCount: plan.connections.length,
      isOpenModel: plan.rate !== undefined,
      handleAllClosed: () => this.stop(),
    });
    this.#cumulative = new Float64Array(plan.steps.length);
    let sum = 0;
    plan.steps.forEach((step, index) => (this.#cumulative[index] = sum += step.weight));
    this.#totalWeight = sum;
    this.#open = plan.rate === undefined ? undefined : new OpenState(plan.rate);
  }

  /** The measured requests' outcomes. */
  get tally(): LoadTally {
    return this.#recorder.tally;
  }

  /** Warm-up requests that settled. */
  get warmupRequests(): number {
    return this.#recorder.warmupRequests;
  }

  /** Milliseconds from the first measured send to the last measured answer (0 before). */
  get elapsedMs(): number {
    const { lastEnd } = this.#recorder;
    return Number.isNaN(lastEnd) ? 0 : lastEnd - this.#phaseStart;
  }

  /** Milliseconds since measuring started, for the progress line. */
  get measuringMs(): number {
    return this.isMeasuring ? performance.now() - this.#phaseStart : 0;
  }

  /** True once measuring has started. */
  get isMeasuring(): boolean {
    return this.#phase === MEASURED;
  }

  /** The connections that closed during the run. */
  get closedConnections(): number {
    return this.#recorder.closedConnections;
  }

  /** The open model's timetable; undefined for the closed loop. */
  get schedule(): LoadSchedule | undefined {
    if (this.#open === undefined) return undefined;
    const { scheduled, sent, late, dropped } = this.#open;
    return { scheduled, sent, late, dropped };
  }

  /** Sends nothing more; `run` resolves once what is in flight settles. Idempotent. */
  stop(): void {
    this.#isStopped = true;
    this.#open?.wake();
  }

  /** Runs the plan to its end (or `stop`). */
  async run(): Promise<void> {
    const { warmup } = this.#plan;
    const now = performance.now();
    this.#enterPhase(
      WARMUP,
      now,
      'requests' in warmup ? warmup.requests : Infinity,
      'ms' in warmup ? now + warmup.ms : Infinity,
    );
    if (this.#open !== undefined) return this.#open.run(this);
    const loop: ClosedLoop = {
      steps: this.#plan.steps,
      claim: (now) => this.#claim(now),
      pick: () => this.#pick(),
      nextRequest: () => this.#started++,
      record: (client, sent, outcome) => this.#recorder.record(client, sent, outcome),
    };
    const workers: Array<Promise<void>> = [];
    for (let worker = 0; worker < this.#plan.concurrency; worker++) {
      const client = this.#plan.connections[worker % this.#plan.connections.length]!;
      const timing = (this.#timings[worker] ??= { sentAt: NaN, answeredAt: NaN });
      workers.push(
        client.sendThen === undefined
          ? this.#worker(worker)
          : runSettledWorker(loop, { index: worker, client, timing }),
      );
    }
    await Promise.all(workers);
  }

  /** One closed-loop worker: one request in flight, the next sent as soon as it settles. */
  async #worker(worker: number): Promise<void> {
    const client = this.#plan.connections[worker % this.#plan.connections.length]!;
    for (;;) {
      const start = performance.now();
      const phase = this.#claim(start);
      if (phase === DONE) return;
      const isOpen = await this.send(client, this.#started++, worker, phase === MEASURED, start);
      if (!isOpen) return;
    }
  }

  /**
   * Whether the request about to start at `now` is warm-up, measured, or not to be sent (the run
   * is over); the measured part starts with the first request after the warm-up. Both phases pass
   * the same test (a count and an end time, one of them unbounded), so the code a measured request
   * runs is the code the warm-up ran.
   */
  #claim(now: number): Phase {
    if (this.#isStopped) return DONE;
    if (this.#phaseStarted < this.#phaseLimit && now < this.#phaseEnd) {
      this.#phaseStarted++;
      return this.#phase;
    }
    if (this.#phase === MEASURED) return DONE;
    this.#startMeasuring(now);
    return this.#claim(now);
  }

  #startMeasuring(now: number): void {
    const { stop } = this.#plan;
    const isCounted = 'requests' in stop;
    this.#enterPhase(
      MEASURED,
      now,
      isCounted ? stop.requests : Infinity,
      isCounted ? Infinity : now + stop.durationMs,
    );
    this.#recorder.startMeasuring();
    this.#plan.onMeasureStart?.();
  }

  /**
   * Enters `phase` at `now`, bounded by `limit` requests and the time `end`. The warm-up enters
   * its phase by this code too, so each field is written again before the answer path is compiled:
   * V8 compiles a field written only once (by the constructor) as a constant, and the measured
   * phase's first write then threw that code away (`--trace-deopt`: "code dependencies" in the
   * worker's `next` at the start of every measured window).
   */
  #enterPhase(phase: Phase, now: number, limit: number, end: number): void {
    this.#phase = phase;
    this.#phaseStart = now;
    this.#phaseStarted = 0;
    this.#phaseLimit = limit;
    this.#phaseEnd = end;
  }

  /**
   * Sends request `i` (of worker `worker`, on connection `client`), its latency measured from `from`,
   * and counts it when `isMeasured`. Resolves false when the request failed because `client`'s
   * connection is gone (that worker stops: every request on it would fail at once).
   */
  async send(
    client: RunConnection,
    i: number,
    worker: number,
    isMeasured: boolean,
    from: number,
  ): Promise<boolean> {
    const index = this.#pick();
    // A closed-loop worker has one request in flight; open-model sends of one slot may overlap.
    const timing =
      this.#open === undefined
        ? (this.#timings[worker] ??= { sentAt: NaN, answeredAt: NaN })
        : { sentAt: NaN, answeredAt: NaN };
    timing.sentAt = timing.answeredAt = NaN;
    let failure: string | undefined;
    let error: unknown;
    let hasFailed = false;
    try {
      failure = await client.send(this.#plan.steps[index]!, i, worker, timing);
    } catch (caught) {
      hasFailed = true;
      error = caught;
    }
    const outcome: Outcome = { failure, error, hasFailed };
    return this.#recorder.record(client, { index, isMeasured, from, timing }, outcome);
  }

  /** The step of the next request: weighted at random, or the only one. */
  #pick(): number {
    const count = this.#cumulative.length;
    if (count === 1) return 0;
    const target = this.#plan.random.next() * this.#totalWeight;
    for (let index = 0; index < count - 1; index++) if (target < this.#cumulative[index]!) return index;
    return count - 1;
  }

  /** For the open model: the plan, and whether it is stopped. */
  get plan(): LoadPlan {
    return this.#plan;
  }

  get isStopped(): boolean {
    return this.#isStopped;
  }

  /** For the open model: marks the start of measuring at `now`. */
  markMeasuring(now: number): void {
    if (!this.isMeasuring) this.#startMeasuring(now);
  }
}

/**
 * The open model's timetable: send `k` is due at start + k/rate; sends due while `concurrency`
 * requests are in flight wait for a free one (counted late, their latency still measured from the
 * due time); with --duration, sends still waiting when the measured time is over are dropped.
 */
class OpenState {
  scheduled = 0;
  sent = 0;
  late = 0;
  dropped = 0;
  readonly #intervalMs: number;
  #run!: LoadRun;
  #next = 0;
  #total = 0;
  #warmupSlots = 0;
  #start = 0;
  #windowEnd = Infinity;
  #inFlight = 0;
  #isCapped = false;
  #timer: NodeJS.Timeout | undefined;
  #finish: () => void = () => {};
  readonly #pump = (): void => this.#dispatch();

  constructor(rate: number) {
    this.#intervalMs = 1000 / rate;
  }

  run(run: LoadRun): Promise<void> {
    this.#run = run;
    const { warmup, stop, rate } = run.plan;
    this.#warmupSlots = 'requests' in warmup ? warmup.requests : Math.ceil((warmup.ms * rate!) / 1000);
    const measured = 'requests' in stop ? stop.requests : Math.ceil((stop.durationMs * rate!) / 1000);
    this.scheduled = measured;
    this.#total = this.#warmupSlots + measured;
    this.#start = performance.now();
    if ('durationMs' in stop) this.#windowEnd = this.#start + this.#total * this.#intervalMs;
    return new Promise((resolve) => {
      this.#finish = resolve;
      this.#dispatch();
    });
  }

  /** Runs the dispatcher now (after `stop`). */
  wake(): void {
    if (this.#run !== undefined) this.#dispatch();
  }

  #dispatch(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const now = performance.now();
    if (this.#run.isStopped || now >= this.#windowEnd) this.#endSchedule();
    const { concurrency, connections: clients } = this.#run.plan;
    while (this.#next < this.#total && this.#inFlight < concurrency) {
      const due = this.#start + this.#next * this.#intervalMs;
      if (due > now) break;
      const k = this.#next++;
      const isMeasured = k >= this.#warmupSlots;
      if (isMeasured) {
        this.#run.markMeasuring(due);
        this.sent++;
        if (this.#isCapped) this.late++;
      }
      this.#inFlight++;
      void this.#sendOne(clients[k % clients.length]!, k, isMeasured, due);
    }
    const hasDue = this.#next < this.#total && this.#start + this.#next * this.#intervalMs <= now;
    this.#isCapped = hasDue;
    if (this.#next < this.#total && !hasDue)
      this.#timer = setTimeout(this.#pump, Math.max(0, this.#start + this.#next * this.#intervalMs - now));
    else if (this.#next < this.#total && this.#windowEnd !== Infinity)
      // Capped: wake at the end of the window at the latest, to drop what is still waiting.
      this.#timer = setTimeout(this.#pump, Math.max(0, this.#windowEnd - now));
    if (this.#next >= this.#total && this.#inFlight === 0) this.#finish();
  }

  /** No more sends: what was measured and not sent is dropped. */
  #endSchedule(): void {
    this.dropped += Math.max(0, this.#total - Math.max(this.#next, this.#warmupSlots));
    this.#next = this.#total;
  }

  async #sendOne(client: RunConnection, k: number, isMeasured: boolean, due: number): Promise<void> {
    await this.#run.send(client, k, k % this.#run.plan.concurrency, isMeasured, due);
    this.#inFlight--;
    this.#dispatch();
  }
}
