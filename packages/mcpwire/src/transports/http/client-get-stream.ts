// The GET side of a handshake-era Streamable HTTP session (2025-11-25 section 2.8.3): the server's
// own stream (HTTP-17/18), resuming a broken stream with Last-Event-ID (HTTP-23), and expiry (HTTP-31).

import { SESSION_ID_HEADER, type HttpClientSession } from './client-session.ts';
import { HttpError, SessionExpiredError } from './http-errors.ts';
import { discardBody, mediaTypeOf, type FetchCall, type Fetcher, type HttpAnswer } from './http-fetcher.ts';
import { McpHeader } from './mcp-headers.ts';
import { followStream, isRefusal, type ReconnectionOptions, type StreamPlan } from './response-stream.ts';

/** What the GET streams need from their channel. */
export interface GetStreamsOptions {
  url: URL;
  fetcher: Fetcher;
  reconnection: ReconnectionOptions;
  /** The standalone stream given up. Must not throw. */
  onError(error: Error): void;
  /** The session whose id and version every GET names; reset when the server has forgotten it. */
  session: HttpClientSession;
  /** Hands one SSE event's data to the channel. */
  deliver(data: string): void;
}

/**
 * The GET requests of one channel's handshake-era session. At most one standalone stream is open
 * at a time; `endSession` and `close` abort it. Resumption GETs belong to the stream they resume:
 * its signal aborts them.
 */
export class GetStreams {
  readonly #options: GetStreamsOptions;
  #standalone: AbortController | undefined;

  constructor(options: GetStreamsOptions) {
    this.#options = options;
  }

  /** GET with `Last-Event-ID` (HTTP-23), or a fresh GET stream when `lastEventId` is empty. */
  async resume(lastEventId: string, signal: AbortSignal): Promise<HttpAnswer> {
    const { session } = this.#options;
    const headers = session.headers();
    headers.accept = 'text/event-stream';
    if (lastEventId !== '') headers[McpHeader.lastEventId.toLowerCase()] = lastEventId;
    const call: FetchCall = { method: 'GET', url: this.#options.url, headers, signal };
    const response = await this.#options.fetcher.send(call);
    if (response.ok && mediaTypeOf(response) === 'text/event-stream') return response;
    const sentSession = headers[SESSION_ID_HEADER];
    if (response.status === 404 && sentSession !== undefined) {
      discardBody(response);
      if (session.id === sentSession) this.endSession();
      throw new SessionExpiredError(sentSession);
    }
    throw await this.#options.fetcher.toHttpError(response, call);
  }

  /**
   * HTTP-17: opens the server's own stream, once initialized, unless one is open; a 405 means it
   * offers none (HTTP-18). A failed opening is retried like a dropped stream; what is given up goes
   * to `onError`.
   */
  openStandalone(): void {
    if (this.#standalone !== undefined) return;
    const controller = new AbortController();
    this.#standalone = controller;
    const plan: StreamPlan = {
      name: 'the GET stream',
      canResume: true,
      isStandalone: true,
      signal: controller.signal,
      reconnection: this.#options.reconnection,
      deliver: (data) => this.#options.deliver(data),
      isOwed: () => false,
      resume: (lastEventId, signal) => this.resume(lastEventId, signal),
    };
    // A first GET that fails before its headers (network error, 5xx) is retried like a dropped
    // stream, with the same backoff and attempt limit; a refusal (405: no stream offered) is final.
    this.resume('', controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.aborted || isRefusal(error)) throw error;
        return undefined;
      })
      .then((response) => followStream(response, plan))
      .catch((error: Error) => {
        if (controller.signal.aborted || (error instanceof HttpError && error.status === 405)) return;
        this.#options.onError(error);
      })
      .finally(() => {
        if (this.#standalone === controller) this.#standalone = undefined;
      });
  }

  /** Forgets the session (a new initialize, or the server ended it) and stops its standalone stream. */
  endSession(): void {
    this.#options.session.reset();
    this.#standalone?.abort();
    this.#standalone = undefined;
  }

  /** Stops the standalone stream: the channel is closing. */
  close(): void {
    this.#standalone?.abort();
  }
}
