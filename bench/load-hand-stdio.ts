// The hand-written stdio load driver of bench/load.ts, as lean as a careful engineer writes one: the
// same request bytes as `mcpwire load` sends (its ids from 2^30 too), the same batching (every request
// sent in answer to one read goes out in one write), answers read as bytes and checked against the one
// answer this server gives without parsing them (only a line of another shape is parsed), the pending
// requests and the latencies in typed arrays: no allocation per answer.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { LatencyCounts } from './latency-counts.ts';
import { closedLoop, openLoop, type ReadHooks, type SliceConfig } from './load-hand-loops.ts';
import { ErrorLog } from './server-process.ts';

// The bundle runs from a temporary directory: the repository's root comes from the bench.
const root = process.env.BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');

export type { SliceConfig } from './load-hand-loops.ts';

/** One slice of a driver: requests started in its window, errors, latencies (ms) as histogram buckets. */
export interface Slice {
  requests: number;
  errors: number;
  /** [value ms, count]: each bucket read as load's histogram reads it (its start if 1 ns wide, else its midpoint). */
  buckets: Array<[number, number]>;
}

const NEWLINE = 0x0a;

/**
 * The hand-written stdio driver, one slice: starts `command` (by default bench/servers/raw-mcp.mjs),
 * initialize, then a closed loop of `concurrency` requests in flight (each answer sends the next; the
 * requests of one read go out in one write) or with `config.rate` the open model as `load --rate` runs
 * it (bench/load-hand-loops.ts), every answer checked. In the closed loop a request is timed from the
 * write that carried it to the read that brought its answer, and counted when written inside the window.
 */
export async function runHandWrittenStdio(
  config: SliceConfig,
  command: readonly string[] = [process.execPath, join(root, 'bench/servers/raw-mcp.mjs'), 'stdio'],
): Promise<Slice> {
  const errors = new ErrorLog();
  const counts = new LatencyCounts();
  const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderrTail = '';
  child.stderr
    .setEncoding('utf8')
    .on('data', (text: string) => (stderrTail = (stderrTail + text).slice(-500)));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let onLine: (buffer: Buffer, start: number, end: number, now: number) => void = () => {};
  let afterRead: () => void = () => {};
  let fail: (error: Error) => void = () => {};
  let carry: Buffer | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    const now = performance.now();
    const buffer = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      if (end > start) onLine(buffer, start, end, now);
      start = end + 1;
    }
    carry = start < buffer.length ? buffer.subarray(start) : undefined;
    afterRead();
  });
  let isClosing = false;
  child.once('close', (code, signal) => {
    if (!isClosing) fail(new Error(`server exited early (${code ?? signal}): ${stderrTail.trim()}`));
  });
  child.stdin.on('error', (error) => isClosing || fail(error));
  try {
    await new Promise<void>((resolve, reject) => {
      fail = reject;
      onLine = (buffer, start, end) => {
        const line = buffer.toString('utf8', start, end);
        const answer = JSON.parse(line) as { id?: unknown; method?: unknown; result?: unknown };
        if (answer.method !== undefined) return;
        if (answer.id !== 0 || typeof answer.result !== 'object')
          errors.record(`initialize: ${line.slice(0, 120)}`);
        resolve();
      };
      const params = {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '0' },
      };
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }) + '\n');
    });
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const parts = { write: (text: string) => child.stdin.write(text), errors, counts };
    const install = (hooks: ReadHooks): void => {
      onLine = hooks.onLine;
      afterRead = hooks.afterRead;
      fail = hooks.fail;
    };
    await (config.rate === undefined ? closedLoop(config, parts, install) : openLoop(config, parts, install));
    return { requests: counts.count, errors: errors.count, buckets: counts.buckets() };
  } finally {
    isClosing = true;
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}
