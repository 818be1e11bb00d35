// The stdio tap's observer thread: takes the batches of forwarded bytes the main thread posts (see
// worker-observer.ts) and splits, records and lints them in the order they were forwarded, at the
// lowest CPU priority, so on a busy machine forwarding (main thread, client, server) runs first.

import { readlinkSync, writeSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { CliError } from '../../exit-code.ts';
import { LineSplitter } from '../recorder.ts';
import type { Side } from '../transcript.ts';
import { openTapRecording, type TapRecording } from './tap-recording.ts';
import { Op, type ObserveBatch, type ObserveWorkerData, type WorkerReport } from './observe-protocol.ts';

/** The lowest priority there is (nice 19); the main thread's forwarding keeps the default. */
const LOWEST_PRIORITY = 19;

/** This thread's id on Linux, which /proc/thread-self names (-> <pid>/task/<tid>); else undefined. */
function ownThreadId(): number | undefined {
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Lowers this thread alone (not the process) to nice 19; where that is refused, nothing changes. */
function lowerPriority(tid: number | undefined): void {
  try {
    if (tid !== undefined) setPriority(tid, LOWEST_PRIORITY);
  } catch {
    // Not permitted: the observer runs at the default priority.
  }
}

/** Writes all of `text` to fd 2 (the tap's stderr) now, retrying a pipe that is full (EAGAIN). */
function writeStderr(text: string): void {
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(2, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

async function main(port: NonNullable<typeof parentPort>, data: ObserveWorkerData): Promise<void> {
  const consumed = new BigInt64Array(data.consumed);
  // Stamps: the time the main thread forwarded the bytes, moved onto this thread's clock.
  const offset = data.timeOrigin - performance.timeOrigin;
  let stampAt: number | undefined;
  const clock = (): number => (stampAt === undefined ? performance.now() : stampAt + offset);
  let recording: TapRecording;
  try {
    recording = await openTapRecording(
      { transport: 'stdio', target: data.target, clock, stderr: { write: writeStderr, isTTY: data.isTTY } },
      data.options,
    );
  } catch (error) {
    const exitCode = error instanceof CliError ? error.exitCode : undefined;
    port.postMessage({ type: 'failed', message: (error as Error).message, exitCode } satisfies WorkerReport);
    return;
  }
  // Lowered once the recording is open: the tap waits for that before it starts the server.
  const tid = ownThreadId();
  lowerPriority(tid);
  const { recorder } = recording;
  const splitterOf = (from: Side): LineSplitter =>
    new LineSplitter((text, isCut) => {
      if (isCut)
        recorder.record({ type: 'invalid', from, text, reason: 'a line over 16 MiB (recorded cut)' });
      else recorder.line(from, text);
    });
  const splitters: Record<Side, LineSplitter> = {
    client: splitterOf('client'),
    server: splitterOf('server'),
  };
  const handleBatch = (batch: ObserveBatch): void => {
    const bytes = Buffer.from(batch.bytes);
    let position = 0;
    for (const op of batch.ops) {
      stampAt = op.at;
      if (op.kind === Op.record) recorder.record(op.observed);
      else if (op.kind === Op.end) splitters[op.from].end();
      else {
        const chunk = bytes.subarray(position, (position += op.length));
        if (op.kind === Op.stderr) recorder.record({ type: 'stderr', text: chunk.toString('utf8') });
        else splitters[op.kind === Op.client ? 'client' : 'server'].push(chunk);
        // Progress per chunk, so a main thread held back by a full backlog resumes as soon as it can.
        Atomics.add(consumed, 0, BigInt(op.length));
        Atomics.notify(consumed, 0);
      }
    }
    stampAt = undefined;
  };
  port.on('message', (message: ObserveBatch | 'close') => {
    if (message !== 'close') return handleBatch(message);
    // The transcript and log are complete once this resolves; then the thread may end.
    void recording.close().then(() => {
      port.postMessage({ type: 'closed' } satisfies WorkerReport);
      port.close();
    });
  });
  port.postMessage({ type: 'ready', tid } satisfies WorkerReport);
}

if (parentPort !== null) await main(parentPort, workerData as ObserveWorkerData);
