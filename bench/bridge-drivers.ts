// The bridge benchmark's drivers: closed-loop HTTP clients (one raw keep-alive connection and one
// handshake-era session per call in flight) and a stdio client keeping a window of calls in flight on
// a process's pipes; both time each call from its write to its answer and read CPU over the timed window.
import { performance } from 'node:perf_hooks';
import { extractResponse, sleep, type RpcMessage } from './http-driver.ts';
import { RawHttpConnection } from './raw-http.ts';
import { ErrorLog, type RawResponse, type ServerProcess } from './server-process.ts';
import { percentile } from './stats.ts';

const REVISION = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';

/** One measurement's figures; the CPU columns are per timed call. */
export interface Load {
  p50Us: number;
  p99Us: number;
  callsPerSecond: number;
  bridgeCpuUsPerCall: number;
  serverCpuUsPerCall: number;
  errors: ErrorLog;
}

/** CPU time (µs) used so far by the bridge and by the server process(es); read at both ends of the window. */
export type CpuProbe = () => { bridge: number; server: number };

/** The warm-up (calls answered, not timed) and the timed window. */
export interface Window {
  warmupMs: number;
  durationMs: number;
}

const messageOf = (i: number): string => `hello ${i}`;
const echoRequest = (i: number) => ({
  jsonrpc: '2.0',
  id: i,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: messageOf(i) } },
});

/** What is wrong with the answer to echo call `i`, or undefined when it is right. */
function checkEcho(message: RpcMessage | RawResponse | string, i: number): string | undefined {
  if (typeof message === 'string') return message;
  if (message.error !== undefined) return `error: ${JSON.stringify(message.error).slice(0, 160)}`;
  const content = (message.result as { content?: unknown } | undefined)?.content;
  const block =
    Array.isArray(content) && content.length === 1 ? (content[0] as { text?: unknown }) : undefined;
  return block?.text === messageOf(i)
    ? undefined
    : `expected text ${JSON.stringify(messageOf(i))}, received ${JSON.stringify(content).slice(0, 160)}`;
}

const initializeRequest = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: REVISION,
    capabilities: {},
    clientInfo: { name: 'mcpwire-bench', version: '0' },
  },
};

/** The 2025 lifecycle over HTTP (initialize, then notifications/initialized); resolves with the call headers. */
export async function openSession(connection: RawHttpConnection): Promise<Record<string, string>> {
  const answer = await connection.post({ accept: ACCEPT }, JSON.stringify(initializeRequest));
  const message = extractResponse(answer, 0);
  if (answer.status !== 200 || typeof message === 'string' || answer.sessionId === undefined)
    throw new Error(`initialize: HTTP ${answer.status}: ${answer.body.slice(0, 160)}`);
  const headers = { accept: ACCEPT, 'mcp-session-id': answer.sessionId, 'mcp-protocol-version': REVISION };
  const initialized = await connection.post(
    headers,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (initialized.status !== 202 && initialized.status !== 200)
    throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  return headers;
}

/** POSTs echo call `i` in the session of `headers`; returns what is wrong with the answer, if anything. */
export async function callEcho(
  connection: RawHttpConnection,
  headers: Record<string, string>,
  i: number,
): Promise<string | undefined> {
  const answer = await connection.post(headers, JSON.stringify(echoRequest(i)));
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.body.slice(0, 160)}`;
  return checkEcho(extractResponse(answer, i), i);
}

/** The figures of a window of `calls` timed calls, given the CPU read at its two ends. */
function loadOf(
  latencies: readonly number[],
  seconds: number,
  cpu: { start: ReturnType<CpuProbe>; end: ReturnType<CpuProbe> },
  errors: ErrorLog,
): Load {
  const calls = latencies.length;
  return {
    p50Us: percentile(latencies, 50) ?? Number.NaN,
    p99Us: percentile(latencies, 99) ?? Number.NaN,
    callsPerSecond: calls / seconds,
    bridgeCpuUsPerCall: (cpu.end.bridge - cpu.start.bridge) / calls,
    serverCpuUsPerCall: (cpu.end.server - cpu.start.server) / calls,
    errors,
  };
}

/**
 * Closed loop over HTTP: `clients` connections, each opened with `setup`, then calling back to back;
 * calls that start and end inside the timed window are timed, every answer is verified.
 */
export async function runHttpLoad(
  url: string,
  clients: number,
  window: Window,
  setup: (connection: RawHttpConnection) => Promise<Record<string, string>>,
  call: (
    connection: RawHttpConnection,
    headers: Record<string, string>,
    i: number,
  ) => Promise<string | undefined>,
  probe: CpuProbe,
): Promise<Load> {
  const errors = new ErrorLog();
  const connections = Array.from({ length: clients }, () => new RawHttpConnection(new URL(url)));
  const latencies: number[] = [];
  let phase: 'warmup' | 'timed' | 'done' = 'warmup';
  let next = 1;
  try {
    const sessions = await Promise.all(connections.map(setup));
    const worker = async (connection: RawHttpConnection, headers: Record<string, string>) => {
      while (phase !== 'done') {
        const i = next++;
        const startedIn = phase;
        const start = performance.now();
        const problem = await call(connection, headers, i).catch(
          (error: Error) => `failed: ${error.message}`,
        );
        if (problem !== undefined) {
          errors.record(problem);
          if (errors.count > 100) throw new Error(`over 100 wrong answers; first: ${errors.samples[0]}`);
        } else if (startedIn === 'timed' && phase === 'timed')
          latencies.push((performance.now() - start) * 1000);
      }
    };
    const runs = Promise.all(connections.map((connection, index) => worker(connection, sessions[index]!)));
    await Promise.race([sleep(window.warmupMs), runs]);
    phase = 'timed';
    const startedAt = performance.now();
    const start = probe();
    await Promise.race([sleep(window.durationMs), runs]);
    const end = probe();
    const seconds = (performance.now() - startedAt) / 1000;
    phase = 'done';
    await runs;
    return loadOf(latencies, seconds, { start, end }, errors);
  } finally {
    phase = 'done';
    for (const connection of connections) connection.close();
  }
}

/**
 * Over a process's stdio: initialize, then echo calls keeping `inFlight` unanswered, one written per
 * answer; calls written and answered inside the timed window are timed. Rejects on an early exit or
 * 10 s without an answer.
 */
export function runStdioLoad(
  process_: ServerProcess,
  inFlight: number,
  window: Window,
  errors: ErrorLog,
  probe: CpuProbe,
): Promise<Load> {
  return new Promise((resolve, reject) => {
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let phase: 'handshake' | 'warmup' | 'timed' | 'done' = 'handshake';
    let timedFrom = 0;
    let start: ReturnType<CpuProbe> | undefined;
    let next = 1;
    let lastAnswer = performance.now();
    const timers: NodeJS.Timeout[] = [];
    const finish = (error?: Error) => {
      for (const timer of timers) clearTimeout(timer);
      if (phase === 'done') return;
      phase = 'done';
      if (error !== undefined) return reject(error);
      const end = probe();
      resolve(loadOf(latencies, (performance.now() - timedFrom) / 1000, { start: start!, end }, errors));
    };
    const send = () => {
      let batch = '';
      while (sentAt.size < inFlight) {
        const i = next++;
        sentAt.set(i, performance.now());
        batch += `${JSON.stringify(echoRequest(i))}\n`;
      }
      process_.write(batch);
    };
    const onMessage = (message: RawResponse) => {
      lastAnswer = performance.now();
      if (message.id === 0) {
        if (message.error !== undefined)
          return finish(new Error(`initialize: ${JSON.stringify(message.error)}`));
        process_.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        phase = 'warmup';
        timers.push(setTimeout(startTimed, window.warmupMs));
        return send();
      }
      const i = typeof message.id === 'number' ? message.id : -1;
      const at = sentAt.get(i);
      if (at === undefined) return errors.record(`unexpected id ${JSON.stringify(message.id)}`);
      sentAt.delete(i);
      const problem = checkEcho(message, i);
      if (problem !== undefined) errors.record(problem);
      else if (phase === 'timed' && at >= timedFrom) latencies.push((lastAnswer - at) * 1000);
      if (phase !== 'done') send();
    };
    const startTimed = () => {
      phase = 'timed';
      timedFrom = performance.now();
      start = probe();
      timers.push(setTimeout(() => finish(), window.durationMs));
    };
    const watchdog = setInterval(() => {
      if (performance.now() - lastAnswer > 10_000) finish(new Error('no answer for 10 s'));
    }, 250);
    timers.push(watchdog);
    process_.listen(onMessage, finish);
    process_.write(`${JSON.stringify(initializeRequest)}\n`);
  });
}
