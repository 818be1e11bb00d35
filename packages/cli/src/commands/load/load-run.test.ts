// LoadRun's latency: when the connection reports when a request was written and when its answer
// was read (the wire engine does), the closed loop measures that span, as a hand-written driver
// does; the open model measures from the due time to the answer (no coordinated omission).

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { LoadRun, type RunConnection } from './load-run.ts';
import type { LoadStep } from './load-steps.ts';
import { LoadRandom } from './random.ts';

const step = { label: 'call echo', weight: 1 } as LoadStep;

/** A connection that answers at once and reports the request written at 1000 ms, answered 0.25 ms later. */
function reportingConnection(): RunConnection & { sent: number } {
  return {
    sent: 0,
    isConnected: true,
    send(_step: LoadStep, _i: number, _worker: number, timing?: { sentAt: number; answeredAt: number }) {
      this.sent++;
      if (timing !== undefined) {
        timing.sentAt = 1000;
        timing.answeredAt = 1000.25;
      }
      return Promise.resolve(undefined);
    },
  };
}

test('the closed loop measures from the write to the answer the connection reports', async () => {
  const connection = reportingConnection();
  const run = new LoadRun({
    steps: [step],
    connections: [connection],
    random: new LoadRandom(1),
    concurrency: 2,
    stop: { requests: 20 },
    warmup: { requests: 2 },
  });
  await run.run();
  assert.equal(connection.sent, 22);
  assert.equal(run.tally.ok, 20);
  const { histogram } = run.tally;
  assert.ok(Math.abs(histogram.min - 0.25) < 0.0025, `min ${histogram.min} ms, want 0.25`);
  assert.ok(Math.abs(histogram.max - 0.25) < 0.0025, `max ${histogram.max} ms, want 0.25`);
});

test('a connection that reports nothing is measured around its send', async () => {
  const connection: RunConnection = {
    isConnected: true,
    send: () => new Promise((resolve) => setImmediate(() => resolve(undefined))),
  };
  const run = new LoadRun({
    steps: [step],
    connections: [connection],
    random: new LoadRandom(1),
    concurrency: 1,
    stop: { requests: 3 },
    warmup: { requests: 0 },
  });
  await run.run();
  assert.equal(run.tally.ok, 3);
  assert.ok(run.tally.histogram.min > 0);
});

test('the open model measures from the due time to the answer the connection reports', async () => {
  // Answers reported 50 ms after the send: every latency is at least that, whenever the send was due.
  const connection: RunConnection = {
    isConnected: true,
    send(_step: LoadStep, _i: number, _worker: number, timing?: { sentAt: number; answeredAt: number }) {
      if (timing !== undefined) timing.answeredAt = performance.now() + 50;
      return Promise.resolve(undefined);
    },
  };
  const run = new LoadRun({
    steps: [step],
    connections: [connection],
    random: new LoadRandom(1),
    concurrency: 4,
    stop: { requests: 10 },
    warmup: { requests: 0 },
    rate: 10_000,
  });
  await run.run();
  assert.equal(run.tally.ok, 10);
  assert.ok(run.tally.histogram.min >= 49.5, `min ${run.tally.histogram.min} ms, want at least 50`);
});

test('the closed loop sends with sendThen when the connection has it, each outcome counted, and stops a worker whose connection closed', async () => {
  // Answers and failures settle later (as the stdio engine's do, when the answer is read); the
  // third request of the run fails and closes the connection, the rest are answered, one a tool error.
  let sent = 0;
  let isConnected = true;
  const settledLater: Array<() => void> = [];
  const connection: RunConnection = {
    get isConnected() {
      return isConnected;
    },
    send: () => Promise.reject(new Error('the closed loop must send with sendThen')),
    sendThen(_step, _i, _worker, timing, settled) {
      const n = ++sent;
      timing.sentAt = 1000;
      timing.answeredAt = 1000.5;
      settledLater.push(() => {
        if (n === 12) isConnected = false;
        if (n >= 12) settled.handleError(new Error('gone'));
        else settled.handleAnswer(n === 5 ? 'tool said no' : undefined);
      });
      setImmediate(() => settledLater.shift()!());
    },
  };
  const run = new LoadRun({
    steps: [step],
    connections: [connection],
    random: new LoadRandom(1),
    concurrency: 2,
    stop: { requests: 1000 },
    warmup: { requests: 2 },
  });
  await run.run();
  // Request 12 failed with its connection gone: its worker stopped, and the other one when its
  // request in flight (13) failed too; 2 warm-up requests, 10 answered (one a tool error), 2 failed.
  assert.equal(sent, 13);
  assert.equal(run.closedConnections, 1);
  assert.equal(run.warmupRequests, 2);
  assert.deepEqual([run.tally.ok, run.tally.errors], [8, 3]);
  assert.deepEqual(
    run.tally.errorCounts().map(({ kind, count }) => ({ kind, count })),
    [
      { kind: 'transport', count: 2 },
      { kind: 'tool_error', count: 1 },
    ],
  );
  assert.ok(Math.abs(run.tally.histogram.max - 0.5) < 0.005, `max ${run.tally.histogram.max} ms, want 0.5`);
});
