// The seam beneath the Fetcher: one HTTP exchange (no redirects followed, no headers added, no
// errors mapped), answered as an HttpAnswer: a web Response, or on Node (./node-requester.ts) a
// lighter record whose body becomes a web stream only when someone asks for one.

/** A fetch function: the global `fetch`, or anything of its shape (a test double, an auth wrapper). */
export type FetchLike = (request: Request) => Promise<Response>;

/** Request headers as sent: lowercase names, one value each, built per exchange by the Fetcher. */
export type HeaderRecord = Record<string, string>;

/**
 * What a requester reads of an abort signal; an AbortSignal is one, and so is the POST path's
 * ExchangeAbort (./exchange-abort.ts), which makes no AbortSignal unless asked.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** `signal` as an AbortSignal (for fetch, AbortSignal.any): itself when it is one. */
export function toAbortSignal(signal: AbortLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/** One HTTP exchange to make, exactly as given. */
export interface HttpExchange {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: HeaderRecord;
  body?: string;
  signal?: AbortLike;
  /**
   * `manual` always, except for a browser's second try at a GET whose redirect it hid
   * (`opaqueredirect`); a requester that sees every redirect never follows any.
   */
  redirect: 'manual' | 'follow';
}

/** A body read up to a cap: its text, and whether there was more (then cancelled, never read). */
export interface CappedText {
  text: string;
  isCut: boolean;
}

/** Response headers as the client reads them (a web Headers is one): `get` joins repeats with ", ". */
export interface AnswerHeaders {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * An HTTP response as the client reads it; a web Response is one. Its body is read once: through
 * `body`, or through `readText`/`discard` where the answer has them (Node's, which then never makes
 * a web stream).
 */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  /** `opaqueredirect` for a redirect a browser's fetch hid from a manual request. */
  readonly type: string;
  readonly headers: AnswerHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  /**
   * The body as UTF-8 up to `cap` bytes; past it (or when Content-Length says it will be) the rest
   * is dropped unread, the connection with it. Rejects when the connection closes mid-body.
   */
  readText?(cap: number): Promise<CappedText>;
  /** Drops the body unread (the connection is reused when the body had ended, else closed). */
  discard?(): void;
}

/**
 * Makes one exchange at a time per call (any number concurrently). `request` resolves with the
 * status, headers and body as soon as the headers are in, and rejects when no response arrives (an
 * abort of `signal` rejects with the signal's reason or an AbortError, and releases the connection;
 * so does an abort while the body is read, or cancelling the body). `close` releases idle
 * connections; it is idempotent.
 */
export interface Requester {
  request(exchange: HttpExchange): Promise<HttpAnswer>;
  close(): void;
}

/** A Requester over a fetch function: each exchange one `Request`, with `init`'s options under it. */
export class FetchRequester implements Requester {
  readonly #fetch: FetchLike;
  readonly #init: RequestInit;

  constructor(fetch: FetchLike, init: RequestInit = {}) {
    this.#fetch = fetch;
    this.#init = init;
  }

  request(exchange: HttpExchange): Promise<Response> {
    const { method, url, headers, body, signal, redirect } = exchange;
    const init: RequestInit = { ...this.#init, method, headers, redirect };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = toAbortSignal(signal);
    return this.#fetch(new Request(url, init));
  }

  /** Nothing to release: fetch owns its connections. */
  close(): void {}
}
