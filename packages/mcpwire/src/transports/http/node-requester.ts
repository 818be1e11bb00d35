// The default Requester on Node (issue 26): node:http and node:https keep-alive agents, one of each
// per requester (that is, per client channel), whose sockets all close with it. Node's global fetch
// costs a client several times a plain pooled request per call; this path skips it, and answers
// with NodeAnswer: no web Response, and no web stream unless someone asks for the body as one.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { AnswerHeaders, CappedText, HttpAnswer, HttpExchange, Requester } from './requester.ts';

/**
 * Idle sockets kept per origin for reuse. Sockets in use are not capped: a held SSE stream (the
 * GET stream, a request's answer) keeps its socket, and a cap could leave the POST that answers a
 * server request queued behind the very streams waiting for that answer.
 */
export const MAX_IDLE_SOCKETS = 64;

/** Statuses whose responses have no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Node's requester: see {@link Requester}; all of its sockets close on `close`. */
export class NodeRequester implements Requester {
  #http: HttpAgent | undefined;
  #https: HttpsAgent | undefined;
  /** When each pooled socket was last put back idle. */
  readonly #idleSince = new WeakMap<Socket, number>();
  readonly #keepAliveRaceIdleMs: number;

  /**
   * `keepAliveRaceIdleMs`: how long a pooled socket must have sat idle for a reset on it to be taken
   * for the server's keep-alive close crossing the request (then sent again on another socket);
   * default 1,000 (servers keep idle sockets for seconds: Node 5 s, nginx 75 s).
   */
  constructor(options: { keepAliveRaceIdleMs?: number } = {}) {
    this.#keepAliveRaceIdleMs = options.keepAliveRaceIdleMs ?? KEEP_ALIVE_RACE_IDLE_MS;
  }
  /** The last URL's host, port and path, made once (a channel posts to one URL). */
  #target: { href: string; options: RequestOptions } | undefined;

  request(exchange: HttpExchange): Promise<HttpAnswer> {
    const { method, url, body, signal } = exchange;
    const isHttps = url.protocol === 'https:';
    const agent = isHttps
      ? (this.#https ??= this.#watched(new HttpsAgent(AGENT_OPTIONS)))
      : (this.#http ??= this.#watched(new HttpAgent(AGENT_OPTIONS)));
    const headers =
      body === undefined
        ? exchange.headers
        : { ...exchange.headers, 'content-length': String(Buffer.byteLength(body)) };
    const send = isHttps ? httpsRequest : httpRequest;
    return new Promise<HttpAnswer>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const { protocol, hostname, port, path, auth } = this.#optionsOf(url);
      const options: RequestOptions = { protocol, hostname, port, path, method, headers, agent };
      if (auth !== undefined) options.auth = auth;
      let isAnswered = false;
      let idleMs = 0;
      const request = send(options, (res) => {
        isAnswered = true;
        try {
          resolve(new NodeAnswer(res));
        } catch (error) {
          res.destroy();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      request.once('socket', (socket: Socket) => {
        const since = this.#idleSince.get(socket);
        if (since !== undefined) idleMs = Date.now() - since;
      });
      // `on`, not `once`: a request can fail twice (a socket error after an abort), and an
      // 'error' with no listener would be thrown.
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A pooled socket the server closed while idle (its keep-alive timeout) can cross this
        // request on the wire: sent again, as Node's documentation advises, on the next socket. Only
        // after the socket sat idle as long as a keep-alive timeout can be: a socket cut while in
        // use (a server that read the request) is the caller's to retry or not. Each try uses up
        // one pooled socket, and a new socket is never retried, so this ends.
        if (
          request.reusedSocket &&
          error.code === 'ECONNRESET' &&
          !isAnswered &&
          signal?.aborted !== true &&
          idleMs >= this.#keepAliveRaceIdleMs
        ) {
          isAnswered = true;
          resolve(this.request(exchange));
          return;
        }
        reject(signal?.aborted ? (signal.reason ?? error) : error);
      });
      if (signal !== undefined) {
        // An abort at any time, the body's reading included, destroys the request and its socket.
        const abort = (): void => void request.destroy(new Error('aborted', { cause: signal.reason }));
        signal.addEventListener('abort', abort, { once: true });
        request.on('close', () => signal.removeEventListener('abort', abort));
      }
      request.end(body);
    });
  }

  /** Destroys every socket, idle or not; a later request opens new ones. */
  close(): void {
    this.#http?.destroy();
    this.#https?.destroy();
    this.#http = undefined;
    this.#https = undefined;
  }

  #watched<A extends HttpAgent>(agent: A): A {
    agent.on('free', (socket: Socket) => this.#idleSince.set(socket, Date.now()));
    return agent;
  }

  #optionsOf(url: URL): RequestOptions {
    const { href } = url;
    if (this.#target?.href !== href) this.#target = { href, options: urlToHttpOptions(url) };
    return this.#target.options;
  }
}

const KEEP_ALIVE_RACE_IDLE_MS = 1_000;

const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS, scheduling: 'lifo' } as const;

/** The default Requester on Node. */
export function createDefaultRequester(): Requester {
  return new NodeRequester();
}

/**
 * A node:http response as an HttpAnswer. A status outside 200-599 is refused (throws). The body is
 * read once: as text (`readText`), dropped (`discard`), or as a web stream (`body`, made then).
 */
class NodeAnswer implements HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: RawHeaders;
  readonly #res: IncomingMessage;
  /** The body's stream once asked for; null when there is no body. */
  #body: ReadableStream<Uint8Array> | null | undefined;
  #isUsed = false;

  constructor(res: IncomingMessage) {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 599) throw new RangeError(`HTTP status ${status} is not a final response`);
    this.status = status;
    this.statusText = res.statusMessage ?? '';
    this.headers = new RawHeaders(res.rawHeaders);
    this.#res = res;
    if (NULL_BODY_STATUSES.has(status)) {
      this.#body = null;
      res.resume();
    }
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get type(): string {
    return 'default';
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body !== undefined) return this.#body;
    this.#take();
    this.#body = toBodyStream(this.#res);
    return this.#body;
  }

  readText(cap: number): Promise<CappedText> {
    if (this.#body === null) return Promise.resolve({ text: '', isCut: false });
    this.#take();
    const res = this.#res;
    if (Number(this.headers.get('content-length') ?? 0) > cap) {
      if (!res.complete) res.destroy();
      return Promise.resolve({ text: '', isCut: true });
    }
    return readCappedText(res, cap);
  }

  discard(): void {
    if (this.#body !== undefined) return void this.#body?.cancel().catch(() => {});
    if (this.#isUsed) return;
    this.#isUsed = true;
    // A body already in (most refusals, a 202) drains and the socket is reused; else it is closed.
    if (this.#res.complete) this.#res.resume();
    else this.#res.destroy();
  }

  /** Marks the body used; it can be read only once, as a web Response's. */
  #take(): void {
    if (this.#isUsed) throw new TypeError('The body has already been read');
    this.#isUsed = true;
  }
}

/** Response headers over node's raw list: names compared without case, repeats joined with ", ". */
class RawHeaders implements AnswerHeaders {
  readonly #raw: string[];
  /** Lowercase name to value, made at the first `get`. */
  #byName: Map<string, string> | undefined;

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    this.#byName ??= joined(this.#raw);
    return this.#byName.get(name.toLowerCase()) ?? null;
  }

  /** As a web Headers' forEach: lowercase names in order, repeats joined. */
  forEach(callback: (value: string, name: string) => void): void {
    const headers = new Headers();
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    headers.forEach((value, name) => callback(value, name));
  }
}

/** `raw`'s pairs by lowercase name, the values of a repeated name joined with ", " (as Headers.get). */
function joined(raw: string[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const earlier = byName.get(name);
    byName.set(name, earlier === undefined ? raw[i + 1]! : `${earlier}, ${raw[i + 1]!}`);
  }
  return byName;
}

/**
 * Reads `res`'s body as UTF-8, up to `cap` bytes: past it the socket is destroyed, the rest never
 * read. A connection that closes before the body's end rejects.
 */
function readCappedText(res: IncomingMessage, cap: number): Promise<CappedText> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let isSettled = false;
    const text = (): string =>
      (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
    const fail = (error: Error): void => {
      if (isSettled) return;
      isSettled = true;
      reject(error);
    };
    res.on('data', (chunk: Buffer) => {
      if (isSettled) return;
      if (size + chunk.length > cap) {
        isSettled = true;
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        res.destroy();
        return resolve({ text: text(), isCut: true });
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    res.on('end', () => {
      if (isSettled) return;
      isSettled = true;
      resolve({ text: text(), isCut: false });
    });
    // `on`: an 'error' with no listener would be thrown.
    res.on('error', (error: Error) => fail(closedError(error)));
    res.on('close', () => {
      if (!res.complete) fail(new Error('other side closed'));
    });
  });
}

/** Node reports a connection that closed in the middle of a body as `aborted` (ECONNRESET). */
function closedError(error: Error & { code?: unknown }): Error {
  return error.code === 'ECONNRESET' ? new Error('other side closed', { cause: error }) : error;
}

/**
 * `res`'s body as a byte stream. It is read at once (so a body read to its end frees the socket for
 * reuse), and paused while the stream's queue is full. Cancelling an unfinished body destroys the
 * socket, the only way to stop the rest arriving; a body whose connection closes early errors.
 */
function toBodyStream(res: IncomingMessage): ReadableStream<Uint8Array> {
  let isSettled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: Error): void => {
        if (isSettled) return;
        isSettled = true;
        controller.error(error);
      };
      res.on('data', (chunk: Buffer) => {
        if (isSettled) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.once('end', () => {
        if (isSettled) return;
        isSettled = true;
        controller.close();
      });
      res.on('error', (error: Error) => fail(closedError(error)));
      res.once('close', () => {
        if (!res.complete) fail(new Error('other side closed'));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      isSettled = true;
      if (!res.complete) res.destroy();
    },
  });
}
