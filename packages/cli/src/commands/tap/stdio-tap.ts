// `mcpwire tap -- <server command>`: the server started behind the tap, every byte passed on
// unchanged as it is read (stdin to the server, the server's stdout to ours, its stderr to ours) while
// a copy of each stream is split into lines, recorded and linted off the forwarding path. With
// nothing to observe the server gets the tap's own stdin and stdout. The tap ends as the server ends;
// when the host closes the tap's stdin, the server is shut down as mcpwire's client does it.

import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownProcess } from 'mcpwire/stdio';
import { CliError, ExitCode } from '../../exit-code.ts';
import { LineSplitter, type Observed } from '../../wire/recorder.ts';
import type { Side } from '../../wire/transcript.ts';
import { ObserveQueue } from './observe-queue.ts';
import { openTapRecording, type TapWireOptions } from './tap-recording.ts';

/**
 * After the tap passes SIGINT or SIGTERM on, how long the server has to exit before the tap kills it:
 * shorter than the 2 s hosts (the official SDKs, mcpwire's client) wait before their SIGKILL, which
 * reaches only the tap when they signal its pid alone.
 */
export const KILL_AFTER_MS = 1000;

/** After the server exits, how long a grandchild holding its stdout may delay the tap's own exit. */
const DRAIN_GRACE_MS = 1000;

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `command` behind the tap until it exits; resolves with the exit code to leave with: the
 * server's own, or 128 + n for a signal. Rejects with a CliError (exit 3) when it cannot start.
 */
export async function runStdioTap(command: readonly string[], options: TapWireOptions): Promise<number> {
  const [file, ...args] = command;
  if (file === undefined) throw new CliError('no server command after "--"', ExitCode.usage);
  // Opened even with nothing to record or lint: a bad --redact path or --log file fails early (exit 2).
  const observer = await startObserver(command.join(' '), options);
  // With nothing to record into or lint, the copies would only be parsed to be dropped.
  const observing = options.lint || options.record !== undefined || options.pin !== undefined;
  const child = spawn(file, args, { stdio: observing ? ['pipe', 'pipe', 'pipe'] : 'inherit' });
  try {
    await spawned(child);
  } catch (error) {
    observer.record({ type: 'note', text: `cannot start the server: ${(error as Error).message}` });
    await observer.close();
    throw spawnFailure(file, error as NodeJS.ErrnoException);
  }
  observer.record({
    type: 'spawn',
    command: file,
    args,
    ...(child.pid === undefined ? {} : { pid: child.pid }),
  });
  if (observing) {
    forward(child, observer);
    // The host closing our stdin is its shutdown (LIFE-13): pipe() passes the end on, and a server
    // that ignores it gets what the host would send, with the same delays as mcpwire's own client.
    process.stdin.once('end', () => {
      void shutdownProcess(child, { timeoutMs: DEFAULT_SHUTDOWN_TIMEOUT_MS });
    });
  }
  const stopSignals = passSignalsOn(child);
  const status = await ended(child);
  stopSignals();
  observer.record({ type: 'exit', code: status.code, signal: status.signal });
  await observer.close();
  if (observing) {
    // The host may keep our stdin open after the server is gone; stop reading it so the tap can exit.
    process.stdin.unpipe();
    process.stdin.destroy();
  }
  return exitCodeOf(status);
}

/** Where the tap hands copies of what it forwarded, to be recorded and linted. */
interface Observer {
  chunk(from: Side, chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  end(from: Side): void;
  record(observed: Observed): void;
  close(): Promise<void>;
}

/**
 * The observer: a recorder fed through an ObserveQueue, so each chunk is split, recorded and linted
 * after it was forwarded, a slice per turn of the event loop (small chunks gathered into one first).
 * On this 2-core machine this measured faster than a worker thread fed with copies of the chunks
 * (bench/results/tap-latest.json notes).
 */
async function startObserver(target: string, options: TapWireOptions): Promise<Observer> {
  const queue = new ObserveQueue();
  const recording = await openTapRecording({ transport: 'stdio', target, clock: queue.clock }, options);
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
  return {
    chunk: (from, chunk) => queue.addChunk(chunk, (slice) => splitters[from].push(slice)),
    stderr: (chunk) =>
      queue.add(chunk.length, () => recorder.record({ type: 'stderr', text: chunk.toString('utf8') })),
    end: (from) => queue.add(0, () => splitters[from].end()),
    record: (observed) => queue.add(0, () => recorder.record(observed)),
    close: async () => {
      queue.flush();
      await recording.close();
    },
  };
}

function spawnFailure(file: string, error: NodeJS.ErrnoException): CliError {
  const hint =
    error.code === 'ENOENT'
      ? 'check that it is installed and on PATH, or give its full path'
      : error.code === 'EACCES'
        ? 'check that it is a program you may execute'
        : 'check the command after "--"';
  return new CliError(`cannot start the server "${file}": ${error.message}; ${hint}`, ExitCode.connection, {
    cause: error,
  });
}

/** Resolves once the process is running, rejects with the spawn error (ENOENT, EACCES). */
function spawned(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
}

/**
 * Pipes the three streams (with backpressure, each chunk written as read) and, after each write,
 * hands a copy to `observer`, if any: chunks of stdin and stdout (split into lines there) and stderr.
 */
function forward(child: ChildProcess, observer: Observer): void {
  const { stdin, stdout, stderr } = child as ChildProcess & {
    stdin: NodeJS.WritableStream & { on(event: 'error', listener: () => void): void };
    stdout: NodeJS.ReadableStream;
    stderr: NodeJS.ReadableStream;
  };
  // A server that exits first turns our writes into EPIPE; its exit is what ends the tap.
  stdin.on('error', () => {});
  // The host closing our stdin (its shutdown) closes the server's: pipe() ends it.
  process.stdin.pipe(stdin);
  stdout.pipe(process.stdout);
  stderr.pipe(process.stderr);
  // These listeners come after pipe()'s own: each chunk is passed on before it is copied here.
  process.stdin.on('data', (chunk: Buffer) => observer.chunk('client', chunk));
  process.stdin.once('end', () => observer.end('client'));
  stdout.on('data', (chunk: Buffer) => observer.chunk('server', chunk));
  stdout.once('end', () => observer.end('server'));
  stderr.on('data', (chunk: Buffer) => observer.stderr(chunk));
}

/**
 * Passes SIGINT and SIGTERM on to the server, and kills it if it is still there KILL_AFTER_MS
 * later (the host's own SIGKILL would end only the tap). Returns a function that stops listening.
 */
function passSignalsOn(child: ChildProcess): () => void {
  let killTimer: NodeJS.Timeout | undefined;
  const pass = (signal: NodeJS.Signals): void => {
    child.kill(signal);
    killTimer ??= setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, pass);
  return () => {
    clearTimeout(killTimer);
    for (const signal of FORWARDED_SIGNALS) process.off(signal, pass);
  };
}

/**
 * Resolves with the server's exit status once it has exited and its stdout and stderr are drained,
 * or DRAIN_GRACE_MS after the exit and the last byte read, when a process it left behind still
 * holds them (a slow drain of a burst is waited for).
 */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    let drainTimer: NodeJS.Timeout | undefined;
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(drainTimer);
      resolve({ code, signal });
    });
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      const giveUp = (): void => resolve({ code, signal });
      drainTimer = setTimeout(giveUp, DRAIN_GRACE_MS);
      for (const stream of [child.stdout, child.stderr]) stream?.on('data', () => drainTimer?.refresh());
    });
  });
}

/** The code the tap leaves with: the server's, or 128 + the signal's number, as a shell reports it. */
export function exitCodeOf(status: { code: number | null; signal: NodeJS.Signals | null }): number {
  if (status.code !== null) return status.code;
  const number = status.signal === null ? undefined : constants.signals[status.signal];
  return number === undefined ? ExitCode.failed : 128 + number;
}
