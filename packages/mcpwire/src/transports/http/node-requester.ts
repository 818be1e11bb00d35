// The default Requester on Node (issue 26): node:http and node:https keep-alive agents, one of each
// per requester (that is, per client channel), whose sockets all close with it. Node's global fetch
// costs a client several times a plain pooled request per call; this path skips it.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { HttpExchange, Requester } from './requester.ts';

/**
 * Idle sockets kept per origin for reuse. Sockets in use are not capped: a held SSE stream (the
 * GET stream, a request's answer) keeps its socket, and a cap could leave the POST that answers a
 * server request queued behind the very streams waiting for that answer.
 */
export const MAX_IDLE_SOCKETS = 64;

/** Statuses whose responses have no body (a Response with a body refuses them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Node's requester: see {@link Requester}; all of its sockets close on `close`. */
export class NodeRequester implements Requester {
  #http: HttpAgent | undefined;
  #https: HttpsAgent | undefined;

  request(exchange: HttpExchange): Promise<Response> {
    const { method, url, body, signal } = exchange;
    const isHttps = url.protocol === 'https:';
    const agent = isHttps
      ? (this.#https ??= new HttpsAgent(AGENT_OPTIONS))
      : (this.#http ??= new HttpAgent(AGENT_OPTIONS));
    const headers: Record<string, string> = {};
    exchange.headers.forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const send = isHttps ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(
        url,
        { method, headers, agent, ...(signal === undefined ? {} : { signal }) },
        (res) => {
          try {
            resolve(toResponse(res));
          } catch (error) {
            res.destroy();
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        },
      );
      // `on`, not `once`: a request can fail twice (a socket error after an abort), and an
      // 'error' with no listener would be thrown.
      request.on('error', (error) => reject(signal?.aborted ? (signal.reason ?? error) : error));
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
}

const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS, scheduling: 'lifo' } as const;

/** The default Requester on Node. */
export function createDefaultRequester(): Requester {
  return new NodeRequester();
}

/**
 * `res` as a web Response: its status, headers, and its body as a stream read as it arrives. A
 * status a Response cannot carry (outside 200-599) throws; a reason phrase it refuses is dropped.
 */
function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new RangeError(`HTTP status ${status} is not a final response`);
  const hasBody = !NULL_BODY_STATUSES.has(status);
  if (!hasBody) res.resume();
  const body = hasBody ? toBodyStream(res) : null;
  try {
    return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
  } catch {
    return new Response(body, { status, headers });
  }
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
      // Node reports a connection that closed in the middle of a body as `aborted` (ECONNRESET).
      res.once('error', (error: Error & { code?: unknown }) =>
        fail(error.code === 'ECONNRESET' ? new Error('other side closed', { cause: error }) : error),
      );
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
