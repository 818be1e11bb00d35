// `load`'s wire engine over Streamable HTTP: a minimal, strict HTTP/1.1 client on keep-alive
// sockets (node:net, node:tls with normal verification), one request in flight per socket. A JSON
// or an SSE answer is read for the response with the request's id; a server request met on the
// way is answered with a JSON-RPC error (load declares no client capabilities); notifications are
// ignored. Malformed answers, timeouts and closed sockets fail only their request.

import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { RequestTimeoutError, RpcError, type JsonObject } from 'mcpwire';
import { HttpResponseParser, HttpWireError } from './http-response-parser.ts';
import { PendingRequests } from './pending-requests.ts';
import { SseReader } from './sse-reader.ts';
import { TimeoutSweep, type EngineRequest } from './timeout-sweep.ts';

/** The server answered 404 to a request of the session: it has expired (or was never known). */
export class SessionExpiredError extends Error {
  readonly code = 'SESSION_EXPIRED';
  constructor(sessionId: string) {
    super(`HTTP 404: session ${sessionId} expired`);
    this.name = 'SessionExpiredError';
  }
}

/** The server answered with a status that is no answer to the request (4xx, 5xx, a 202). */
export class HttpStatusError extends Error {
  readonly code = 'HTTP_STATUS';
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  constructor(status: number, headers: ReadonlyMap<string, string>) {
    super(`HTTP ${status}${status === 202 ? ' (accepted, no answer) to a request' : ''}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.headers = headers;
  }
}

/** How the engine reaches the server. */
export interface HttpEngineOptions {
  url: URL;
  timeoutMs: number;
  /** The largest response body read (--max-message-size, else 64 MiB). */
  maxBodyBytes: number;
}

const MAX_HEAD_BYTES = 64 * 1024;
/** How long a socket waits for the end of an SSE answer after its response arrived. */
const SSE_DRAIN_MS = 1000;
/** What load answers a server's request with: it declares no client capabilities. */
const METHOD_NOT_FOUND = -32601;

/**
 * The sockets of one connection (one session in the handshake era). `post` writes one request
 * and resolves with its JSON-RPC result; sockets are opened as requests need them and kept alive.
 */
export class HttpEngine {
  readonly #options: HttpEngineOptions;
  readonly #idle: WireSocket[] = [];
  readonly #all = new Set<WireSocket>();
  readonly #pending = new PendingRequests<EngineRequest>();
  readonly #sweep: TimeoutSweep;
  readonly #requestLine: string;
  #isClosed = false;

  constructor(options: HttpEngineOptions) {
    this.#options = options;
    const { url } = options;
    this.#requestLine = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    this.#sweep = new TimeoutSweep(this.#pending, options.timeoutMs, (request, id) => {
      for (const socket of this.#all) if (socket.id === id) socket.destroy();
      request.reject(new RequestTimeoutError(request.method, options.timeoutMs));
    });
  }

  /**
   * POSTs `body` (request `id`, `method`) with `headerLines` (each `name: value\r\n`, Host and
   * Content-Length added here). Resolves with the result; rejects with RpcError (an error response),
   * SessionExpiredError, HttpStatusError, HttpWireError (a malformed answer), RequestTimeoutError, or
   * the socket's error.
   */
  post(headerLines: string, body: string, id: number, method: string): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      if (this.#isClosed) return reject(new Error('the load connection is closed'));
      const request: EngineRequest = { method, sentAt: performance.now(), resolve, reject };
      this.#pending.set(id, request);
      this.#sweep.start();
      const socket = this.#idle.pop() ?? this.#open();
      socket.send(
        `${this.#requestLine}${headerLines}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        headerLines,
        id,
        (outcome) => {
          if (!this.#pending.delete(id)) return;
          if (outcome instanceof Error) reject(outcome);
          else if ('error' in outcome) {
            const error = outcome.error as { code?: unknown; message?: unknown; data?: unknown };
            reject(new RpcError(Number(error.code), String(error.message), error.data));
          } else resolve(outcome.result as JsonObject);
        },
      );
    });
  }

  /** Closes every socket; requests in flight fail. */
  close(): void {
    this.#isClosed = true;
    this.#sweep.stop();
    for (const socket of this.#all) socket.destroy();
  }

  /** POSTs a message that expects no answer but a 202 (the refusal of a server request). */
  #postAnswer(headerLines: string, body: string): void {
    if (this.#isClosed) return;
    const socket = this.#idle.pop() ?? this.#open();
    const text = `${this.#requestLine}${headerLines}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    socket.send(text, headerLines, NaN, () => {});
  }

  #open(): WireSocket {
    const socket = new WireSocket(
      this.#options,
      (done, isReusable) => {
        if (isReusable && !this.#isClosed) this.#idle.push(done);
        else {
          this.#all.delete(done);
          const index = this.#idle.indexOf(done);
          if (index !== -1) this.#idle.splice(index, 1);
        }
      },
      (headerLines, body) => this.#postAnswer(headerLines, body),
    );
    this.#all.add(socket);
    return socket;
  }
}

/** What a request's exchange ended with: the response message, or why there is none. */
type Outcome = JsonObject | Error;

/** One keep-alive socket with at most one exchange on it. */
class WireSocket {
  /** The id of the request in flight, or NaN. */
  id = NaN;
  readonly #socket: Socket;
  readonly #parser: HttpResponseParser;
  readonly #release: (socket: WireSocket, isReusable: boolean) => void;
  readonly #onServerRequest: (headerLines: string, body: string) => void;
  #headerLines = '';
  #settle: ((outcome: Outcome) => void) | undefined;
  #status = 0;
  #headers: ReadonlyMap<string, string> = new Map();
  #json: Buffer[] = [];
  #sse: SseReader | undefined;
  #isDead = false;
  #drainTimer: NodeJS.Timeout | undefined;

  constructor(
    options: HttpEngineOptions,
    release: (socket: WireSocket, isReusable: boolean) => void,
    onServerRequest: (headerLines: string, body: string) => void,
  ) {
    this.#onServerRequest = onServerRequest;
    const { url } = options;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    this.#socket =
      url.protocol === 'https:'
        ? connectTls({ host, port, ...(isIp(host) ? {} : { servername: host }) }).setNoDelay(true)
        : connectTcp({ host, port, noDelay: true });
    this.#release = release;
    this.#parser = new HttpResponseParser(
      {
        handleHead: (status, headers) => this.#handleHead(status, headers),
        handleBody: (chunk) => this.#handleBody(chunk),
        handleEnd: (isReusable) => this.#handleEnd(isReusable),
      },
      { maxHeadBytes: MAX_HEAD_BYTES, maxBodyBytes: options.maxBodyBytes },
    );
    this.#socket.on('data', (chunk: Buffer) => {
      try {
        this.#parser.push(chunk);
      } catch (error) {
        this.#fail(error as Error);
      }
    });
    this.#socket.on('end', () => {
      try {
        this.#parser.end();
      } catch (error) {
        this.#fail(error as Error);
      }
      this.destroy();
    });
    this.#socket.on('error', (error) => this.#fail(error));
    this.#socket.on('close', () => this.destroy());
  }

  /** Writes one request (`headerLines` kept to answer a server request on the same session). */
  send(text: string, headerLines: string, id: number, settle: (outcome: Outcome) => void): void {
    this.id = id;
    this.#headerLines = headerLines;
    this.#settle = settle;
    this.#parser.expect();
    this.#socket.write(text);
  }

  destroy(): void {
    if (this.#isDead) return;
    this.#isDead = true;
    clearTimeout(this.#drainTimer);
    this.#socket.destroy();
    this.#release(this, false);
    if (this.#settle !== undefined) this.#fail(new Error('the connection closed before the response ended'));
  }

  #handleHead(status: number, headers: ReadonlyMap<string, string>): void {
    this.#status = status;
    this.#headers = headers;
    this.#json = [];
    const type = headers.get('content-type')?.toLowerCase() ?? '';
    this.#sse =
      status === 200 && type.startsWith('text/event-stream')
        ? new SseReader((data) => this.#handleEvent(data))
        : undefined;
    if (status !== 200) this.#finish(new HttpStatusError(status, headers));
    else if (this.#sse === undefined && !type.startsWith('application/json'))
      this.#finish(
        new HttpWireError(
          `content-type ${JSON.stringify(type)} where application/json or text/event-stream was expected`,
        ),
      );
  }

  #handleBody(chunk: Buffer): void {
    if (this.#sse !== undefined) this.#sse.push(chunk);
    else if (this.#status === 200 && this.#settle !== undefined) this.#json.push(chunk);
  }

  #handleEnd(isReusable: boolean): void {
    if (this.#settle !== undefined && this.#sse === undefined && this.#status === 200) {
      const body = this.#json.length === 1 ? this.#json[0]! : Buffer.concat(this.#json);
      this.#handleMessage(parseJson(body.toString('utf8')));
    }
    // Built only when a request still waits: an Error's stack trace is the costliest thing here.
    if (this.#settle !== undefined)
      this.#finish(
        new HttpWireError(`the answer (HTTP ${this.#status}) held no response to request ${this.id}`),
      );
    this.#json = [];
    this.#sse = undefined;
    this.id = NaN;
    clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
    if (!this.#isDead) this.#release(this, isReusable);
    if (!isReusable) this.destroy();
  }

  #handleEvent(data: string): void {
    const wasWaiting = this.#settle !== undefined;
    this.#handleMessage(parseJson(data));
    // The response came on a stream the server may keep open: the socket waits for its end at most
    // this long, then is closed (a stream never ended must not hold a socket per request).
    if (wasWaiting && this.#settle === undefined && this.#drainTimer === undefined) {
      this.#drainTimer = setTimeout(() => this.destroy(), SSE_DRAIN_MS);
      this.#drainTimer.unref();
    }
  }

  /** A message of the answer: ours settles the request, a server request is refused, the rest ignored. */
  #handleMessage(message: unknown): void {
    if (message instanceof Error) return this.#finish(message);
    const items = Array.isArray(message) ? message : [message];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      const record = item as JsonObject;
      if (typeof record.method === 'string') {
        if (record.id !== undefined) this.#refuse(record);
      } else if (record.id === this.id) this.#finish(record);
    }
  }

  /** Answers a server's request with -32601 (through the engine, on another socket of the session). */
  #refuse(request: JsonObject): void {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: request.id,
      error: {
        code: METHOD_NOT_FOUND,
        message: `Method not found: load answers no ${String(request.method)} requests`,
      },
    });
    this.#onServerRequest(this.#headerLines, body);
  }

  #finish(outcome: Outcome): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(outcome);
  }

  #fail(error: Error): void {
    this.#finish(error);
    if (!this.#isDead) this.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new HttpWireError(`an answer that is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
