// The Node adapter (`mcpwire/node`): an mcpwire handler on node:http. Thin on purpose: every MCP
// rule lives in the handler; this file only moves bytes and sockets. mcpwire's own handlers carry
// their runtime-neutral core (`exchange`), which this adapter feeds straight from node:http, with no
// web Request, Headers, Response or stream in between; any other fetch-style handler goes through
// @hono/node-server.

import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { ExchangeHandler, HeaderReader, HttpReply, HttpRequestView } from './exchange.ts';

/**
 * A fetch-style handler; `close`, when present, is called when the server is closed. `exchange`,
 * when present (every mcpwire handler has it), is served instead of the fetch function.
 */
export interface FetchHandler {
  (request: Request): Response | Promise<Response>;
  readonly exchange?: ExchangeHandler;
  close?(): Promise<void>;
}

type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/**
 * A node:http request listener serving `handler`. Its `exchange` core, when it has one, reads the
 * request from node:http directly; otherwise Node's request becomes a web Request (through
 * @hono/node-server, global `Request`/`Response` left alone). Either way the handler learns when the
 * client disconnects, and a streamed body is cancelled when the socket closes.
 */
export function createNodeListener(handler: FetchHandler): NodeListener {
  const { exchange } = handler;
  if (!exchange) {
    const listener = getRequestListener((request) => handler(request), { overrideGlobalObjects: false });
    return (incoming, outgoing) => void listener(incoming, outgoing);
  }
  return (incoming, outgoing) => {
    const view = new NodeRequestView(incoming, outgoing);
    const failed = (error: unknown): void => {
      // The handlers answer 500 themselves; this is a bug in a custom exchange handler.
      process.emitWarning(`mcpwire: the HTTP handler failed: ${String(error)}`);
      if (outgoing.headersSent) outgoing.destroy();
      else writeReply({ status: 500, headers: {}, body: null }, view, outgoing);
    };
    let pending: ReturnType<ExchangeHandler>;
    try {
      pending = exchange(view);
    } catch (error) {
      return failed(error);
    }
    // A reply decided without waiting (a refusal) is written in this turn.
    if (pending instanceof Promise)
      pending.then((reply) => writeReply(reply ?? NOT_FOUND(), view, outgoing), failed);
    else writeReply(pending ?? NOT_FOUND(), view, outgoing);
  };
}

const NOT_FOUND = (): HttpReply => ({ status: 404, headers: {}, body: null });

/** Case-insensitive lookup on node:http's lowercase header object (repeated headers are already joined). */
class NodeHeaders implements HeaderReader {
  readonly #raw: IncomingMessage['headers'];
  constructor(raw: IncomingMessage['headers']) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    // Callers name headers in lowercase; lowering it again for an absent header costs more than the lookup.
    const value: unknown =
      this.#raw[name] ?? (hasUpperCase(name) ? this.#raw[name.toLowerCase()] : undefined);
    if (typeof value === 'string') return value;
    // Only set-cookie is kept as an array; anything else (an inherited name) is no header.
    return Array.isArray(value) ? value.join(', ') : null;
  }
}

function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) return true;
  }
  return false;
}

/** The request view of one node:http exchange. */
class NodeRequestView implements HttpRequestView {
  readonly method: string;
  readonly pathname: string;
  readonly headers: HeaderReader;
  /** A body refused half-read: the connection cannot be reused. */
  isBodyAbandoned = false;
  readonly #incoming: IncomingMessage;
  readonly #outgoing: ServerResponse;
  readonly #query: string;
  #signal: AbortSignal | undefined;

  constructor(incoming: IncomingMessage, outgoing: ServerResponse) {
    this.#incoming = incoming;
    this.#outgoing = outgoing;
    this.method = incoming.method ?? 'GET';
    this.headers = new NodeHeaders(incoming.headers);
    const target = incoming.url ?? '/';
    if (target.startsWith('/')) {
      const query = target.indexOf('?');
      this.pathname = query === -1 ? target : target.slice(0, query);
      this.#query = query === -1 ? '' : target.slice(query);
    } else {
      // Absolute-form (a proxy's request line) or `*`.
      const url = URL.canParse(target) ? new URL(target) : undefined;
      this.pathname = url?.pathname ?? target;
      this.#query = url?.search ?? '';
    }
  }

  get host(): string {
    return this.#incoming.headers.host ?? '';
  }

  get remoteAddress(): string | undefined {
    return this.#incoming.socket.remoteAddress;
  }

  get searchParams(): URLSearchParams {
    return new URLSearchParams(this.#query);
  }

  readBody(limit: number): Promise<{ text: string } | { tooLarge: true }> {
    const incoming = this.#incoming;
    const declared = incoming.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      this.isBodyAbandoned = true;
      return Promise.resolve({ tooLarge: true });
    }
    // Listeners are never removed: the request object is garbage once answered, and a settled
    // promise ignores later calls ('close' also follows a normal 'end').
    return new Promise((resolve, reject) => {
      let first: Buffer | undefined;
      let chunks: Buffer[] | undefined;
      let size = 0;
      let isDone = false;
      incoming.on('data', (chunk: Buffer) => {
        if (isDone) return;
        size += chunk.length;
        if (size > limit) {
          isDone = true;
          incoming.pause();
          this.isBodyAbandoned = true;
          resolve({ tooLarge: true });
        } else if (first === undefined) first = chunk;
        else (chunks ??= [first]).push(chunk);
      });
      incoming.on('end', () => {
        if (isDone) return;
        isDone = true;
        // Invalid UTF-8 becomes U+FFFD and then, at worst, a JSON parse error (-32700).
        const bytes = chunks ? Buffer.concat(chunks) : first;
        resolve({ text: bytes === undefined ? '' : bytes.toString('utf8') });
      });
      const onGone = (): void => {
        if (isDone) return;
        isDone = true;
        reject(new Error('The client closed the connection before the body ended'));
      };
      incoming.on('error', onGone);
      incoming.on('close', onGone);
    });
  }

  onGone(listener: () => void): () => void {
    const outgoing = this.#outgoing;
    if (outgoing.writableFinished) return () => {};
    if (outgoing.destroyed) {
      queueMicrotask(listener);
      return () => {};
    }
    // `on`, and a flag instead of `off`: cheaper than once/off, and the response dies with the exchange.
    let isWatching = true;
    outgoing.on('close', () => {
      if (isWatching && !outgoing.writableFinished) listener();
    });
    return () => {
      isWatching = false;
    };
  }

  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      this.onGone(() => controller.abort());
      this.#signal = controller.signal;
    }
    return this.#signal;
  }

  toRequest(): Request {
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.#incoming.headers)) {
      if (value === undefined) continue;
      if (typeof value === 'string') headers.set(name, value);
      else for (const item of value) headers.append(name, item);
    }
    const authority = this.host === '' ? 'localhost' : this.host;
    return new Request(`http://${authority}${this.pathname}${this.#query}`, {
      method: this.method,
      headers,
      signal: this.signal,
    });
  }
}

/** Writes `reply` (consumed: its headers object is completed in place). */
function writeReply(reply: HttpReply, view: NodeRequestView, outgoing: ServerResponse): void {
  const { status, headers, body } = reply;
  // A body left half-read cannot be skipped safely: answer, then close the connection.
  if (view.isBodyAbandoned) headers.Connection = 'close';
  if (typeof body === 'string') {
    headers['Content-Length'] = String(Buffer.byteLength(body));
    outgoing.writeHead(status, headers);
    outgoing.end(body);
  } else if (body === null) {
    outgoing.writeHead(status, headers);
    outgoing.end();
  } else {
    outgoing.writeHead(status, headers);
    outgoing.flushHeaders();
    void pump(body, outgoing);
  }
}

/** Copies a streamed body to the socket, respecting backpressure; cancels it when the client leaves. */
async function pump(body: ReadableStream<Uint8Array>, outgoing: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  outgoing.once('close', cancel);
  // A body that errors while we wait for 'drain' (an SSE stream over its buffer bound, given up on a
  // client that does not read) drops the connection: the wait ends with the socket's 'close'.
  reader.closed.catch(() => outgoing.destroy());
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) {
        await new Promise<void>((resolve) => {
          const go = (): void => {
            outgoing.off('drain', go);
            outgoing.off('close', go);
            resolve();
          };
          outgoing.once('drain', go);
          outgoing.once('close', go);
        });
      }
      if (outgoing.destroyed) return;
    }
    outgoing.end();
  } catch {
    outgoing.destroy();
  } finally {
    outgoing.off('close', cancel);
  }
}

/** Where `serveHttp` listens. */
export interface ServeHttpOptions {
  /** The TCP port; 0 picks a free one (read it from `url`). */
  port: number;
  /** The interface; default 127.0.0.1 (HTTP-3: local servers bind to loopback). */
  host?: string;
  /** The endpoint path, for `url` only; default `/mcp`. */
  path?: string;
  /**
   * A client must send its whole request head within this many ms, else it gets 408 and the
   * connection closes (slowloris). Default 10,000 (Node's own is 60,000). Infinity: no limit.
   */
  headersTimeoutMs?: number;
  /**
   * A client must send its whole request, head and body, within this many ms, else 408 and close.
   * It bounds a body sent one byte at a time. Default 30,000 (Node's own is 300,000). Infinity: no limit.
   */
  requestTimeoutMs?: number;
  /** The largest request head (request line and headers) in bytes; larger gets 431. Default 16 KiB (Node's). */
  maxHeaderBytes?: number;
}

/** The defaults of {@link ServeHttpOptions}' limits. */
export const HTTP_SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxHeaderBytes: 16 * 1024,
} as const;

/** A listening server. */
export interface HttpServerHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly server: Server;
  /** Stops listening, ends open connections (SSE streams included), then closes the handler. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves `handler` on node:http and resolves once listening; rejects if the port cannot be bound. */
export async function serveHttp(handler: FetchHandler, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(serverOptions(options), createNodeListener(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await handler.close?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };
  return {
    url: `http://${hostPart}:${port}${options.path ?? '/mcp'}`,
    server,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * node:http's options for `options`' limits. Repeated headers are joined (not dropped, as Node does
 * for Content-Type), so the handler sees them and refuses a repeated singleton header with 400.
 */
function serverOptions(options: ServeHttpOptions): ServerOptions {
  const headersMs = toNodeTimeout(options.headersTimeoutMs ?? HTTP_SERVER_LIMITS.headersTimeoutMs);
  const requestMs = toNodeTimeout(options.requestTimeoutMs ?? HTTP_SERVER_LIMITS.requestTimeoutMs);
  // Node refuses a head timeout above the request timeout; the request timeout bounds the head too.
  const headersTimeout =
    requestMs === 0 ? headersMs : Math.min(headersMs === 0 ? requestMs : headersMs, requestMs);
  const shortest = Math.min(...[headersTimeout, requestMs].filter((ms) => ms > 0));
  return {
    headersTimeout,
    requestTimeout: requestMs,
    maxHeaderSize: options.maxHeaderBytes ?? HTTP_SERVER_LIMITS.maxHeaderBytes,
    joinDuplicateHeaders: true,
    // Node checks the timeouts on this period (default 30 s, which would stretch a 10 s limit to 40 s).
    connectionsCheckingInterval: Number.isFinite(shortest)
      ? Math.max(10, Math.min(1000, Math.floor(shortest / 4)))
      : 30_000,
  };
}

/** Node's spelling of "no timeout" is 0. */
function toNodeTimeout(ms: number): number {
  if (ms === Infinity) return 0;
  if (!(ms > 0) || !Number.isFinite(ms))
    throw new RangeError(`A timeout must be a positive number of ms or Infinity, got ${ms}`);
  return Math.ceil(ms);
}
