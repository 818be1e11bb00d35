// The server handlers' runtime-neutral core works on an exchange, not on web Request/Response
// objects: a read-only view of the request and a plain reply. The web-standard handler wraps a Request
// in a view and turns the reply into a Response; the Node adapter builds the view straight from
// node:http's request and writes the reply to its response, so no Request, Headers, Response or web
// stream is made for a JSON exchange (they cost more than the MCP work itself).

import { readBody as readWebBody } from './read-body.ts';

/** Case-insensitive header lookup. `Headers` fits. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What a handler reads of one HTTP request. */
export interface HttpRequestView {
  readonly method: string;
  /** The path without query, e.g. `/mcp`. */
  readonly pathname: string;
  /** The query string's parameters. */
  readonly searchParams: URLSearchParams;
  /** The Host header, or the URL's host when the request has none (a Request made by hand). */
  readonly host: string;
  readonly headers: HeaderReader;
  /**
   * The peer's IP address where the runtime tells it (the Node adapter: the socket's address);
   * undefined for a web Request, which does not carry it.
   */
  readonly remoteAddress?: string | undefined;
  /** The body text, or `tooLarge` once it passes `limit` bytes (read no further). Call once. */
  readBody(limit: number): Promise<{ text: string } | { tooLarge: true }>;
  /**
   * Runs `listener` once if the client goes away before the response has ended (on a microtask when
   * it already has); returns a function that removes it. Cheaper than `signal` where only the event
   * matters.
   */
  onGone(listener: () => void): () => void;
  /** Aborts when the client goes away (made on first use). */
  readonly signal: AbortSignal;
  /**
   * The request as a web Request, for hooks typed on Request (`authenticate`): the original one, or,
   * from the Node adapter, one made on demand with the method, URL and headers but no body.
   */
  toRequest(): Request;
}

/** A response to write: a text body, none, or a byte stream (SSE). Header names as the spec spells them. */
export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | null;
}

/** A reply with no body. */
export function emptyReply(status: number, headers: Record<string, string> = {}): HttpReply {
  return { status, headers, body: null };
}

/**
 * The core of a handler: a reply, or undefined when the request is not for it (another may answer).
 * Synchronously when nothing had to wait (a refusal, a path that is not the handler's), else a
 * promise of either: a chain and the Node adapter then take the answer in the same turn.
 */
export type ExchangeHandler = (
  view: HttpRequestView,
) => HttpReply | undefined | Promise<HttpReply | undefined>;

/** The view of a web Request. */
export function viewOfRequest(request: Request): HttpRequestView {
  const url = new URL(request.url);
  return {
    method: request.method,
    pathname: url.pathname,
    searchParams: url.searchParams,
    host: request.headers.get('host') ?? url.host,
    headers: request.headers,
    readBody: (limit) => readWebBody(request, limit),
    onGone(listener) {
      const signal = request.signal;
      if (signal.aborted) {
        queueMicrotask(listener);
        return () => {};
      }
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    get signal() {
      return request.signal;
    },
    toRequest: () => request,
  };
}

/** The web Response of a reply. */
export function toResponse(reply: HttpReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** A handler `chainHandlers` can take: any mcpwire handler. */
export interface ChainableHandler {
  readonly exchange: ExchangeHandler;
  close?(): Promise<void>;
}

/** Handlers chained into one: fetch-style, with the chained core and a `close` for all of them. */
export interface ChainedHandler {
  (request: Request): Promise<Response>;
  readonly exchange: ExchangeHandler;
  close(): Promise<void>;
}

/**
 * One handler from several: the first that answers a request serves it (e.g. the deprecated
 * HTTP+SSE paths before the Streamable HTTP endpoint). The chained core declines (undefined) what
 * none of them serves, so a chain can sit in another; the fetch-style function answers that 404, as
 * the Node adapter does. A handler that declines synchronously is passed without a turn, and the
 * last one's answer is returned as it comes. `close` closes them all.
 */
export function chainHandlers(...handlers: readonly ChainableHandler[]): ChainedHandler {
  const from = (view: HttpRequestView, first: number): ReturnType<ExchangeHandler> => {
    for (let index = first; index < handlers.length; index++) {
      const pending = handlers[index]!.exchange(view);
      if (pending === undefined) continue;
      if (!(pending instanceof Promise) || index === handlers.length - 1) return pending;
      return pending.then((reply) => reply ?? from(view, index + 1));
    }
    return undefined;
  };
  const exchange = (view: HttpRequestView): ReturnType<ExchangeHandler> => from(view, 0);
  const fetch = async (request: Request): Promise<Response> =>
    toResponse((await exchange(viewOfRequest(request))) ?? emptyReply(404));
  const close = async (): Promise<void> => {
    await Promise.all(handlers.map((handler) => handler.close?.() ?? Promise.resolve()));
  };
  return Object.assign(fetch, { exchange, close });
}
