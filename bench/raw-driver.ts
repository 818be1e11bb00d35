// The SDK-free benchmark client: spawns a stdio MCP server, speaks NDJSON JSON-RPC over its stdin/stdout,
// verifies every response, and takes the three measurements (spawn-to-ready, sequential latency, pipelined throughput).
import { performance } from 'node:perf_hooks';
import { readCpuUs } from './http-driver.ts';
import { ErrorLog, type RawResponse, ServerProcess, type ServerSpec } from './server-process.ts';
import { percentile } from './stats.ts';

export { ErrorLog, killAllChildren, type RawResponse, type ServerSpec } from './server-process.ts';

/** One request a workload sends; the driver adds `jsonrpc` and `id`. */
export interface WorkloadRequest {
  method: string;
  params?: unknown;
}

/**
 * What the driver sends and how it judges the answers. Request `i` always carries JSON-RPC id `i`;
 * the driver checks the id itself, `check` judges only the content.
 */
export interface Workload {
  name: string;
  /**
   * The protocol era the workload speaks: `handshake` (2025-era and earlier, `initialize` handshake) or `stateless`
   * (2026-07-28 and later, stateless, per-request `_meta` envelope). The harness starts each server in the
   * configuration that serves this era.
   */
  era: 'handshake' | 'stateless';
  /** When true, each connection opens with `initialize` + `notifications/initialized` (the 2025-era lifecycle). */
  handshake?: boolean;
  /**
   * For workloads without a handshake: the request sent as id 0 to open the connection (for example the
   * 2026-era `server/discover` probe), and how to judge its response. When absent, request 0 is `makeRequest(0)`.
   */
  open?: {
    request: WorkloadRequest;
    check(response: RawResponse): string | undefined;
  };
  /** The protocol revision: offered in `initialize` (and required back) for handshake workloads. */
  protocolVersion: string;
  makeRequest(i: number): WorkloadRequest;
  /** Returns a description of what is wrong with the response to request `i`, or `undefined` when it is right. */
  check(response: RawResponse, i: number): string | undefined;
}

/** Limits that keep a broken server from hanging the run. */
export interface DriverOptions {
  /** Fail the measurement when no message arrives for this long. */
  idleTimeoutMs: number;
  /** After closing stdin, wait this long for exit before SIGTERM (and again before SIGKILL). */
  graceMs: number;
}

function encode({ method, params }: WorkloadRequest, id: number): string {
  return (
    JSON.stringify(
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
    ) + '\n'
  );
}

function encodeRequest(workload: Workload, id: number): string {
  return encode(workload.makeRequest(id), id);
}

/** Judges one response: JSON-RPC shape, the expected id, then `check` (the content). */
function verifyWith(
  response: RawResponse,
  id: number,
  errors: ErrorLog,
  check: (response: RawResponse) => string | undefined,
): void {
  if (response.id !== id) errors.record(`expected id ${id}, received ${JSON.stringify(response.id)}`);
  else if (response.jsonrpc !== '2.0')
    errors.record(`id ${id}: jsonrpc is ${JSON.stringify(response.jsonrpc)}`);
  else if (response.error !== undefined) errors.record(`id ${id}: error ${JSON.stringify(response.error)}`);
  else {
    const problem = check(response);
    if (problem !== undefined) errors.record(`id ${id}: ${problem}`);
  }
}

/** Judges the response to workload request `id` with the workload's own check. */
function verify(workload: Workload, response: RawResponse, id: number, errors: ErrorLog): void {
  verifyWith(response, id, errors, (r) => workload.check(r, id));
}

/**
 * Runs `phase` against the process until it calls `done`, failing on early exit or when the server
 * stays silent for `idleTimeoutMs`.
 */
function runPhase(
  server: ServerProcess,
  options: DriverOptions,
  phase: (done: () => void, fail: (error: Error) => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.lastActivity = performance.now();
    const watchdog = setInterval(() => {
      const idle = performance.now() - server.lastActivity;
      if (idle > options.idleTimeoutMs) fail(new Error(`no response for ${Math.round(idle)} ms`));
    }, 250);
    const settle = (): void => clearInterval(watchdog);
    const fail = (error: Error): void => {
      settle();
      reject(error);
    };
    phase(() => {
      settle();
      resolve();
    }, fail);
  });
}

/**
 * Opens the connection: the `initialize` request for handshake workloads, else the workload's `open` request
 * (or its request 0) as id 0. Resolves to the `performance.now()` at which the opening response was parsed.
 */
async function openConnection(
  server: ServerProcess,
  workload: Workload,
  options: DriverOptions,
  errors: ErrorLog,
): Promise<number> {
  let openedAt = 0;
  await runPhase(server, options, (done, fail) => {
    server.listen((response) => {
      openedAt = performance.now();
      if (workload.handshake) verifyInitialize(workload, response, errors);
      else if (workload.open) verifyWith(response, 0, errors, (r) => workload.open!.check(r));
      else verify(workload, response, 0, errors);
      done();
    }, fail);
    if (!workload.handshake) {
      server.write(workload.open ? encode(workload.open.request, 0) : encodeRequest(workload, 0));
      return;
    }
    const params = {
      protocolVersion: workload.protocolVersion,
      capabilities: {},
      clientInfo: { name: 'mcpwire-bench', version: '0.0.0' },
    };
    server.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }) + '\n');
  });
  return openedAt;
}

function verifyInitialize(workload: Workload, response: RawResponse, errors: ErrorLog): void {
  const result = response.result as { protocolVersion?: unknown } | undefined;
  if (response.id !== 0) errors.record(`initialize: expected id 0, received ${JSON.stringify(response.id)}`);
  else if (response.error !== undefined) errors.record(`initialize: error ${JSON.stringify(response.error)}`);
  else if (result?.protocolVersion !== workload.protocolVersion) {
    errors.record(
      `initialize: expected protocolVersion ${workload.protocolVersion}, received ${JSON.stringify(result?.protocolVersion)}`,
    );
  }
}

/** Spawns `spec`, opens the connection, runs `body`, and always closes the process. */
async function withServer<T>(
  spec: ServerSpec,
  workload: Workload,
  options: DriverOptions,
  body: (server: ServerProcess, errors: ErrorLog, openMs: number) => Promise<T>,
): Promise<T> {
  const errors = new ErrorLog();
  const spawnedAt = performance.now();
  const server = new ServerProcess(spec, errors);
  try {
    const openedAt = await openConnection(server, workload, options, errors);
    if (workload.handshake) server.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return await body(server, errors, openedAt - spawnedAt);
  } finally {
    await server.close(options.graceMs);
  }
}

/** Result of {@link measureSpawn}. */
export interface SpawnMeasurement {
  ms: number;
  errors: ErrorLog;
}

/**
 * Time from `spawn()` until the opening response is parsed: the `initialize` result for handshake workloads,
 * the `open` request's result (for example `server/discover`) for workloads that have one.
 */
export function measureSpawn(
  spec: ServerSpec,
  workload: Workload,
  options: DriverOptions,
): Promise<SpawnMeasurement> {
  return withServer(spec, workload, options, async (_server, errors, openMs) => ({ ms: openMs, errors }));
}

/** Result of {@link measureSequential}; latencies are in microseconds, warm-up excluded. */
export interface SequentialMeasurement {
  p50Us: number;
  p99Us: number;
  errors: ErrorLog;
}

/** Sends `warmup + count` requests strictly one at a time and times each measured round trip. */
export function measureSequential(
  spec: ServerSpec,
  workload: Workload,
  counts: { warmup: number; count: number },
  options: DriverOptions,
): Promise<SequentialMeasurement> {
  return withServer(spec, workload, options, async (server, errors) => {
    const total = counts.warmup + counts.count;
    // Serialised up front so the timed loop only writes and parses.
    const lines = Array.from({ length: total }, (_, i) => encodeRequest(workload, i + 1));
    const samples = new Float64Array(counts.count);
    await runPhase(server, options, (done, fail) => {
      let index = 0;
      let sentAt = 0;
      server.listen((response) => {
        const receivedAt = performance.now();
        verify(workload, response, index + 1, errors);
        if (index >= counts.warmup) samples[index - counts.warmup] = (receivedAt - sentAt) * 1000;
        index++;
        if (index === total) return done();
        sentAt = performance.now();
        server.write(lines[index]!);
      }, fail);
      sentAt = performance.now();
      server.write(lines[0]!);
    });
    return { p50Us: percentile(samples, 50)!, p99Us: percentile(samples, 99)!, errors };
  });
}

/** Result of {@link measurePipelined}. */
export interface PipelinedMeasurement {
  callsPerSecond: number;
  /**
   * The server's CPU time (user + system, from /proc/<pid>/stat, 10 ms ticks) over the timed calls, per call;
   * undefined where /proc cannot be read.
   */
  serverCpuUsPerCall: number | undefined;
  errors: ErrorLog;
}

/**
 * Keeps up to `window` requests in flight; refills the window once per stdout chunk with a single
 * `write()`. An untimed pipelined warm-up of `warmup` calls runs first on the same connection.
 */
export function measurePipelined(
  spec: ServerSpec,
  workload: Workload,
  counts: { warmup: number; count: number; window: number },
  options: DriverOptions,
): Promise<PipelinedMeasurement> {
  return withServer(spec, workload, options, async (server, errors) => {
    const run = (firstId: number, count: number) =>
      pipeline(server, workload, { firstId, count, window: counts.window }, options, errors);
    if (counts.warmup > 0) await run(1, counts.warmup);
    const pid = server.pid;
    const cpuBefore = pid === undefined ? undefined : readCpuUs(pid);
    const seconds = await run(1 + counts.warmup, counts.count);
    const cpuAfter = pid === undefined ? undefined : readCpuUs(pid);
    const serverCpuUsPerCall =
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / counts.count;
    return { callsPerSecond: counts.count / seconds, serverCpuUsPerCall, errors };
  });
}

/** Sends ids `firstId .. firstId+count-1` with at most `window` outstanding; resolves to elapsed seconds. */
async function pipeline(
  server: ServerProcess,
  workload: Workload,
  plan: { firstId: number; count: number; window: number },
  options: DriverOptions,
  errors: ErrorLog,
): Promise<number> {
  const lines = Array.from({ length: plan.count }, (_, i) => encodeRequest(workload, plan.firstId + i));
  // 0 = not sent, 1 = in flight, 2 = answered; catches duplicate and unknown ids.
  const state = new Uint8Array(plan.count);
  let startedAt = 0;
  let finishedAt = 0;
  await runPhase(server, options, (done, fail) => {
    let next = 0;
    let inFlight = 0;
    let answered = 0;
    const fill = (): void => {
      if (inFlight >= plan.window || next >= plan.count) return;
      let batch = '';
      while (inFlight < plan.window && next < plan.count) {
        batch += lines[next];
        state[next++] = 1;
        inFlight++;
      }
      server.write(batch);
    };
    const handle = (response: RawResponse): void => {
      const index = typeof response.id === 'number' ? response.id - plan.firstId : -1;
      if (state[index] !== 1) {
        errors.record(`response for unknown or already answered id ${JSON.stringify(response.id)}`);
        return;
      }
      state[index] = 2;
      inFlight--;
      answered++;
      verify(workload, response, index + plan.firstId, errors);
    };
    const afterChunk = (): void => {
      if (answered === plan.count) {
        finishedAt = performance.now();
        done();
      } else fill();
    };
    server.listen(handle, fail, afterChunk);
    startedAt = performance.now();
    fill();
  });
  return (finishedAt - startedAt) / 1000;
}
