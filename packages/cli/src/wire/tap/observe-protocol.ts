// What the stdio tap's main thread and its observer thread (observe-worker.ts) send each other: the
// thread's start data, the batches of forwarded bytes, and the thread's reports.

import type { Observed } from '../recorder.ts';
import type { Side } from '../transcript.ts';
import type { TapWireOptions } from './tap-recording.ts';

/** The kinds of step in a batch: bytes forwarded one way or from stderr, a stream's end, an entry. */
export const Op = { client: 0, server: 1, stderr: 2, end: 3, record: 4 } as const;

/** One step of a batch, at the time (main thread's performance.now()) the tap saw it. */
export type ObserveOp =
  | { kind: typeof Op.client | typeof Op.server | typeof Op.stderr; at: number; length: number }
  | { kind: typeof Op.end; at: number; from: Side }
  | { kind: typeof Op.record; at: number; observed: Observed };

/**
 * What the main thread saw in one turn of its event loop, in the order it forwarded it: `bytes` holds
 * the byte steps' bytes back to back, in the order of `ops`.
 */
export interface ObserveBatch {
  bytes: ArrayBuffer;
  ops: ObserveOp[];
}

/** The observer thread's `workerData`. */
export interface ObserveWorkerData {
  target: string;
  options: TapWireOptions;
  /** The main thread's performance.timeOrigin, to stamp entries on its clock. */
  timeOrigin: number;
  /** Whether the tap's stderr is a terminal (colour for findings). */
  isTTY: boolean;
  /** One BigInt64: the bytes the thread has observed so far, for the main thread's backpressure. */
  consumed: SharedArrayBuffer;
}

/**
 * The thread's reports: recording open (with its Linux thread id, if known), or not (with the
 * CliError's exit code); closed.
 */
export type WorkerReport =
  | { type: 'ready'; tid: number | undefined }
  | { type: 'failed'; message: string; exitCode: number | undefined }
  | { type: 'closed' };
