// The hook a client transport authorizes its exchanges through (OAuth: mcpwire/auth's
// createOAuthAuthorization), beneath the Fetcher and above whichever Requester makes the exchange.

/**
 * Adds credentials to a client transport's exchanges and answers the server's refusals. `send` is
 * called once per exchange (each redirect within the origin is one); it makes the exchange by calling
 * `sendOnce` with the headers to send (the exchange's, plus its credentials), and may call it again
 * after a refusal (a new token), the same method, URL and body sent each time. It resolves with the
 * response to use (every other response's body consumed or cancelled), or rejects (then the request
 * fails with FetchFailedError, the rejection its cause). It owns the rule of which origins get
 * credentials: the transport calls it for every exchange.
 */
export interface HttpAuthorization {
  send(
    exchange: { method: string; url: URL; headers: Headers },
    sendOnce: (headers: Headers) => Promise<Response>,
  ): Promise<Response>;
}
