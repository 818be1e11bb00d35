// Preloaded (`--import`) into each `mcpwire serve --redis` node of the multi-node soak: reports the
// node's heap (after a forced GC; the node runs with --expose-gc) and RSS on stderr every
// SOAK_SAMPLE_MS as `{"soakMemory":...}` lines, which the soak reads beside the serve banner.

import { MEMORY_KEY, type MemorySample } from './soak-memory.ts';

const sampleMs = Number(process.env.SOAK_SAMPLE_MS ?? '5000');

function report(): void {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const sample: MemorySample = { t: Date.now(), pid: process.pid, heapUsed, rss };
  process.stderr.write(`${JSON.stringify({ [MEMORY_KEY]: sample })}\n`);
}

// The soak reads this pipe; once it is gone the node has no one to report to (its serve loop goes on).
process.stderr.on('error', () => {});
report();
setInterval(report, sampleMs).unref();
