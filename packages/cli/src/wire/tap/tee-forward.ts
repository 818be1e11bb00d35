// Forwarding without JavaScript in the byte path (opt-in, MCPWIRE_TAP_FORWARD=tee): two `tee`
// processes (coreutils) carry the host's stdin to the server and the server's stdout to the host,
// each also writing a copy into a FIFO that the tap reads and observes. A message crosses one small
// C process instead of the tap's event loop, so the tap adds about what a shell pipeline adds
// (bench/tap.ts), but the copies of the two directions lose their relative order (findTeeTools).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants as fsConstants,
  mkdtempSync,
  open,
  openSync,
  closeSync,
  rmSync,
} from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import type { Side } from '../transcript.ts';

const openFile = promisify(open);

/** How long a `tee` may take to open its FIFO before the tap gives up on this path. */
const OPEN_TIMEOUT_MS = 5000;

/** Where the copies go: chunks of each direction as they were forwarded, and their ends. */
export interface CopySink {
  chunk(from: Side, chunk: Buffer): void;
  end(from: Side): void;
}

/** The server running behind the two tees. */
export interface TeeForwarding {
  readonly child: ChildProcess;
  /** Settles as {@link spawned} does for the server. */
  readonly started: Promise<void>;
  /**
   * After the server has exited: waits for the outgoing tee to pass on the last of its stdout (or
   * for `graceMs` without a byte), stops the incoming one (it waits on the host's stdin), waits for both copies to
   * end, and removes the FIFOs.
   */
  finish(graceMs: number): Promise<void>;
}

/**
 * The absolute paths of `tee` and `mkfifo` when `MCPWIRE_TAP_FORWARD=tee` asks for this path (it is
 * opt-in: see the limit below); else, or when this platform lacks either, undefined.
 *
 * Known limit, why it is not the default: the two directions' copies arrive on two FIFOs, so the
 * observer can read a response before the request it answers (a tee writes the server's copy
 * first and may be descheduled before it writes the tap's), and live lint then reports a false
 * `response-unknown-id` or `before-handshake`, as a loaded CI run showed.
 */
export function findTeeTools(
  env: NodeJS.ProcessEnv = process.env,
): { tee: string; mkfifo: string } | undefined {
  if (process.platform === 'win32' || env.MCPWIRE_TAP_FORWARD !== 'tee') return undefined;
  const tee = onPath('tee', env);
  const mkfifo = onPath('mkfifo', env);
  return tee === undefined || mkfifo === undefined ? undefined : { tee, mkfifo };
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      accessSync(path, fsConstants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Starts the server between a `tee` for each direction. Resolves once both tees have opened their
 * FIFOs (whether the server started is `started`); rejects, having cleaned up, when a tee cannot be
 * started or does not open its FIFO.
 */
export async function startTeeForwarding(
  tools: { tee: string; mkfifo: string },
  file: string,
  args: readonly string[],
  sink: CopySink,
): Promise<TeeForwarding> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-tap-'));
  const fifo = { client: join(dir, 'client'), server: join(dir, 'server') };
  const tees: ChildProcess[] = [];
  const copies: Socket[] = [];
  let server: ChildProcess | undefined;
  const cleanUp = (): void => {
    for (const tee of tees) if (tee.exitCode === null && tee.signalCode === null) tee.kill('SIGKILL');
    for (const copy of copies) copy.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync(tools.mkfifo, ['-m', '600', fifo.client, fifo.server], { stdio: 'ignore' });
    // The server's stdout goes straight into one tee, which writes on our fd 1; the host's stdin
    // (fd 0, inherited) straight into the other, which writes on the server's stdin. Our ends of
    // those pipes are write ends, closed at once (a read end here would read the host's bytes
    // before the server could), and neither of our own streams is ever opened by this process.
    const teeOut = spawn(tools.tee, [fifo.server], { stdio: ['pipe', 'inherit', 'ignore'] });
    tees.push(teeOut);
    const child = spawn(file, args, { stdio: ['pipe', teeOut.stdin as unknown as Socket, 'pipe'] });
    server = child;
    const started = spawned(child);
    // Awaited by the caller once the copies are open; a spawn error before that is not unhandled.
    started.catch(() => {});
    const teeIn = spawn(tools.tee, [fifo.client], {
      stdio: ['inherit', child.stdin as unknown as Socket, 'ignore'],
    });
    tees.push(teeIn);
    teeOut.stdin?.destroy();
    child.stdin?.destroy();
    const [clientCopy, serverCopy] = await Promise.all([
      openCopy(fifo.client, teeIn),
      openCopy(fifo.server, teeOut),
    ]);
    copies.push(clientCopy, serverCopy);
    let lastCopyAt = performance.now();
    const ended = { client: whenEnded(clientCopy), server: whenEnded(serverCopy) };
    for (const [from, copy] of [
      ['client', clientCopy],
      ['server', serverCopy],
    ] as const) {
      copy.on('data', (chunk: Buffer) => {
        lastCopyAt = performance.now();
        sink.chunk(from, chunk);
      });
      void ended[from].then(() => sink.end(from));
    }
    return {
      child,
      started,
      finish: async (graceMs) => {
        // The outgoing tee ends with the server's stdout, as fast as the copies are read: it may
        // trail a burst by seconds. Only a stdout held open with nothing flowing (a grandchild's)
        // is cut, graceMs after the last byte.
        const quiet = (): boolean => performance.now() - lastCopyAt > graceMs;
        await untilExitedOr(teeOut, quiet);
        for (const tee of tees) if (tee.exitCode === null && tee.signalCode === null) tee.kill('SIGTERM');
        await Promise.race([Promise.all([ended.client, ended.server]), delay(graceMs)]);
        cleanUp();
      },
    };
  } catch (error) {
    cleanUp();
    if (server === undefined) throw error;
    // Starting it again in-process would run its start-up twice: this tap fails instead.
    server.kill('SIGKILL');
    throw new TeeSetupError((error as Error).message, { cause: error });
  }
}

/** The tees failed after the server had started (and was killed): the tap cannot go on. */
export class TeeSetupError extends Error {
  override readonly name = 'TeeSetupError';
}

/**
 * Opens the read end of `path` once `tee` opens its write end (an open for reading waits for a
 * writer, so the copy never sees a premature end of file). A tee that exits or hangs first fails it.
 */
async function openCopy(path: string, tee: ChildProcess): Promise<Socket> {
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    tee.once('error', reject);
    tee.once('exit', () => reject(new Error(`tee exited before opening ${path}`)));
    timer = setTimeout(() => reject(new Error(`tee did not open ${path}`)), OPEN_TIMEOUT_MS);
  });
  // Once the copy is open, a tee exiting (at the end of its input) is no failure.
  failed.catch(() => {});
  const opening = openFile(path, 'r');
  try {
    const fd = await Promise.race([opening, failed]);
    return new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    // The open still waits for a writer in the thread pool: be that writer, then close both ends.
    try {
      closeSync(openSync(path, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK));
    } catch {
      // it completed or failed on its own
    }
    void opening.then(closeSync, () => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once the process is running, rejects with the spawn error (ENOENT, EACCES). */
export function spawned(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
}

function whenEnded(copy: Socket): Promise<void> {
  return new Promise((resolve) => {
    copy.once('end', resolve);
    copy.once('close', resolve);
    copy.once('error', () => resolve());
  });
}

/** Resolves once `child` has exited or `giveUp()` holds (checked every 100 ms). */
function untilExitedOr(child: ChildProcess, giveUp: () => boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(() => giveUp() && done(), 100);
    child.once('exit', done);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
