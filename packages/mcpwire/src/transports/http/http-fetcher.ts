// One HTTP request of a client transport: the caller's headers and RequestInit merged under the
// protocol's own headers, redirects followed only within the origin, network failures named, failed
// responses turned into HttpError. The exchange itself is a Requester's (./requester.ts), answered
// as an HttpAnswer (a web Response, or Node's lighter record).

import type { JsonRpcErrorObject, JsonRpcErrorResponse } from '../../jsonrpc/message.ts';
import { createDefaultRequester } from '#default-requester';
import type { HttpAuthorization } from './http-authorization.ts';
import { CrossOriginRedirectError, FetchFailedError, HttpError, OPAQUE_LOCATION } from './http-errors.ts';
import {
  FetchRequester,
  toAbortSignal,
  type AbortLike,
  type AnswerHeaders,
  type CappedText,
  type FetchLike,
  type HeaderRecord,
  type HttpAnswer,
  type HttpExchange,
  type Requester,
} from './requester.ts';

export type { CappedText, FetchLike, HeaderRecord, HttpAnswer } from './requester.ts';

/** Redirects within the origin followed at most, as fetch's own limit. */
const MAX_REDIRECTS = 20;

/** Anything `new Headers()` accepts (the DOM's HeadersInit). */
export type HeadersInput = ConstructorParameters<typeof Headers>[0];

/** How every request of a transport is made. */
export interface FetcherOptions {
  /**
   * The fetch to use. Default: on Node, a keep-alive pool of node:http sockets per channel, closed
   * with it (./node-requester.ts); elsewhere the global `fetch`.
   */
  fetch?: FetchLike;
  /**
   * Authorizes every exchange (mcpwire/auth's createOAuthAuthorization): whichever way requests go
   * (Node's pool or a fetch), it adds the credentials and may send an exchange again after a 401/403.
   */
  authorization?: HttpAuthorization;
  /** Headers added to every request (e.g. `Authorization`); the protocol's own headers win. */
  headers?: HeadersInput;
  /**
   * Base options of every request (credentials, dispatcher, ...); method, body and protocol headers
   * are ours. Options besides `headers` and `signal` are fetch's own: with any of them, requests go
   * through `fetch` (the option, else the global one) rather than Node's pool.
   */
  requestInit?: RequestInit;
  /**
   * The largest JSON response body read, in bytes; past it the request fails with
   * ResponseTooLargeError and the rest is not read. Default {@link DEFAULT_MAX_RESPONSE_BYTES}.
   * (An SSE stream is bounded per event instead: SseParserStream's 16 Mi characters.)
   */
  maxResponseBytes?: number;
}

/** The default cap on a JSON response body: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The cap on an error response's body, kept only to be shown in HttpError: 64 KiB. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** One request to make. */
export interface FetchCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  /** The request's own headers (a record's names lowercase); they win over the caller's. */
  headers?: Headers | HeaderRecord;
  body?: string;
  signal?: AbortLike;
  /** The JSON-RPC method carried, for error messages. */
  rpcMethod?: string;
}

/** What a failed response's body said. */
export interface ErrorBody {
  text: string;
  /** The body as a JSON-RPC error response, when it is one (with or without an id). */
  response?: JsonRpcErrorResponse;
}

/**
 * Makes the requests of one channel (they may run concurrently). `close` releases the connections
 * it holds (Node's pool); a request made after it opens new ones.
 */
export class Fetcher {
  readonly #requester: Requester;
  readonly #authorization: HttpAuthorization | undefined;
  readonly #headers: HeadersInput;
  /** `requestInit`'s headers and signal (the rest is fetch's: FetchRequester's). */
  readonly #init: { headers: HeadersInput; signal: AbortSignal | null | undefined };
  /** See FetcherOptions.maxResponseBytes. */
  readonly maxResponseBytes: number;

  constructor(options: FetcherOptions = {}) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const { headers, signal, ...fetchOptions } = options.requestInit ?? {};
    this.#headers = options.headers;
    this.#authorization = options.authorization;
    this.#init = { headers, signal };
    const isFetchOnly = Object.keys(fetchOptions).length > 0;
    this.#requester =
      options.fetch !== undefined || isFetchOnly
        ? new FetchRequester(options.fetch ?? ((request) => fetch(request)), fetchOptions)
        : createDefaultRequester();
  }

  /** Sends one request; rejects with FetchFailedError when no response arrives (but rethrows an abort). */
  async send(call: FetchCall): Promise<HttpAnswer> {
    const headers = this.#headersOf(call);
    const exchange: HttpExchange = { method: call.method, url: call.url, headers, redirect: 'manual' };
    if (call.body !== undefined) exchange.body = call.body;
    const own = this.#init.signal ?? undefined;
    const signal =
      own === undefined || call.signal === undefined
        ? (own ?? call.signal)
        : AbortSignal.any([own, toAbortSignal(call.signal)]);
    if (signal !== undefined) exchange.signal = signal;
    const response = await this.#follow(call, exchange);
    return exchange.signal === undefined ? response : releasedOnAbort(response, exchange.signal);
  }

  /**
   * The headers of one request, lowercase: `requestInit`'s, the transport's, then the call's own.
   * The caller's are read at every request: a caller may change its Headers object (a rotated token).
   */
  #headersOf(call: FetchCall): HeaderRecord {
    const headers: HeaderRecord = {};
    const add = (value: string, name: string): void => void (headers[name] = value);
    if (this.#init.headers !== undefined) new Headers(this.#init.headers).forEach(add);
    if (this.#headers !== undefined) new Headers(this.#headers).forEach(add);
    const own = call.headers;
    if (own instanceof Headers) own.forEach(add);
    else if (own !== undefined) for (const name in own) headers[name.toLowerCase()] = own[name]!;
    return headers;
  }

  /** Releases the connections the requests held; idempotent. */
  close(): void {
    this.#requester.close();
  }

  /**
   * Makes the request with `redirect: 'manual'` and follows redirects within the origin itself (303,
   * and 301/302 after a POST, become a GET without body, as fetch does); a redirect to another
   * origin throws CrossOriginRedirectError, unread by that origin. A browser hides a manual
   * redirect's target (`opaqueredirect`): a GET is made again with the browser's own redirect
   * handling, whose CORS checks guard the other origin; a POST is not, for its body would go to a
   * target nobody can check (and the server would receive it twice).
   */
  async #follow(call: FetchCall, exchange: HttpExchange): Promise<HttpAnswer> {
    let step = exchange;
    for (let hop = 0; ; hop++) {
      const { url } = step;
      const response = await this.#fetchOnce(call, step);
      if (response.type === 'opaqueredirect') {
        if (step.method === 'POST')
          throw new CrossOriginRedirectError(call.method, url.href, OPAQUE_LOCATION);
        return this.#fetchOnce(call, { ...step, redirect: 'follow' });
      }
      const location = response.headers.get('location');
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
      discardBody(response);
      const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (next === undefined || next.origin !== url.origin)
        throw new CrossOriginRedirectError(call.method, url.href, next?.href ?? location);
      if (hop === MAX_REDIRECTS)
        throw new FetchFailedError(call.method, url.href, new Error(`more than ${MAX_REDIRECTS} redirects`));
      if (
        response.status === 303 ||
        (step.method === 'POST' && response.status !== 307 && response.status !== 308)
      ) {
        const { body: _body, ...rest } = step;
        step = { ...rest, method: 'GET' };
      }
      step = { ...step, url: next };
    }
  }

  async #fetchOnce(call: FetchCall, exchange: HttpExchange): Promise<HttpAnswer> {
    const authorization = this.#authorization;
    try {
      if (authorization === undefined) return await this.#requester.request(exchange);
      // The authorization speaks web Headers and Response (mcpwire/auth's contract).
      const asked = { method: exchange.method, url: exchange.url, headers: new Headers(exchange.headers) };
      return await authorization.send(asked, async (headers) => {
        const sent: HeaderRecord = {};
        headers.forEach((value, name) => (sent[name] = value));
        return toResponse(await this.#requester.request({ ...exchange, headers: sent }));
      });
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new FetchFailedError(call.method, exchange.url.href, error);
    }
  }

  /** Reads a failed response (unless its `body` was read already) and describes it as an HttpError. */
  async toHttpError(
    response: HttpAnswer,
    call: FetchCall,
    body?: ErrorBody,
    cause?: unknown,
  ): Promise<HttpError> {
    const read = body ?? (await readErrorBody(response));
    return new HttpError({
      requestMethod: call.method,
      url: call.url.href,
      status: response.status,
      statusText: response.statusText,
      ...(call.rpcMethod === undefined ? {} : { method: call.rpcMethod }),
      body: read.text,
      headers: toHeaders(response.headers),
      ...(read.response === undefined ? {} : { error: read.response.error }),
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/** Reads a (failed) response's body; never throws (an unreadable body reads as empty). */
export async function readErrorBody(response: HttpAnswer): Promise<ErrorBody> {
  let read: CappedText;
  try {
    read = await readCapped(response, MAX_ERROR_BODY_BYTES);
  } catch {
    return { text: '' };
  }
  if (read.isCut) return { text: `${read.text}\n[cut at the ${MAX_ERROR_BODY_BYTES} bytes cap]` };
  const { text } = read;
  const error = parseErrorResponse(text);
  return error === undefined ? { text } : { text, response: error };
}

/**
 * Reads `response`'s body as UTF-8 up to `cap` bytes. Past the cap (or when Content-Length says it
 * will be) the body is cancelled at once: the rest is neither read nor buffered.
 */
export async function readCapped(response: HttpAnswer, cap: number): Promise<CappedText> {
  if (response.readText !== undefined) return response.readText(cap);
  const { body } = response;
  if (body === null) return { text: '', isCut: false };
  if (Number(response.headers.get('content-length') ?? 0) > cap) {
    await body.cancel().catch(() => {});
    return { text: '', isCut: true };
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), isCut: false };
    if (size + value.length > cap) {
      await reader.cancel().catch(() => {});
      return { text: text + decoder.decode(value.subarray(0, cap - size)), isCut: true };
    }
    size += value.length;
    text += decoder.decode(value, { stream: true });
  }
}

function parseErrorResponse(text: string): JsonRpcErrorResponse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as { jsonrpc?: unknown; error?: unknown };
  const error = record.error as Partial<JsonRpcErrorObject> | undefined;
  if (record.jsonrpc !== '2.0' || typeof error !== 'object' || error === null) return undefined;
  if (!Number.isInteger(error.code) || typeof error.message !== 'string') return undefined;
  return value as JsonRpcErrorResponse;
}

/** The media type of a response, lowercased, without parameters. */
export function mediaTypeOf(response: HttpAnswer): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Drops a body nobody will read, so the connection can be reused. */
export function discardBody(response: HttpAnswer): void {
  if (response.discard !== undefined) response.discard();
  else response.body?.cancel().catch(() => {});
}

/** `headers` as a web Headers (for HttpError): the same object when it is one. */
function toHeaders(headers: AnswerHeaders): Headers {
  if (headers instanceof Headers) return headers;
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, value));
  return copy;
}

/**
 * `answer` as a web Response (for an HttpAuthorization): the same object when it is one. A status
 * phrase a Response refuses is dropped.
 */
function toResponse(answer: HttpAnswer): Response {
  if (answer instanceof Response) return answer;
  const init = { status: answer.status, headers: toHeaders(answer.headers) };
  try {
    return new Response(answer.body, { ...init, statusText: answer.statusText });
  } catch {
    return new Response(answer.body, init);
  }
}

/**
 * An SSE response whose body is cancelled when `signal` aborts. The Request's own signal cannot be
 * relied on for that: Node 20's fetch follows it through weakly held copies of the Request, and once
 * the headers are in and those copies are collected, an abort no longer reaches the connection (a
 * stream the client closed stayed open, and kept the process alive). Other bodies are read at once.
 */
function releasedOnAbort(response: HttpAnswer, signal: AbortLike): HttpAnswer {
  // The type first: Node's answer makes a web stream only when `body` is read.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const { body } = response;
  if (body === null) return response;
  const reader = body.getReader();
  const release = (): void => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) release();
  else signal.addEventListener('abort', release, { once: true });
  const released = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          signal.removeEventListener('abort', release);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        signal.removeEventListener('abort', release);
        controller.error(signal.aborted ? signal.reason : error);
      }
    },
    cancel(reason) {
      signal.removeEventListener('abort', release);
      return reader.cancel(reason);
    },
  });
  const { status, statusText, ok, type, headers } = response;
  return { status, statusText, ok, type, headers, body: released };
}
