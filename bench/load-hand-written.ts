// The hand-written load drivers `bench/load.ts` compares `mcpwire load` with: over stdio (one server
// process, pipelined) and Streamable HTTP (a session per connection, bench/raw-http.ts), a closed loop
// each, every answer checked, latencies bucketed as `load` buckets its own. A slice runs in a process
// of its own by default, as `load` does (`runHandWrittenInChild`: this file run as a script), so both
// drivers measure from the same point of a process's life: a fresh one after the same warm-up, its
// JIT and heap as cold. Run in the bench's own process instead (BENCH_LOAD_HAND=in-process), the
// driver is warm from its second slice on, which `load`, a new process per slice, never is.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extractResponse, type HttpWorkload } from './http-driver.ts';
import { RawHttpConnection } from './raw-http.ts';
import { ErrorLog, killAllChildren, type RawResponse } from './server-process.ts';
import { LatencyCounts } from './latency-counts.ts';
import { runToEnd } from './load-child.ts';
import { runHandWrittenStdio, type Slice, type SliceConfig } from './load-hand-stdio.ts';
import { echo2025 } from './workloads.ts';

// The bundle runs from a temporary directory: the repository's root comes from the bench.
const root = process.env.BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

export type { Slice, SliceConfig } from './load-hand-stdio.ts';
export { runHandWrittenStdio } from './load-hand-stdio.ts';

/** The HTTP server a slice drives: its URL, and if known whether it exited (and its stderr's end). */
export interface HttpTarget {
  url: string;
  hasExited?: boolean;
  stderrTail?(): string;
}

/** initialize (answer must carry a session), notifications/initialized; the headers of the calls. */
const sessionWorkload: HttpWorkload = {
  name: 'stateful 2025-06-18',
  setup: async (connection) => {
    const accept = 'application/json, text/event-stream';
    const params = {
      protocolVersion: echo2025.protocolVersion,
      capabilities: {},
      clientInfo: { name: 'bench', version: '0' },
    };
    const answer = await connection.post(
      { accept },
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
    );
    if (answer.status !== 200 || answer.sessionId === undefined)
      throw new Error(`initialize: HTTP ${answer.status}`);
    const headers = {
      accept,
      'mcp-session-id': answer.sessionId,
      'mcp-protocol-version': echo2025.protocolVersion,
    };
    await connection.post(headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return headers;
  },
  call: async (connection, headers, i) => {
    const { method, params } = echo2025.makeRequest(i);
    const answer = await connection.post(headers, JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
    if (answer.status !== 200) return `HTTP ${answer.status}`;
    const message = extractResponse(answer, i);
    return typeof message === 'string' ? message : echo2025.check(message as RawResponse, i);
  },
};

/**
 * The hand-written HTTP driver, one slice: a session per connection (bench/raw-http.ts, one request
 * in flight each), a closed loop per connection, every answer checked. A request is timed from the
 * socket write to the read of its whole response (RawHttpConnection's sentAt and answeredAt, as load's
 * engine times it), and counted when it started inside the window.
 */
export async function runHandWrittenHttp(http: HttpTarget, config: SliceConfig): Promise<Slice> {
  const url = new URL(http.url);
  const errors = new ErrorLog();
  const histogram = new LatencyCounts();
  const connections = Array.from({ length: config.concurrency }, () => new RawHttpConnection(url));
  try {
    const sessions = await Promise.all(connections.map((connection) => sessionWorkload.setup(connection)));
    let nextId = 1;
    const measureStart = performance.now() + config.warmupMs;
    const measureEnd = measureStart + config.sliceMs;
    const worker = async (connection: RawHttpConnection, headers: Record<string, string>): Promise<void> => {
      for (;;) {
        const start = performance.now();
        if (start >= measureEnd) return;
        const i = nextId++;
        let problem: string | undefined;
        try {
          problem = await sessionWorkload.call(connection, headers, i);
        } catch (error) {
          problem = `request failed: ${(error as Error).message}`;
        }
        if (problem !== undefined) {
          errors.record(problem);
          if (http.hasExited === true) throw new Error(`server exited; stderr: ${http.stderrTail?.()}`);
          if (errors.count > 1_000) throw new Error(`over 1,000 wrong answers; first: ${errors.samples[0]}`);
        } else if (start >= measureStart) histogram.record(connection.answeredAt - connection.sentAt);
      }
    };
    await Promise.all(connections.map((connection, index) => worker(connection, sessions[index]!)));
    return { requests: histogram.count, errors: errors.count, buckets: histogram.buckets() };
  } finally {
    for (const connection of connections) connection.close();
  }
}

/** This file bundled once per bench run (its imports are local files and node:*), then reused. */
let bundled: Promise<string> | undefined;

/** The path of this file bundled to plain JavaScript, as its child processes run it. */
export function bundledScript(): Promise<string> {
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const dir = mkdtempSync(join(tmpdir(), 'mcpwire-bench-load-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'load-hand-written.mjs');
    await build({
      entryPoints: [fileURLToPath(import.meta.url)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundled;
}

/**
 * One slice of the hand-written driver in a new process (this file, bundled, run as a script),
 * started as `load` is: node, then connect, warm up, measure; resolves with its slice. `onSpawn`
 * gets the child process as it starts.
 */
export async function runHandWrittenInChild(
  transport: 'stdio' | 'http',
  config: SliceConfig,
  url?: string,
  onSpawn?: (child: ChildProcess) => void,
): Promise<Slice> {
  const args = [
    await bundledScript(),
    transport,
    JSON.stringify(config),
    ...(url === undefined ? [] : [url]),
  ];
  const { code, stdout, stderr } = await runToEnd(
    node,
    args,
    { cwd: root, env: { ...process.env, BENCH_ROOT: root } },
    onSpawn,
  );
  if (code !== 0)
    throw new Error(`hand-written ${transport} driver exited ${code}: ${stderr.trim().slice(-500)}`);
  return JSON.parse(stdout) as Slice;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [transport, config, url] = process.argv.slice(2) as ['stdio' | 'http', string, string | undefined];
  try {
    const slice =
      transport === 'stdio'
        ? await runHandWrittenStdio(JSON.parse(config) as SliceConfig)
        : await runHandWrittenHttp({ url: url! }, JSON.parse(config) as SliceConfig);
    process.stdout.write(JSON.stringify(slice));
  } catch (error) {
    killAllChildren();
    throw error;
  }
}
