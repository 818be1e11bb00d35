// The seam beneath the Fetcher: one HTTP exchange (no redirects followed, no headers added, no
// errors mapped), answered as a web Response. On Node a keep-alive socket pool (./node-requester.ts);
// elsewhere, and whenever the caller passes a fetch, that fetch.

/** A fetch function: the global `fetch`, or anything of its shape (a test double, an auth wrapper). */
export type FetchLike = (request: Request) => Promise<Response>;

/** One HTTP exchange to make, exactly as given. */
export interface HttpExchange {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Headers;
  body?: string;
  signal?: AbortSignal;
  /**
   * `manual` always, except for a browser's second try at a GET whose redirect it hid
   * (`opaqueredirect`); a requester that sees every redirect never follows any.
   */
  redirect: 'manual' | 'follow';
}

/**
 * Makes one exchange at a time per call (any number concurrently). `request` resolves with the
 * status, headers and a body stream as soon as the headers are in, and rejects when no response
 * arrives (an abort of `signal` rejects with the signal's reason or an AbortError, and releases the
 * connection; so does cancelling the body). `close` releases idle connections; it is idempotent.
 */
export interface Requester {
  request(exchange: HttpExchange): Promise<Response>;
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
    if (signal !== undefined) init.signal = signal;
    return this.#fetch(new Request(url, init));
  }

  /** Nothing to release: fetch owns its connections. */
  close(): void {}
}
