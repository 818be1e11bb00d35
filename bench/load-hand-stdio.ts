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
import { ErrorLog } from './server-process.ts';

// The bundle runs from a temporary directory: the repository's root comes from the bench.
const root = process.env.BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');

/** How a slice runs: measured window and warm-up (ms), closed-loop workers. */
export interface SliceConfig {
  sliceMs: number;
  warmupMs: number;
  concurrency: number;
}

/** One slice of a driver: requests started in its window, errors, latencies (ms) as histogram buckets. */
export interface Slice {
  requests: number;
  errors: number;
  /** [value ms, count]: each bucket read as load's histogram reads it (its start if 1 ns wide, else its midpoint). */
  buckets: Array<[number, number]>;
}

/** `load`'s first id (docs/load.md): the same digits on the wire. */
const FIRST_ID = 2 ** 30;
/** Pending requests live in slot `id & MASK`; far more slots than requests in flight. */
const SLOTS = 4096;
const MASK = SLOTS - 1;
const NEWLINE = 0x0a;
/** The request around its id: what `load --call echo message=hello` writes. */
const REQUEST_HEAD = '{"jsonrpc":"2.0","id":';
const REQUEST_TAIL = ',"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}\n';
/** The answer bench/servers/raw-mcp.mjs gives it, around its id. */
const ANSWER_HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const ANSWER_TAIL = Buffer.from(',"result":{"content":[{"type":"text","text":"hello"}]}}');

/** True when `buffer` holds `expected` at `at`. */
function holds(buffer: Buffer, at: number, expected: Buffer): boolean {
  if (at + expected.length > buffer.length) return false;
  for (let index = 0; index < expected.length; index++)
    if (buffer[at + index] !== expected[index]) return false;
  return true;
}

/** The id of the line [start, end) when it is exactly the expected answer to one, else -1. */
function idOfExpected(buffer: Buffer, start: number, end: number): number {
  if (!holds(buffer, start, ANSWER_HEAD)) return -1;
  let at = start + ANSWER_HEAD.length;
  let id = 0;
  for (let byte = buffer[at]!; byte >= 0x30 && byte <= 0x39; byte = buffer[++at]!) id = id * 10 + byte - 0x30;
  return at > start + ANSWER_HEAD.length && end - at === ANSWER_TAIL.length && holds(buffer, at, ANSWER_TAIL)
    ? id
    : -1;
}

/** A line not shaped as the expected answer, parsed: its id and what is wrong with it (none for a notification). */
function judgeOtherLine(line: string): { id?: number | undefined; problem?: string | undefined } {
  let message: { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    return { problem: `non-JSON line: ${line.slice(0, 120)}` };
  }
  if (typeof message !== 'object' || message === null)
    return { problem: `not an object: ${line.slice(0, 120)}` };
  if (message.method !== undefined)
    return message.id === undefined ? {} : { problem: `unexpected server request: ${line.slice(0, 120)}` };
  const id = typeof message.id === 'number' ? message.id : undefined;
  const text = (message.result as { content?: Array<{ text?: unknown }> } | undefined)?.content?.[0]?.text;
  return { id, problem: text === 'hello' ? undefined : `wrong answer: ${line.slice(0, 120)}` };
}

/**
 * The hand-written stdio driver, one slice: starts `command` (by default bench/servers/raw-mcp.mjs),
 * initialize, then a closed loop of `concurrency` requests in flight (each answer sends the next; the
 * requests of one read go out in one write), every answer checked. A request is timed from the write
 * that carried it to the read that brought its answer, and counted when written inside the window.
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
    await closedLoop(config, { write: (text) => child.stdin.write(text), errors, counts }, (hooks) => {
      onLine = hooks.onLine;
      afterRead = hooks.afterRead;
      fail = hooks.fail;
    });
    return { requests: counts.count, errors: errors.count, buckets: counts.buckets() };
  } finally {
    isClosing = true;
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

interface LoopParts {
  write: (text: string) => void;
  errors: ErrorLog;
  counts: LatencyCounts;
}

interface ReadHooks {
  onLine: (buffer: Buffer, start: number, end: number, now: number) => void;
  afterRead: () => void;
  fail: (error: Error) => void;
}

/** The closed loop over an initialised server: resolves once the window is over and every answer is in. */
function closedLoop(
  config: SliceConfig,
  parts: LoopParts,
  install: (hooks: ReadHooks) => void,
): Promise<void> {
  const { write, errors, counts } = parts;
  const sentAt = new Float64Array(SLOTS);
  /** The id pending in each slot, 0 when none. */
  const pendingId = new Float64Array(SLOTS);
  let inFlight = 0;
  let nextId = FIRST_ID;
  let unstampedFrom = nextId;
  let batch = '';
  const measureStart = performance.now() + config.warmupMs;
  const measureEnd = measureStart + config.sliceMs;
  const queue = (): void => {
    const id = nextId++;
    const slot = id & MASK;
    if (pendingId[slot] !== 0) errors.record(`request ${pendingId[slot]} still pending after ${SLOTS} more`);
    pendingId[slot] = id;
    inFlight++;
    batch += REQUEST_HEAD + id + REQUEST_TAIL;
  };
  const answered = (id: number, problem: string | undefined, now: number): void => {
    const slot = id & MASK;
    if (id < FIRST_ID || pendingId[slot] !== id) return errors.record(`unknown id ${id}`);
    pendingId[slot] = 0;
    inFlight--;
    const at = sentAt[slot]!;
    if (problem !== undefined) errors.record(problem);
    else if (at >= measureStart && at < measureEnd) counts.record(now - at);
    if (now < measureEnd) queue();
  };
  const flush = (): void => {
    const now = performance.now();
    for (; unstampedFrom < nextId; unstampedFrom++) sentAt[unstampedFrom & MASK] = now;
    write(batch);
    batch = '';
  };
  return new Promise<void>((resolve, reject) => {
    install({
      onLine: (buffer, start, end, now) => {
        const id = idOfExpected(buffer, start, end);
        if (id >= 0) return answered(id, undefined, now);
        const judged = judgeOtherLine(buffer.toString('utf8', start, end));
        if (judged.id !== undefined) answered(judged.id, judged.problem, now);
        else if (judged.problem !== undefined) errors.record(judged.problem);
      },
      afterRead: () => {
        if (batch !== '') flush();
        if (errors.count > 1_000) reject(new Error(`over 1,000 wrong answers; first: ${errors.samples[0]}`));
        else if (inFlight === 0) resolve();
      },
      fail: reject,
    });
    for (let index = 0; index < config.concurrency; index++) queue();
    flush();
  });
}
