// The two schedules of the hand-written stdio load driver (bench/load-hand-stdio.ts) and how it
// judges an answer: the closed loop (each answer sends the next request) and the open model as
// `mcpwire load --rate` runs it (packages/cli/src/commands/load/load-run.ts, OpenState: send `k` due
// at start + k/rate, at most `concurrency` in flight, latency from the due time). Answers are matched
// as bytes against the one answer the server gives; only a line of another shape is parsed.
import { performance } from 'node:perf_hooks';
import type { LatencyCounts } from './latency-counts.ts';
import type { ErrorLog } from './server-process.ts';

/** How a slice runs: measured window and warm-up (ms), closed-loop workers (open model: most in flight). */
export interface SliceConfig {
  sliceMs: number;
  warmupMs: number;
  concurrency: number;
  /** The open model at this many requests/s (load's `--rate`); a closed loop when absent. */
  rate?: number | undefined;
  /** Closed loop: send at most this many requests in all, warm-up included (an instruction count's fixed work). */
  requests?: number | undefined;
}

/** Where a loop writes, and what it records. */
export interface LoopParts {
  write: (text: string) => void;
  errors: ErrorLog;
  counts: LatencyCounts;
}

/** What the process's reader calls: each line of a read (with the read's time), then once after them. */
export interface ReadHooks {
  onLine: (buffer: Buffer, start: number, end: number, now: number) => void;
  afterRead: () => void;
  fail: (error: Error) => void;
}

/** `load`'s first id (docs/load.md): the same digits on the wire. */
const FIRST_ID = 2 ** 30;
/** Pending requests live in slot `id & MASK`; far more slots than requests in flight. */
const SLOTS = 4096;
const MASK = SLOTS - 1;
/** The request around its id: what `load --call echo message=hello` writes. */
const REQUEST_HEAD = '{"jsonrpc":"2.0","id":';
const REQUEST_TAIL = ',"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}\n';
/** The answer bench/servers/raw-mcp.mjs gives it, around its id. */
const ANSWER_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const ANSWER_TAIL = Buffer.from(',"result":{"content":[{"type":"text","text":"hello"}]}}');

/** True when `buffer` holds `expected` at `at`. */
function holds(buffer: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > buffer.length) return false;
  for (let index = 0; index < expected.length; index++)
    if (buffer[at + index] !== expected[index]) return false;
  return true;
}

/** The id of the line [start, end) when it is exactly the expected answer to one, else -1. */
function idOfExpected(buffer: Buffer, start: number, end: number): number {
  if (!holds(buffer, start, ANSWER_HEAD)) return -1;
  let at = start + ANSWER_HEAD.length;
  let id = 0;
  for (let byte = buffer[at]!; byte >= 0x30 && byte <= 0x39; byte = buffer[++at]!) id = id * 10 + byte - 0x30;
  return at > start + ANSWER_HEAD.length && end - at === ANSWER_TAIL.length && holds(buffer, at, ANSWER_TAIL)
    ? id
    : -1;
}

/** A line not shaped as the expected answer, parsed: its id and what is wrong with it (none for a notification). */
function judgeOtherLine(line: string): { id?: number | undefined; problem?: string | undefined } {
  let message: { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    return { problem: `non-JSON line: ${line.slice(0, 120)}` };
  }
  if (typeof message !== 'object' || message === null)
    return { problem: `not an object: ${line.slice(0, 120)}` };
  if (message.method !== undefined)
    return message.id === undefined ? {} : { problem: `unexpected server request: ${line.slice(0, 120)}` };
  const id = typeof message.id === 'number' ? message.id : undefined;
  const text = (message.result as { content?: Array<{ text?: unknown }> } | undefined)?.content?.[0]?.text;
  return { id, problem: text === 'hello' ? undefined : `wrong answer: ${line.slice(0, 120)}` };
}

/** The requests in flight: their ids in slots (no allocation per request), their times, the next write. */
class InFlight {
  readonly #at = new Float64Array(SLOTS);
  /** The id pending in each slot, 0 when none. */
  readonly #id = new Float64Array(SLOTS);
  readonly #parts: LoopParts;
  count = 0;
  nextId = FIRST_ID;
  #unstampedFrom = FIRST_ID;
  #batch = '';

  constructor(parts: LoopParts) {
    this.#parts = parts;
  }

  /** Queues the next request for the next `flush`; timed from `at` (the open model's due time), else from that write. */
  queue(at = NaN): void {
    const id = this.nextId++;
    const slot = id & MASK;
    if (this.#id[slot] !== 0)
      this.#parts.errors.record(`request ${this.#id[slot]} pending past ${SLOTS} more`);
    this.#id[slot] = id;
    this.#at[slot] = at;
    this.count++;
    this.#batch += REQUEST_HEAD + id + REQUEST_TAIL;
  }

  /** Writes everything queued in one write; requests with no time yet are timed from now. */
  flush(): void {
    if (this.#batch === '') return;
    const now = performance.now();
    for (; this.#unstampedFrom < this.nextId; this.#unstampedFrom++) {
      const slot = this.#unstampedFrom & MASK;
      if (Number.isNaN(this.#at[slot])) this.#at[slot] = now;
    }
    this.#parts.write(this.#batch);
    this.#batch = '';
  }

  /** Takes the answer to `id`: the time its latency runs from, or NaN (an error recorded) when it is not in flight. */
  take(id: number): number {
    const slot = id & MASK;
    if (id < FIRST_ID || this.#id[slot] !== id) {
      this.#parts.errors.record(`unknown id ${id}`);
      return NaN;
    }
    this.#id[slot] = 0;
    this.count--;
    return this.#at[slot]!;
  }
}

/**
 * The reader's line hook: each answer taken off `inFlight` and judged (a wrong one recorded), then
 * `settle` with the time its latency runs from; notifications pass, unknown ids are recorded.
 */
function onLineOf(
  inFlight: InFlight,
  errors: ErrorLog,
  settle: (id: number, at: number, isOk: boolean, now: number) => void,
): ReadHooks['onLine'] {
  const answered = (id: number, problem: string | undefined, now: number): void => {
    const at = inFlight.take(id);
    if (Number.isNaN(at)) return;
    if (problem !== undefined) errors.record(problem);
    settle(id, at, problem === undefined, now);
  };
  return (buffer, start, end, now) => {
    const id = idOfExpected(buffer, start, end);
    if (id >= 0) return answered(id, undefined, now);
    const judged = judgeOtherLine(buffer.toString('utf8', start, end));
    if (judged.id !== undefined) answered(judged.id, judged.problem, now);
    else if (judged.problem !== undefined) errors.record(judged.problem);
  };
}

/** Rejects past 1,000 wrong answers; true when it did. */
function isOverErrorCap(errors: ErrorLog, reject: (error: Error) => void): boolean {
  if (errors.count <= 1_000) return false;
  reject(new Error(`over 1,000 wrong answers; first: ${errors.samples[0]}`));
  return true;
}

/** The closed loop over an initialised server: resolves once the window is over and every answer is in. */
export function closedLoop(
  config: SliceConfig,
  parts: LoopParts,
  install: (hooks: ReadHooks) => void,
): Promise<void> {
  const { errors, counts } = parts;
  const inFlight = new InFlight(parts);
  const measureStart = performance.now() + config.warmupMs;
  const measureEnd = measureStart + config.sliceMs;
  return new Promise<void>((resolve, reject) => {
    install({
      onLine: onLineOf(inFlight, errors, (_id, at, isOk, now) => {
        if (isOk && at >= measureStart && at < measureEnd) counts.record(now - at);
        if (now < measureEnd && inFlight.nextId - FIRST_ID < (config.requests ?? Infinity)) inFlight.queue();
      }),
      afterRead: () => {
        inFlight.flush();
        if (!isOverErrorCap(errors, reject) && inFlight.count === 0) resolve();
      },
      fail: reject,
    });
    for (let index = 0; index < config.concurrency; index++) inFlight.queue();
    inFlight.flush();
  });
}

/**
 * The open model over an initialised server, as `load --rate` schedules it: the warm-up's and the
 * window's sends (rate x time each, rounded up) each due at start + k/rate and written when due (all
 * due at one wake in one write), at most `concurrency` in flight (a send due while capped waits; what
 * still waits at the window's end is dropped); a measured answer's latency runs from its due time.
 */
export function openLoop(
  config: SliceConfig,
  parts: LoopParts,
  install: (hooks: ReadHooks) => void,
): Promise<void> {
  const { errors, counts } = parts;
  const rate = config.rate!;
  const inFlight = new InFlight(parts);
  const intervalMs = 1000 / rate;
  const warmupSlots = Math.ceil((config.warmupMs * rate) / 1000);
  const total = warmupSlots + Math.ceil((config.sliceMs * rate) / 1000);
  const firstMeasuredId = FIRST_ID + warmupSlots;
  const start = performance.now();
  const windowEnd = start + total * intervalMs;
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  return new Promise<void>((resolve, reject) => {
    const dispatch = (): void => {
      clearTimeout(timer);
      const now = performance.now();
      if (now >= windowEnd) next = total;
      for (; next < total && inFlight.count < config.concurrency; next++) {
        const due = start + next * intervalMs;
        if (due > now) break;
        inFlight.queue(due);
      }
      inFlight.flush();
      if (next < total) {
        const due = start + next * intervalMs;
        // Capped: wake at the window's end at the latest, to drop what still waits.
        timer = setTimeout(dispatch, Math.max(0, (due > now ? due : windowEnd) - now));
      } else if (inFlight.count === 0) resolve();
    };
    install({
      onLine: onLineOf(inFlight, errors, (id, at, isOk, now) => {
        if (isOk && id >= firstMeasuredId) counts.record(now - at);
      }),
      afterRead: () => {
        if (isOverErrorCap(errors, reject)) clearTimeout(timer);
        else dispatch();
      },
      fail: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    dispatch();
  });
}
