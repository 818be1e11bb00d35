// The POST path of the Streamable HTTP client (2025-11-25 section 2.8.1, 2026-07-28 section 2.7): one
// POST per message or batch, its answer read as JSON, as an SSE stream, or as a refusal.

import { decodeFrame, encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import {
  isRequest,
  isResponse,
  type JsonRpcErrorResponse,
  type Message,
  type RequestId,
} from '../../jsonrpc/message.ts';
import type { GetStreams } from './client-get-stream.ts';
import { SESSION_ID_HEADER, type HttpClientSession } from './client-session.ts';
import {
  AnswerUndeliveredError,
  describeNetworkError,
  FetchFailedError,
  ResponseStreamLostError,
  ResponseTooLargeError,
  SessionExpiredError,
} from './http-errors.ts';
import {
  discardBody,
  mediaTypeOf,
  readCapped,
  readErrorBody,
  type ErrorBody,
  type FetchCall,
  type Fetcher,
  type HeaderRecord,
  type HttpAnswer,
} from './http-fetcher.ts';
import { ExchangeAbort } from './exchange-abort.ts';
import { isBatch, isStatelessErrorBody } from './http-messages.ts';
import type { PendingRequests } from './pending-requests.ts';
import {
  backoffDelay,
  followStream,
  sleep,
  type ReconnectionOptions,
  type StreamPlan,
} from './response-stream.ts';

/** The reason an exchange's controller is aborted with once the exchange is over (an AbortError). */
const EXCHANGE_OVER = new DOMException('The exchange is over', 'AbortError');

/** One POST and what its answer is expected to carry. */
export interface Exchange {
  body: Message | readonly Message[];
  /** Lowercase names (a HeaderRecord). */
  headers: HeaderRecord;
  rpcMethod?: string;
  /** Requests whose responses this POST's answer carries. */
  ids: RequestId[];
  isStateless: boolean;
  controller: ExchangeAbort;
  /** The first handshake `initialize`: a 400/404/405 without a stateless-era error means HTTP+SSE (COMPAT-2). */
  mayFallBack: boolean;
  /** Set when a server request this exchange's stream carried could not be answered: the send fails with it. */
  failure?: AnswerUndeliveredError;
}

/** Creates the exchange for `body`, with a controller of its own. */
export function createExchange(
  body: Exchange['body'],
  options: { headers: HeaderRecord; ids: RequestId[]; isStateless?: boolean; mayFallBack?: boolean },
): Exchange {
  const controller = new ExchangeAbort();
  const rpcMethod = isBatch(body) ? undefined : 'method' in body ? body.method : undefined;
  const { headers, ids, isStateless = false, mayFallBack = false } = options;
  const exchange: Exchange = { body, headers, ids, isStateless, controller, mayFallBack };
  if (rpcMethod !== undefined) exchange.rpcMethod = rpcMethod;
  return exchange;
}

/** A refused POST, kept for the HTTP error a failed fall back throws. */
export interface Refusal {
  response: HttpAnswer;
  call: FetchCall;
  body: ErrorBody;
}

/** The JSON-RPC error to deliver for a 4xx whose body answers one of `ids` (not 401/403: authorization). */
export function errorResponseIn(
  status: number,
  failed: { body: ErrorBody; ids: RequestId[] },
): JsonRpcErrorResponse | undefined {
  const error = failed.body.response;
  if (status < 400 || status > 499 || status === 401 || status === 403) return undefined;
  if (error?.id === undefined || !failed.ids.includes(error.id)) return undefined;
  return error;
}

/** What the POST path needs from its channel. */
export interface PostSenderOptions {
  url: URL;
  fetcher: Fetcher;
  reconnection: ReconnectionOptions;
  /** A notification's response stream that failed. Must not throw. */
  onError(error: Error): void;
  /** The handshake-era session: learned from the initialize answer, ended by a 404. */
  session: HttpClientSession;
  streams: GetStreams;
  pending: PendingRequests;
  /** Every frame of every answer goes here. */
  receive(frame: Frame): void;
  isClosed(): boolean;
  /** COMPAT-2: switches the channel to HTTP+SSE and re-sends the exchange there. */
  fallBack(exchange: Exchange, refusal: Refusal): Promise<void>;
}

/**
 * Sends a channel's POSTs. `send` resolves once the answer is read (for a notification's SSE
 * answer: once it starts) and rejects as StreamableHttpClientChannel.send describes; a POST aborted
 * on purpose resolves, unless the channel closed first or a server request its stream carried could
 * not be answered (AnswerUndeliveredError). `abortAll` aborts every POST in flight.
 */
export class PostSender {
  readonly #options: PostSenderOptions;
  /** Controllers of every POST in flight. */
  readonly #live = new Set<{ abort(): void }>();
  /** Server requests not yet answered, by id: the exchange whose stream carried each. */
  readonly #carriers = new Map<RequestId, Exchange>();

  constructor(options: PostSenderOptions) {
    this.#options = options;
  }

  async send(exchange: Exchange): Promise<void> {
    const { controller } = exchange;
    const headers = {
      ...exchange.headers,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    const call: FetchCall = {
      method: 'POST',
      url: this.#options.url,
      headers,
      body: encodeMessage(exchange.body),
      signal: controller,
      ...(exchange.rpcMethod === undefined ? {} : { rpcMethod: exchange.rpcMethod }),
    };
    this.#live.add(controller);
    let wasAborted = false;
    /** The answer was read or dropped to its end: nothing of the exchange is left open. */
    let isOver = false;
    try {
      const response = await this.#options.fetcher.send(call);
      if (response.ok) isOver = await this.#handleAccepted(response, exchange);
      else await this.#handleRefused(response, exchange, call);
    } catch (error) {
      // Aborted on purpose: a cancellation (nothing to report) or close (below).
      if (!controller.aborted) throw error;
    } finally {
      this.#live.delete(controller);
      wasAborted = controller.aborted;
      // The exchange is over: release any stream still open for it (a POST stream or a resuming
      // GET the server holds open after the response, HTTP-14), so no socket outlives it. With a
      // reason made once: abort() alone builds a DOMException per call (11% of `load`'s CPU). Not
      // after a JSON answer read to its end: nothing is open, and an abort costs an event.
      if (!isOver) controller.abort(EXCHANGE_OVER);
      if (this.#carriers.size > 0) this.#dropCarrier(exchange);
    }
    if (exchange.failure !== undefined) throw exchange.failure;
    if (wasAborted && this.#options.isClosed())
      throw new ConnectionClosedError(
        `The HTTP channel closed before "${call.rpcMethod ?? 'a batch'}" was answered`,
      );
  }

  /**
   * Sends the client's answer to a server request (handshake era: a POST of its own). A network
   * failure is retried with the reconnection backoff, up to `maxAttempts` times: an answer that
   * arrives twice is harmless, as the server drops a response to an id it no longer awaits. When
   * it still fails, the request whose stream carried the server's request fails with
   * AnswerUndeliveredError (it would otherwise wait for nothing), and this rejects with the failure.
   */
  async sendAnswer(answer: Message, headers: () => HeaderRecord): Promise<void> {
    const id = isResponse(answer) ? answer.id : undefined;
    const { reconnection } = this.#options;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.send(createExchange(answer, { headers: headers(), ids: [] }));
        if (id !== undefined) this.#carriers.delete(id);
        return;
      } catch (error) {
        const canRetry = error instanceof FetchFailedError && attempt < reconnection.maxAttempts;
        if (!canRetry || !(await this.#pause(backoffDelay(attempt, reconnection)))) {
          if (id !== undefined) this.#failCarrier(id, error);
          throw error;
        }
      }
    }
  }

  abortAll(): void {
    for (const controller of this.#live) controller.abort();
  }

  /** Waits `ms`; false when the channel closed first (abortAll ends the wait). */
  async #pause(ms: number): Promise<boolean> {
    const controller = new AbortController();
    this.#live.add(controller);
    try {
      return (await sleep(ms, controller.signal)) && !this.#options.isClosed();
    } finally {
      this.#live.delete(controller);
    }
  }

  /** Hands one event's frame to the channel, noting which exchange carried a server request. */
  #deliver(data: string, exchange: Exchange): void {
    const frame = decodeFrame(data);
    if (frame.type === 'message' && isRequest(frame.message)) this.#carriers.set(frame.message.id, exchange);
    this.#options.receive(frame);
  }

  /** The answer to server request `id` is lost for good: its carrier fails rather than wait for ever. */
  #failCarrier(id: RequestId, cause: unknown): void {
    const carrier = this.#carriers.get(id);
    if (carrier === undefined) return;
    this.#carriers.delete(id);
    carrier.failure = new AnswerUndeliveredError(carrier.rpcMethod ?? 'a batch', id, cause);
    carrier.controller.abort(carrier.failure);
  }

  #dropCarrier(exchange: Exchange): void {
    for (const [id, carrier] of this.#carriers) if (carrier === exchange) this.#carriers.delete(id);
  }

  /** Reads a 2xx answer; true when its body was read or dropped to its end (not an SSE stream). */
  async #handleAccepted(response: HttpAnswer, exchange: Exchange): Promise<boolean> {
    if (exchange.rpcMethod === 'initialize' && !exchange.isStateless) this.#options.session.learn(response);
    const type = mediaTypeOf(response);
    if (type === 'text/event-stream') {
      const following = followStream(response, this.#plan(exchange));
      // Nothing is owed to a notification: its send resolves now, the stream is read on the side.
      if (exchange.ids.length > 0) await following;
      else following.catch((error: Error) => this.#options.onError(error));
      return false;
    }
    if (type === 'application/json') {
      const cap = this.#options.fetcher.maxResponseBytes;
      let text: string;
      try {
        const read = await readCapped(response, cap);
        if (read.isCut) throw new ResponseTooLargeError(exchange.rpcMethod ?? 'a batch', cap);
        text = read.text;
      } catch (error) {
        if (error instanceof ResponseTooLargeError) throw error;
        throw bodyLost(response, exchange, error);
      }
      if (text.trim() !== '') this.#options.receive(decodeFrame(text));
    } else {
      discardBody(response);
    }
    // 202 to a request: the response may still come on the GET stream.
    if (response.status !== 202 && this.#options.pending.isOwed(exchange.ids))
      throw new ResponseStreamLostError(
        exchange.rpcMethod ?? 'a batch',
        `the server answered ${response.status} ${type || 'with no body'} without the response`,
      );
    return true;
  }

  async #handleRefused(response: HttpAnswer, exchange: Exchange, call: FetchCall): Promise<void> {
    const sentSession = exchange.headers[SESSION_ID_HEADER];
    if (response.status === 404 && sentSession !== undefined) {
      discardBody(response);
      if (this.#options.session.id === sentSession) this.#options.streams.endSession();
      throw new SessionExpiredError(sentSession, exchange.rpcMethod);
    }
    const body = await readErrorBody(response);
    if (
      exchange.mayFallBack &&
      [400, 404, 405].includes(response.status) &&
      !isStatelessErrorBody(response.status, body.response?.error)
    )
      return this.#options.fallBack(exchange, { response, call, body });
    const error = errorResponseIn(response.status, { body, ids: exchange.ids });
    if (error !== undefined) return this.#options.receive({ type: 'message', message: error });
    throw await this.#options.fetcher.toHttpError(response, call, body);
  }

  #plan(exchange: Exchange): StreamPlan {
    return {
      name: exchange.rpcMethod ?? 'a batch',
      canResume: !exchange.isStateless,
      isStandalone: false,
      signal: exchange.controller.signal,
      reconnection: this.#options.reconnection,
      deliver: (data) => this.#deliver(data, exchange),
      isOwed: () => this.#options.pending.isOwed(exchange.ids),
      resume: (lastEventId, signal) => this.#options.streams.resume(lastEventId, signal),
    };
  }
}

/**
 * What a JSON answer whose body the network cut off (undici rejects with a bare `TypeError:
 * terminated`) becomes: a ResponseStreamLostError naming the method, as when an SSE response stream
 * breaks, for the server had the request. An abort stays itself (the caller's cancellation or close).
 */
function bodyLost(response: HttpAnswer, exchange: Exchange, error: unknown): unknown {
  if (exchange.controller.aborted) return error;
  const length = response.headers.get('content-length');
  const expected = length === null ? '' : ` of ${length} bytes`;
  return new ResponseStreamLostError(
    exchange.rpcMethod ?? 'a batch',
    `the connection closed in the middle of its JSON body${expected}: ${describeNetworkError(error)}`,
    { cause: error },
  );
}
