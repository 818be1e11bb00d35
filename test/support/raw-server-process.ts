// A test peer that speaks raw NDJSON JSON-RPC to a spawned `mcpwire serve <name>`: no SDK client in the
// way, so the tests see exactly what the server writes on stdout.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { SOURCE_CONDITIONS } from './node-options.ts';

/** The repository root (the tests run the CLI from source). */
export const ROOT = resolve(import.meta.dirname, '../..');

/** `node --conditions=@mcpwire/source --import tsx packages/cli/src/main.ts`: the CLI from source, as argv for spawn. */
export const CLI = [...SOURCE_CONDITIONS, '--import', 'tsx', 'packages/cli/src/main.ts'];

/** A JSON value as received: loosely typed on purpose, since the tests assert on its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** Any JSON-RPC message as received. */
export type WireMessage = {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Loose;
  result?: Loose;
  error?: Loose;
};

const DEFAULT_TIMEOUT_MS = 10_000;

/** The first answer also waits for the server to start, which under tsx on a busy machine takes seconds. */
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * One spawned server. Server-to-client requests are answered by `answer` (default: -32601). Every
 * line received is parsed and kept in `received`, in order. Dispose to close stdin and await exit.
 */
export class RawServerProcess {
  readonly received: WireMessage[] = [];
  readonly stderr: string[] = [];
  answer: (request: WireMessage) => unknown = () => undefined;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters = new Set<{
    test: (message: WireMessage) => boolean;
    resolve: (message: WireMessage) => void;
  }>();
  #nextId = 1;
  #buffer = '';

  constructor(args: readonly string[]) {
    this.#child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#exited = new Promise((done) => {
      this.#child.once('exit', (code, signal) => done({ code, signal }));
      // A failed spawn emits 'error' and never 'exit'.
      this.#child.once('error', () => done({ code: null, signal: null }));
    });
    // Writing to a server that has exited fails with EPIPE; the test then fails on the missing answer.
    this.#child.stdin.on('error', () => {});
    this.#child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.#read(chunk));
    this.#child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.stderr.push(chunk));
  }

  /** Sends `initialize` (with `capabilities`) and `notifications/initialized`; returns the initialize result. */
  async initialize(capabilities: object = {}, protocolVersion = '2025-11-25'): Promise<Loose> {
    const id = this.#nextId++;
    this.send({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: { name: 'raw-test', version: '1.0.0' } },
    });
    const response = await this.waitFor(
      (message) => message.id === id && message.method === undefined,
      STARTUP_TIMEOUT_MS,
    );
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response.result;
  }

  /** Sends a request with the next numeric id and resolves with its response (result or error). */
  request(method: string, params?: object): Promise<WireMessage> {
    const id = this.#nextId++;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((message) => message.id === id && message.method === undefined);
  }

  /** The id the next `request` will use. */
  get nextId(): number {
    return this.#nextId;
  }

  /** Writes one message as one line. */
  send(message: WireMessage): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes raw text as it is (bad input tests); add the newline yourself. */
  writeRaw(text: string): Promise<void> {
    return new Promise((done, fail) =>
      this.#child.stdin.write(text, (error) => (error ? fail(error) : done())),
    );
  }

  /** Resolves with the first message (already received or to come) that passes `test`. */
  waitFor(test: (message: WireMessage) => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<WireMessage> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolvePromise, reject) => {
      const waiter = {
        test,
        resolve: (message: WireMessage) => {
          clearTimeout(timer);
          resolvePromise(message);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        const received = JSON.stringify(this.received).slice(0, 2000);
        reject(
          new Error(
            `No matching message within ${timeoutMs} ms; received: ${received}; server stderr: ${this.stderr.join('').slice(0, 2000)}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Closes stdin (the stdio shutdown signal) and resolves with how the process ended. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), DEFAULT_TIMEOUT_MS);
    try {
      return await this.#exited;
    } finally {
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#buffer.indexOf('\n'); end >= 0; end = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      // Anything on stdout that is not one JSON message per line fails JSON.parse: a STDIO-3 violation.
      const message = JSON.parse(line) as WireMessage;
      this.received.push(message);
      if (message.method !== undefined && message.id !== undefined) this.#answer(message);
      for (const waiter of [...this.#waiters]) {
        if (!waiter.test(message)) continue;
        this.#waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  }

  #answer(request: WireMessage): void {
    const result = this.answer(request);
    if (result === undefined)
      this.send({
        jsonrpc: '2.0',
        id: request.id!,
        error: { code: -32601, message: `Method not found: ${request.method!}` },
      });
    else this.send({ jsonrpc: '2.0', id: request.id!, result: result as object });
  }
}
