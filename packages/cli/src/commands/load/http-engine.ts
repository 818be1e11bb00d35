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
   * Content-Length added here). Resolves with the result; rejects as `send` fails a request.
   */
  post(headerLines: string, body: string, id: number, method: string): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      this.send(headerLines, body, id, { method, sentAt: 0, resolve, reject });
    });
  }

  /**
   * POSTs `body` (request `id`) with `headerLines` (each `name: value\r\n`, Host and Content-Length
   * added here) and settles `request` with its answer, never before this call returns: `resolve`
   * with the result; `reject` with RpcError (an error response), HttpStatusError, HttpWireError (a
   * malformed answer), RequestTimeoutError, or the socket's error. `request` may be reused once
   * settled (a closed-loop worker's: its hot path allocates no promise and no closure). Fills
   * `request.timing`: sent just before the socket write, answered when the response is read.
   */
  send(headerLines: string, body: string, id: number, request: EngineRequest): void {
    if (this.#isClosed) {
      process.nextTick(() => request.reject(new Error('the load connection is closed')));
      return;
    }
    this.#pending.set(id, request);
    this.#sweep.start();
    const socket = this.#idle.pop() ?? this.#open();
    socket.send(
      `${this.#requestLine}${headerLines}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      headerLines,
      id,
      request,
    );
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
    socket.send(text, headerLines, NaN, undefined);
  }

  /** A socket's exchange for request `id` ended: `request` settled, unless it timed out before. */
  readonly #settle = (id: number, request: EngineRequest, outcome: Outcome): void => {
    if (!this.#pending.delete(id)) return;
    if (outcome instanceof Error) request.reject(outcome);
    else if ('error' in outcome) {
      const error = outcome.error as { code?: unknown; message?: unknown; data?: unknown };
      request.reject(new RpcError(Number(error.code), String(error.message), error.data));
    } else request.resolve(outcome.result as JsonObject);
  };

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
      this.#settle,
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
  readonly #onSettle: (id: number, request: EngineRequest, outcome: Outcome) => void;
  #headerLines = '';
  /** True while the exchange on the socket waits for its response. */
  #isWaiting = false;
  /** The request of the exchange (undefined for the refusal of a server request). */
  #request: EngineRequest | undefined;
  #status = 0;
  #headers: ReadonlyMap<string, string> = new Map();
  /** The JSON body read so far: its first chunk, and every chunk once there is a second. */
  #json: Buffer | undefined;
  #jsonChunks: Buffer[] | undefined;
  /** True while the end of a response is handled: a request it settles hears after the socket is released. */
  #isEnding = false;
  #endedId = NaN;
  #endedRequest: EngineRequest | undefined;
  #endedOutcome: Outcome | undefined;
  #sse: SseReader | undefined;
  #isDead = false;
  #drainTimer: NodeJS.Timeout | undefined;

  constructor(
    options: HttpEngineOptions,
    release: (socket: WireSocket, isReusable: boolean) => void,
    onServerRequest: (headerLines: string, body: string) => void,
    onSettle: (id: number, request: EngineRequest, outcome: Outcome) => void,
  ) {
    this.#onServerRequest = onServerRequest;
    this.#onSettle = onSettle;
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

  /**
   * Writes one request (`headerLines` kept to answer a server request on the same session);
   * `request` (if any) is settled through the engine and its times noted.
   */
  send(text: string, headerLines: string, id: number, request: EngineRequest | undefined): void {
    this.id = id;
    this.#headerLines = headerLines;
    this.#isWaiting = true;
    this.#request = request;
    this.#parser.expect();
    if (request !== undefined) {
      const now = performance.now();
      request.sentAt = now;
      if (request.timing !== undefined) request.timing.sentAt = now;
    }
    this.#socket.write(text);
  }

  destroy(): void {
    if (this.#isDead) return;
    this.#isDead = true;
    clearTimeout(this.#drainTimer);
    this.#socket.destroy();
    this.#release(this, false);
    if (this.#isWaiting) this.#fail(new Error('the connection closed before the response ended'));
  }

  #handleHead(status: number, headers: ReadonlyMap<string, string>): void {
    this.#status = status;
    this.#headers = headers;
    this.#json = this.#jsonChunks = undefined;
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
    else if (this.#status === 200 && this.#isWaiting) {
      if (this.#json === undefined) this.#json = chunk;
      else (this.#jsonChunks ??= [this.#json]).push(chunk);
    }
  }

  #handleEnd(isReusable: boolean): void {
    this.#isEnding = true;
    // Answered when the response is read whole, before its body is decoded, where the hand-written
    // driver of bench/load.ts stamps its answers: the decoding is each driver's own work after it.
    const timing = this.#isWaiting ? this.#request?.timing : undefined;
    if (timing !== undefined) timing.answeredAt = performance.now();
    if (this.#isWaiting && this.#sse === undefined && this.#status === 200) {
      const body = this.#jsonChunks !== undefined ? Buffer.concat(this.#jsonChunks) : this.#json;
      this.#handleMessage(parseJson(body === undefined ? '' : body.toString('utf8')));
    }
    // Built only when a request still waits: an Error's stack trace is the costliest thing here.
    if (this.#isWaiting)
      this.#finish(
        new HttpWireError(`the answer (HTTP ${this.#status}) held no response to request ${this.id}`),
      );
    this.#json = this.#jsonChunks = undefined;
    this.#sse = undefined;
    this.id = NaN;
    clearTimeout(this.#drainTimer);
    this.#drainTimer = undefined;
    if (!this.#isDead) this.#release(this, isReusable);
    if (!isReusable) this.destroy();
    this.#isEnding = false;
    // Settled once the socket is idle again, so a worker that sends its next request at once
    // (from inside this read, as a hand-written driver would after its await) may reuse it.
    const request = this.#endedRequest;
    if (request === undefined) return;
    const outcome = this.#endedOutcome!;
    this.#endedRequest = this.#endedOutcome = undefined;
    this.#onSettle(this.#endedId, request, outcome);
  }

  #handleEvent(data: string): void {
    const wasWaiting = this.#isWaiting;
    this.#handleMessage(parseJson(data));
    // The response came on a stream the server may keep open: the socket waits for its end at most
    // this long, then is closed (a stream never ended must not hold a socket per request).
    if (wasWaiting && !this.#isWaiting && this.#drainTimer === undefined) {
      this.#drainTimer = setTimeout(() => this.destroy(), SSE_DRAIN_MS);
      this.#drainTimer.unref();
    }
  }

  /** A message of the answer: ours settles the request, a server request is refused, the rest ignored. */
  #handleMessage(message: unknown): void {
    if (message instanceof Error) return this.#finish(message);
    if (!Array.isArray(message)) return this.#handleItem(message);
    for (const item of message) this.#handleItem(item);
  }

  #handleItem(item: unknown): void {
    if (typeof item !== 'object' || item === null) return;
    const record = item as JsonObject;
    if (typeof record.method === 'string') {
      if (record.id !== undefined) this.#refuse(record);
    } else if (record.id === this.id) this.#finish(record);
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
    if (!this.#isWaiting) return;
    const request = this.#request;
    this.#isWaiting = false;
    this.#request = undefined;
    if (request === undefined) return;
    // An SSE answer, or a head that is no answer, is stamped here: the end stamped the others.
    if (request.timing !== undefined && !this.#isEnding) request.timing.answeredAt = performance.now();
    if (this.#isEnding) {
      this.#endedId = this.id;
      this.#endedRequest = request;
      this.#endedOutcome = outcome;
    } else this.#onSettle(this.id, request, outcome);
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
