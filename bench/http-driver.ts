// The SDK-free HTTP benchmark client: spawns an MCP server that listens on 127.0.0.1, drives it with
// HTTP/1.1 keep-alive POSTs (one lean raw-socket connection per simulated client, bench/raw-http.ts), verifies every
// response (status, JSON or SSE body, JSON-RPC id, echoed text), and takes the measurements: closed-loop
// throughput and latency at a fixed number of connections, and memory per idle handshake-era session.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type HttpAnswer, RawHttpConnection } from './raw-http.ts';
import { ErrorLog } from './server-process.ts';
import { percentile } from './stats.ts';

/**
 * How to start one HTTP server under test: it prints `http://127.0.0.1:<port>/mcp` on stderr when
 * ready, or, with `isQuiet` (as `mcpwire serve` is off a terminal), is ready once its port accepts.
 */
export interface HttpServerSpec {
  name: string;
  command: string;
  /**
   * Arguments; the literal `{port}` is replaced by 0 (the server picks a free port and prints it),
   * or with `isQuiet` by a port that was free a moment ago.
   */
  args: readonly string[];
  cwd: string;
  isQuiet?: boolean;
}

const liveChildren = new Set<ChildProcess>();

/** A port on 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves true once `port` accepts a connection (tried every 50 ms), false once `hasEnded()`. */
async function whenAccepting(port: number, hasEnded: () => boolean): Promise<boolean> {
  while (!hasEnded()) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (isOpen) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Sends SIGKILL to every server process still alive; for emergency exits. */
export function killAllHttpChildren(): void {
  for (const child of liveChildren) child.kill('SIGKILL');
}

/** A spawned server, its endpoint, and the stderr lines it printed (for the memory probe). */
export class HttpServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  #stderr: string;
  #partial = '';
  #lineWaiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  readonly #exited: Promise<void>;

  private constructor(child: ChildProcess, url: string, stderr: string, exited: Promise<void>) {
    this.child = child;
    this.url = url;
    this.#stderr = stderr;
    this.#exited = exited;
    child.stderr!.on('data', (text: string) => this.#onStderr(text));
  }

  /** Spawns the server and resolves once it has printed its URL, or rejects after `timeoutMs`. */
  static async start(spec: HttpServerSpec, timeoutMs = 15_000): Promise<HttpServerProcess> {
    const port = spec.isQuiet === true ? await freePort() : 0;
    const args = spec.args.map((arg) => (arg === '{port}' ? String(port) : arg));
    const child = spawn(spec.command, args, { cwd: spec.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    liveChildren.add(child);
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    void exited.then(() => liveChildren.delete(child));
    child.stderr!.setEncoding('utf8');
    return new Promise((resolve, reject) => {
      let stderr = '';
      const fail = (reason: string) => {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        child.kill('SIGKILL');
        reject(new Error(`${spec.name}: ${reason}; stderr: ${stderr.trim().slice(-500)}`));
      };
      const timer = setTimeout(
        () =>
          fail(
            spec.isQuiet === true
              ? `port ${port} not open within ${timeoutMs} ms`
              : `no URL on stderr within ${timeoutMs} ms`,
          ),
        timeoutMs,
      );
      const ready = (url: string): void => {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        child.off('close', onClose);
        resolve(new HttpServerProcess(child, url, stderr, exited));
      };
      if (spec.isQuiet === true)
        void whenAccepting(port, () => child.exitCode !== null || child.signalCode !== null).then(
          (isOpen) => isOpen && ready(`http://127.0.0.1:${port}/mcp`),
        );
      const onData = (text: string) => {
        stderr += text;
        const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match && spec.isQuiet !== true) ready(match[0]);
      };
      const onClose = (code: number | null) => fail(`exited before listening (code ${code})`);
      child.stderr!.on('data', onData);
      child.once('close', onClose);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Whether the process has exited (a crash mid-measurement). */
  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  stderrTail(): string {
    return this.#stderr.trim().slice(-500);
  }

  /** Resolves with the next stderr line starting with `prefix` (printed after this call). */
  nextLine(prefix: string, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${prefix}" line within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#lineWaiters.push({
        prefix,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }

  #onStderr(text: string): void {
    this.#stderr = (this.#stderr + text).slice(-20_000);
    const lines = (this.#partial + text).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      const index = this.#lineWaiters.findIndex((w) => line.startsWith(w.prefix));
      if (index !== -1) this.#lineWaiters.splice(index, 1)[0]!.resolve(line);
    }
  }

  /** SIGTERM, then SIGKILL if it outlives `graceMs`. */
  async close(graceMs = 2_000): Promise<void> {
    if (this.hasExited) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}

/**
 * User + system CPU time of a live process in microseconds, from /proc/<pid>/stat (Linux only); of
 * one of its threads when `pid` is `<pid>/task/<tid>`.
 */
export function readCpuUs(pid: number | string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (clock ticks).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ; /proc reports CPU times in these ticks. */
const CLOCK_TICKS = 100;

/** VmRSS of a live process in bytes, from /proc/<pid>/status (Linux only). */
export function readVmRss(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC response as read off the wire. */
export interface RpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: unknown;
}

/**
 * Finds the JSON-RPC response with id `id` in an answer: the body itself for `application/json`, or the
 * `data:` of one event for `text/event-stream` (priming events with empty data and notifications are skipped).
 */
export type { HttpAnswer };
export { RawHttpConnection };

export function extractResponse(answer: HttpAnswer, id: number): RpcMessage | string {
  if (answer.contentType.startsWith('application/json')) {
    const message = parseJson(answer.body);
    if (typeof message === 'string') return message;
    return message.id === id ? message : `response id ${JSON.stringify(message.id)}, expected ${id}`;
  }
  if (answer.contentType.startsWith('text/event-stream')) {
    for (const block of answer.body.split(/\r?\n\r?\n/)) {
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data === '') continue;
      const message = parseJson(data);
      if (typeof message === 'string') return message;
      if (message.method === undefined && message.id === id) return message;
    }
    return `no response with id ${id} in SSE body: ${answer.body.slice(0, 160)}`;
  }
  return `unexpected content-type ${JSON.stringify(answer.contentType)}: ${answer.body.slice(0, 160)}`;
}

function parseJson(text: string): RpcMessage | string {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return `not a JSON-RPC object: ${text.slice(0, 160)}`;
    return value as RpcMessage;
  } catch {
    return `non-JSON body: ${text.slice(0, 160)}`;
  }
}

/** What one simulated client does: an optional setup (the handshake), then the same kind of call repeatedly. */
export interface HttpWorkload {
  name: string;
  /** Opens one client's conversation (e.g. initialize); resolves with the headers its calls carry. */
  setup(connection: RawHttpConnection): Promise<Record<string, string>>;
  /** Sends call `i` and returns a description of what is wrong with its answer, or undefined when right. */
  call(
    connection: RawHttpConnection,
    headers: Record<string, string>,
    i: number,
  ): Promise<string | undefined>;
}

export interface LoadConfig {
  /** Concurrent clients, one keep-alive connection each. */
  connections: number;
  /** Untimed calls per measurement before the clock starts (all clients running). */
  warmupMs: number;
  /** Timed window. */
  durationMs: number;
  /** Upper bound on timed calls (the run also stops at `durationMs`). */
  maxCalls: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  /** Server process CPU (user + system) per timed call, µs: the cost that does not depend on the driver. */
  serverCpuUsPerCall: number;
  /**
   * The server's main thread alone (the JavaScript and the event loop), µs per timed call; the rest of
   * `serverCpuUsPerCall` is V8's and libuv's background threads (concurrent marking, parallel scavenges, compilers).
   */
  serverMainCpuUsPerCall: number;
  /** This (driver) process's CPU per timed call, µs. */
  driverCpuUsPerCall: number;
  calls: number;
  errors: ErrorLog;
}

/**
 * Closed loop: `connections` clients, each with its own keep-alive connection, run their setup, then
 * issue calls back to back. Calls completing during warm-up are verified but not timed; the timed window counts
 * calls that start and finish inside it. Every answer is verified; failures are counted, never timed.
 */
export async function measureLoad(
  server: HttpServerProcess,
  workload: HttpWorkload,
  config: LoadConfig,
): Promise<LoadResult> {
  const url = new URL(server.url);
  const errors = new ErrorLog();
  const latenciesUs: number[] = [];
  const connections = Array.from({ length: config.connections }, () => new RawHttpConnection(url));
  let nextId = 1;
  let phase: 'warmup' | 'timed' | 'done' = 'warmup';
  let timedCalls = 0;
  try {
    const sessions = await Promise.all(connections.map((connection) => workload.setup(connection)));
    let timedStart = 0;
    let timedEnd = 0;
    const worker = async (connection: RawHttpConnection, headers: Record<string, string>) => {
      while (phase !== 'done') {
        const i = nextId++;
        const startedIn = phase;
        const start = performance.now();
        let problem: string | undefined;
        try {
          problem = await workload.call(connection, headers, i);
        } catch (error) {
          problem = `request failed: ${(error as Error).message}`;
        }
        const end = performance.now();
        if (problem !== undefined) {
          errors.record(problem);
          if (server.hasExited) throw new Error(`server exited; stderr: ${server.stderrTail()}`);
          if (errors.count > 1_000) throw new Error(`over 1,000 wrong answers; first: ${errors.samples[0]}`);
          continue;
        }
        if (startedIn === 'timed' && phase === 'timed') {
          latenciesUs.push((end - start) * 1000);
          if (++timedCalls >= config.maxCalls) {
            phase = 'done';
            timedEnd = end;
          }
        }
      }
    };
    const runs = connections.map((connection, index) => worker(connection, sessions[index]!));
    await Promise.race([sleep(config.warmupMs), Promise.all(runs)]);
    phase = 'timed';
    timedStart = performance.now();
    const serverCpuStart = readCpuUs(server.pid) ?? NaN;
    const serverMainCpuStart = readCpuUs(`${server.pid}/task/${server.pid}`) ?? NaN;
    const driverCpuStart = process.cpuUsage();
    await Promise.race([sleep(config.durationMs), Promise.all(runs)]);
    if (phase === 'timed') {
      phase = 'done';
      timedEnd = performance.now();
    }
    const serverCpuUs = (readCpuUs(server.pid) ?? NaN) - serverCpuStart;
    const serverMainCpuUs = (readCpuUs(`${server.pid}/task/${server.pid}`) ?? NaN) - serverMainCpuStart;
    const driverCpu = process.cpuUsage(driverCpuStart);
    await Promise.all(runs);
    const seconds = (timedEnd - timedStart) / 1000;
    return {
      requestsPerSecond: timedCalls / seconds,
      p50Us: percentile(latenciesUs, 50) ?? NaN,
      p90Us: percentile(latenciesUs, 90) ?? NaN,
      p99Us: percentile(latenciesUs, 99) ?? NaN,
      serverCpuUsPerCall: serverCpuUs / timedCalls,
      serverMainCpuUsPerCall: serverMainCpuUs / timedCalls,
      driverCpuUsPerCall: (driverCpu.user + driverCpu.system) / timedCalls,
      calls: timedCalls,
      errors,
    };
  } finally {
    phase = 'done';
    for (const connection of connections) connection.close();
  }
}

export interface MemoryResult {
  sessions: number;
  rssBytesPerSession: number;
  heapBytesPerSession: number;
  /** RSS delta per session as read by the bench from /proc/<pid>/status (no GC forced by that read itself). */
  procRssBytesPerSession: number | undefined;
  baselineRssBytes: number;
  errors: ErrorLog;
}

interface ProbeSample {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Asks the server's preloaded mem-probe (SIGUSR2) for a post-GC memoryUsage() snapshot. */
async function probe(server: HttpServerProcess): Promise<ProbeSample> {
  const line = server.nextLine('MEMPROBE ', 10_000);
  server.child.kill('SIGUSR2');
  return JSON.parse((await line).slice('MEMPROBE '.length)) as ProbeSample;
}

/**
 * Memory per idle handshake-era session: opens `warmup` sessions (JIT and lazy allocations settle), samples,
 * opens `count` more (each: initialize + notifications/initialized, then left idle, never closed), waits
 * `settleMs`, samples again, and divides the deltas by `count`. Every session id must be fresh and distinct.
 */
export async function measureSessionMemory(
  server: HttpServerProcess,
  openSession: (connection: RawHttpConnection) => Promise<string>,
  options: { warmup: number; count: number; parallel: number; settleMs: number },
): Promise<MemoryResult> {
  const url = new URL(server.url);
  const errors = new ErrorLog();
  const lanes = Array.from({ length: options.parallel }, () => new RawHttpConnection(url));
  const ids = new Set<string>();
  const open = async (total: number) => {
    let started = 0;
    let opened = 0;
    const lane = async (connection: RawHttpConnection) => {
      while (started < total) {
        started++;
        try {
          const id = await openSession(connection);
          if (ids.has(id)) errors.record(`session id ${id} handed out twice`);
          ids.add(id);
          opened++;
        } catch (error) {
          errors.record((error as Error).message);
          if (server.hasExited) throw new Error(`server exited; stderr: ${server.stderrTail()}`);
        }
      }
    };
    await Promise.all(lanes.map(lane));
    return opened;
  };
  try {
    await open(options.warmup);
    await sleep(options.settleMs);
    const before = await probe(server);
    const procBefore = readVmRss(server.pid);
    const opened = await open(options.count);
    await sleep(options.settleMs);
    const after = await probe(server);
    const procAfter = readVmRss(server.pid);
    if (opened !== options.count) errors.record(`opened ${opened} of ${options.count} sessions`);
    return {
      sessions: opened,
      rssBytesPerSession: (after.rss - before.rss) / opened,
      heapBytesPerSession: (after.heapUsed + after.external - (before.heapUsed + before.external)) / opened,
      procRssBytesPerSession:
        procBefore !== undefined && procAfter !== undefined ? (procAfter - procBefore) / opened : undefined,
      baselineRssBytes: before.rss,
      errors,
    };
  } finally {
    for (const connection of lanes) connection.close();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
