// One spawned stdio server process and the NDJSON framing over its pipes: line scanning, classification of
// what the server sends, early-exit detection, and shutdown (close stdin, then SIGTERM, then SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** How to start one stdio server under test. */
export interface ServerSpec {
  /** Row label in the report. */
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** Returns why the server cannot run right now (for example "not built yet"), or `undefined` when it can. */
  unavailableReason?: () => string | undefined;
}

/** A JSON-RPC response as read off the wire, before any validation. */
export interface RawResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** Counts verification failures and keeps the first few descriptions for the report. */
export class ErrorLog {
  count = 0;
  readonly samples: string[] = [];

  /** Records one failure; only the first five descriptions are kept. */
  record(description: string): void {
    this.count++;
    if (this.samples.length < 5) this.samples.push(description);
  }
}

const liveChildren = new Set<ChildProcess>();

/** Sends SIGKILL to every server process still alive; for emergency exits (Ctrl-C, uncaught errors). */
export function killAllChildren(): void {
  for (const child of liveChildren) child.kill('SIGKILL');
}

export type MessageHandler = (message: RawResponse) => void;

/** One spawned server and the NDJSON framing over its pipes. Messages go to whichever handler is installed. */
export class ServerProcess {
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #buffer = '';
  #stderrTail = '';
  #onMessage: MessageHandler = () => {};
  #afterChunk: () => void = () => {};
  #onFailure: (error: Error) => void = () => {};
  #failure: Error | undefined;
  #isClosing = false;
  lastActivity = performance.now();

  constructor(spec: ServerSpec, errors: ErrorLog) {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    liveChildren.add(child);
    this.#exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', (code, signal) => {
      liveChildren.delete(child);
      if (!this.#isClosing) this.#fail(`exited early (code ${code}, signal ${signal})`);
    });
    child.once('error', (error) => this.#fail(`process error: ${error.message}`));
    child.stdin!.on('error', (error) => this.#isClosing || this.#fail(`stdin error: ${error.message}`));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-2000);
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => this.#handleText(text, errors));
  }

  /** Installs the handlers for the next phase; `afterChunk` runs once per stdout chunk, after its messages. */
  listen(
    onMessage: MessageHandler,
    onFailure: (error: Error) => void,
    afterChunk: () => void = () => {},
  ): void {
    this.#onMessage = onMessage;
    this.#onFailure = onFailure;
    this.#afterChunk = afterChunk;
    if (this.#failure) onFailure(this.#failure);
  }

  /** The process id of the spawned command (undefined when it could not start). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Writes already-framed text (one or more `\n`-terminated lines) in a single `write()` call. */
  write(text: string): void {
    this.#child.stdin!.write(text);
  }

  /** Closes stdin, then escalates to SIGTERM and SIGKILL if the process outlives each grace period. */
  async close(graceMs: number): Promise<void> {
    this.#isClosing = true;
    this.#child.stdin!.end();
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (await settlesWithin(this.#exited, graceMs)) return;
      this.#child.kill(signal);
    }
    await this.#exited;
  }

  #handleText(text: string, errors: ErrorLog): void {
    this.lastActivity = performance.now();
    const buffer = this.#buffer + text;
    let start = 0;
    let end = buffer.indexOf('\n', start);
    while (end !== -1) {
      const line = buffer.slice(start, end);
      start = end + 1;
      end = buffer.indexOf('\n', start);
      if (line.length === 0 || line === '\r') continue;
      this.#handleLine(line, errors);
    }
    this.#buffer = buffer.slice(start);
    this.#afterChunk();
  }

  #handleLine(line: string, errors: ErrorLog): void {
    let message: RawResponse & { method?: unknown };
    try {
      message = JSON.parse(line) as RawResponse & { method?: unknown };
    } catch {
      errors.record(`non-JSON line on stdout: ${line.slice(0, 120)}`);
      return;
    }
    if (typeof message !== 'object' || message === null) {
      errors.record(`non-object message on stdout: ${line.slice(0, 120)}`);
    } else if (message.method === undefined) {
      this.#onMessage(message);
    } else if (message.id !== undefined) {
      // The driver declares no client capabilities, so the server has nothing to ask it.
      errors.record(`unexpected server request: ${line.slice(0, 120)}`);
    }
    // Notifications (logging, list_changed) are allowed and ignored.
  }

  #fail(reason: string): void {
    if (this.#failure) return;
    const tail = this.#stderrTail.trim();
    this.#failure = new Error(tail ? `${reason}; stderr: ${tail.slice(-500)}` : reason);
    this.#onFailure(this.#failure);
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
