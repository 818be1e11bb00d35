// In-process fake MCP servers for HTTP client transport tests: a `fetch` function `(Request) =>
// Promise<Response>` that records every request and answers from a test's route, no sockets. SSE
// bodies are written event by event by the test and error when the client aborts, as a real one would.

import type { Frame } from '../../src/jsonrpc/codec.ts';
import type { JsonObject, Message } from '../../src/jsonrpc/message.ts';
import type { Channel } from '../../src/transports/channel.ts';

/** One request the fake server received. */
export interface Received {
  method: string;
  url: string;
  headers: Headers;
  /** The parsed JSON body of a POST; undefined for GET and DELETE. */
  body: JsonObject | JsonObject[] | undefined;
  signal: AbortSignal;
}

/** Answers one request. */
export type Route = (request: Received) => Response | Promise<Response>;

/** A fake server: `fetch` goes to the route; `requests` lists what arrived, in order. */
export class FakeHttpServer {
  readonly requests: Received[] = [];
  route: Route;
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(route: Route) {
    this.route = route;
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    // As the real fetch does: an already aborted request never reaches the server.
    request.signal.throwIfAborted();
    const text = request.method === 'POST' ? await request.text() : '';
    const received: Received = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: text === '' ? undefined : (JSON.parse(text) as JsonObject),
      signal: request.signal,
    };
    this.requests.push(received);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.requests.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
    return this.route(received);
  };

  /** Resolves once `count` requests have arrived in total. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** The requests made with `method` (GET, POST, DELETE). */
  ofMethod(method: string): Received[] {
    return this.requests.filter((request) => request.method === method);
  }
}

/** A JSON response (200 unless `init` says otherwise). */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** A result response to the JSON-RPC request `request`. */
export function resultFor(request: Received, result: JsonObject): JsonObject {
  return { jsonrpc: '2.0', id: (request.body as JsonObject).id as number, result };
}

/** One event to write; fields are written in the order id, event, retry, data. */
export interface WrittenEvent {
  id?: string;
  event?: string;
  retry?: number;
  /** Serialised as JSON unless a string; a string may hold several lines. */
  data?: unknown;
}

/**
 * An SSE response body the test writes to. It errors (like a dropped connection) when the client
 * aborts the request, and `close` ends it cleanly.
 */
export class SseResponder {
  readonly response: Response;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #isDone = false;
  isCancelled = false;

  constructor(signal?: AbortSignal, headers: Record<string, string> = {}) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.isCancelled = true;
        this.#isDone = true;
      },
    });
    signal?.addEventListener('abort', () => this.fail(signal.reason), { once: true });
    this.response = new Response(body, { headers: { 'Content-Type': 'text/event-stream', ...headers } });
  }

  /** Writes raw text. */
  write(text: string): this {
    if (!this.#isDone) this.#controller.enqueue(new TextEncoder().encode(text));
    return this;
  }

  /** Writes one event. */
  send(event: WrittenEvent): this {
    let text = '';
    if (event.id !== undefined) text += `id: ${event.id}\n`;
    if (event.event !== undefined) text += `event: ${event.event}\n`;
    if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
    if (event.data !== undefined) {
      const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      for (const line of data.split('\n')) text += `data: ${line}\n`;
    }
    return this.write(`${text}\n`);
  }

  /** Ends the body cleanly (the server closed the stream). */
  close(): void {
    if (this.#isDone) return;
    this.#isDone = true;
    this.#controller.close();
  }

  /** Breaks the body (a dropped connection). */
  fail(reason: unknown = new Error('connection reset')): void {
    if (this.#isDone) return;
    this.#isDone = true;
    this.#controller.error(reason);
  }
}

/** Collects what a channel delivers. */
export class ChannelLog {
  readonly frames: Frame[] = [];
  closed: { error: Error | undefined } | undefined;
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(channel: Channel) {
    channel.open({
      handleFrame: (frame) => {
        this.frames.push(frame);
        this.#waiters = this.#waiters.filter((waiter) => {
          if (this.frames.length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
      },
      handleClose: (error) => {
        this.closed = { error };
      },
    });
  }

  /** The delivered messages (frames of type `message`), in order. */
  get messages(): Message[] {
    return this.frames.flatMap((frame) => (frame.type === 'message' ? [frame.message] : []));
  }

  /** Resolves once `count` frames have been delivered in total. */
  waitForFrames(count: number): Promise<void> {
    if (this.frames.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

/** Lets every pending promise callback and queued stream read run (no timers involved). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
