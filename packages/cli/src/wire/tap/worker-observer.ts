// The stdio tap's observation off the forwarding thread: what the tap forwarded is copied, a batch
// per turn of the event loop, to one worker thread at the lowest CPU priority (observe-worker.ts),
// which splits, records and lints it in the order it was forwarded. The main thread only forwards.

import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CliError, ExitCode, type ExitCodeValue } from '../../exit-code.ts';
import type { Observed } from '../recorder.ts';
import type { Side } from '../transcript.ts';
import { Op, type ObserveOp, type ObserveWorkerData, type WorkerReport } from './observe-protocol.ts';
import type { TapWireOptions } from './tap-recording.ts';

/**
 * The most forwarded bytes the thread may have left to observe: past this the main thread stops
 * (reading and forwarding both ways) until the thread is back under it, so a flood is slowed to the
 * observer's pace and nothing is dropped.
 */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

/** How long the thread may make no progress (while the tap waits on it) before it counts as stuck. */
const STALL_MS = 5000;

/** Where the tap hands what it forwarded, to be recorded and linted. */
export interface Observer {
  /** A chunk forwarded from `from`; copied before this returns (the caller may reuse it). */
  chunk(from: Side, chunk: Buffer): void;
  /** A chunk of the server's stderr. */
  stderr(chunk: Buffer): void;
  /** The stream from `from` ended. */
  end(from: Side): void;
  /** An entry of the tap's own (spawn, exit, note), in order with the bytes. */
  record(observed: Observed): void;
  /** Resolves once everything handed over is observed and the transcript and log are closed. */
  close(): Promise<void>;
}

/**
 * The observer thread: the bundle's own entry in dist/; from source (tests, `--import tsx`) the
 * TypeScript module beside this file, loaded through tsx's loader, which a thread does not inherit.
 */
function startThread(workerData: ObserveWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./tap-observe-worker.js', import.meta.url), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./observe-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * Starts the observer thread and resolves once its recording is open; rejects with a CliError
 * (a bad --log, --record or --redact: exit 2) when it cannot be.
 */
export async function startWorkerObserver(target: string, options: TapWireOptions): Promise<Observer> {
  const consumed = new BigInt64Array(new SharedArrayBuffer(8));
  const data: ObserveWorkerData = {
    target,
    options,
    timeOrigin: performance.timeOrigin,
    isTTY: process.stderr.isTTY,
    consumed: consumed.buffer as SharedArrayBuffer,
  };
  const worker = startThread(data);
  const ended = new Promise<void>((resolve) => {
    worker.on('message', (report: WorkerReport) => report.type === 'closed' && resolve());
    worker.once('exit', () => resolve());
  });
  const tid = await new Promise<number | undefined>((resolve, reject) => {
    worker.once('message', (report: WorkerReport) => {
      if (report.type === 'ready') return resolve(report.tid);
      if (report.type === 'failed')
        reject(new CliError(report.message, (report.exitCode ?? ExitCode.failed) as ExitCodeValue));
    });
    worker.once('error', (error) =>
      reject(new CliError(`the tap's observer thread failed: ${error.message}`, ExitCode.failed)),
    );
  });
  return new Batcher(worker, { consumed, ended, tid });
}

/** Collects one turn's steps and bytes and posts them as one message, the bytes transferred. */
class Batcher implements Observer {
  readonly #worker: Worker;
  readonly #consumed: BigInt64Array;
  readonly #ended: Promise<void>;
  readonly #tid: number | undefined;
  #ops: ObserveOp[] = [];
  #chunks: Buffer[] = [];
  #pendingBytes = 0;
  #sentBytes = 0;
  #immediate: NodeJS.Immediate | undefined;
  #isDead = false;

  constructor(
    worker: Worker,
    thread: { consumed: BigInt64Array; ended: Promise<void>; tid: number | undefined },
  ) {
    this.#worker = worker;
    this.#consumed = thread.consumed;
    this.#tid = thread.tid;
    this.#ended = thread.ended.then(() => void (this.#isDead = true));
    // A thread that fails mid-run loses the transcript's rest, never the host's traffic; say so.
    worker.on('error', (error) => {
      this.#isDead = true;
      process.stderr.write(
        `mcpwire tap: the observer thread failed (${error.message}): the transcript and lint stop here; forwarding goes on\n`,
      );
    });
  }

  chunk(from: Side, chunk: Buffer): void {
    this.#add(
      { kind: from === 'client' ? Op.client : Op.server, at: performance.now(), length: chunk.length },
      chunk,
    );
  }

  stderr(chunk: Buffer): void {
    this.#add({ kind: Op.stderr, at: performance.now(), length: chunk.length }, chunk);
  }

  end(from: Side): void {
    this.#add({ kind: Op.end, at: performance.now(), from });
  }

  record(observed: Observed): void {
    this.#add({ kind: Op.record, at: performance.now(), observed });
  }

  async close(): Promise<void> {
    this.#raisePriority();
    this.#flush();
    if (!this.#isDead) this.#worker.postMessage('close');
    let seen = Atomics.load(this.#consumed, 0);
    let stalled: NodeJS.Timeout | undefined;
    const stuck = new Promise<void>((resolve) => {
      stalled = setInterval(() => {
        const now = Atomics.load(this.#consumed, 0);
        if (now === seen) resolve();
        seen = now;
      }, STALL_MS);
    });
    await Promise.race([this.#ended, stuck]);
    clearInterval(stalled);
    this.#worker.unref();
  }

  /**
   * Once the server is gone nothing is forwarded any more: the thread's backlog need not yield to
   * the tap, and a host may kill the tap soon. Set back to the default priority, where permitted
   * (Linux grants it with CAP_SYS_NICE or a RLIMIT_NICE above 20; otherwise it stays at 19).
   */
  #raisePriority(): void {
    try {
      if (this.#tid !== undefined) setPriority(this.#tid, 0);
    } catch {
      // Not permitted: the thread finishes at the lowest priority.
    }
  }

  #add(op: ObserveOp, chunk?: Buffer): void {
    if (this.#isDead) return;
    this.#ops.push(op);
    if (chunk !== undefined) {
      this.#chunks.push(chunk);
      this.#pendingBytes += chunk.length;
    }
    this.#immediate ??= setImmediate(this.#flush);
    if (this.#sentBytes + this.#pendingBytes - Number(Atomics.load(this.#consumed, 0)) > MAX_BACKLOG_BYTES)
      this.#waitForBacklog();
  }

  readonly #flush = (): void => {
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#immediate = undefined;
    if (this.#ops.length === 0 || this.#isDead) return;
    const bytes = new Uint8Array(this.#pendingBytes);
    let offset = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    this.#worker.postMessage({ bytes: bytes.buffer, ops: this.#ops }, [bytes.buffer]);
    this.#sentBytes += this.#pendingBytes;
    this.#ops = [];
    this.#chunks = [];
    this.#pendingBytes = 0;
  };

  /** Blocks this thread (no reading, no forwarding) until the backlog is under its bound again. */
  #waitForBacklog(): void {
    this.#flush();
    let lastProgress = performance.now();
    for (;;) {
      const seen = Atomics.load(this.#consumed, 0);
      if (this.#sentBytes - Number(seen) <= MAX_BACKLOG_BYTES) return;
      if (Atomics.wait(this.#consumed, 0, seen, 100) !== 'timed-out') lastProgress = performance.now();
      else if (performance.now() - lastProgress > STALL_MS) return;
    }
  }
}
