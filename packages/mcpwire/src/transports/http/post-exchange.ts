// One handshake-era POST that carries requests (HTTP-8, HTTP-12..14): its responses go back as one
// JSON body when they come first (and, with sseAfterMs, in time), else on a resumable SSE stream that
// also carries the messages related to those requests (progress, logs, server-to-client requests)
// and ends after the last response.

import type { JsonRpcRequest, JsonRpcResponse, Message, RequestId } from '../../jsonrpc/message.ts';
import { isRequest, isResponse } from '../../jsonrpc/message.ts';
import { emptyReply, type HttpReply } from './exchange.ts';
import { jsonReply, jsonTextReply } from './json-response.ts';
import { SSE_HEADERS, SseConnection } from './sse-writer.ts';

/** Which bodies the client's Accept header allows. */
export interface Accepts {
  // Read-only: endpoint.ts shares one parse between POSTs that send the same Accept header.
  readonly json: boolean;
  readonly sse: boolean;
}

/** The stream a POST's SSE answer carries: resumable in a session (sse-stream.ts), else live only. */
export interface PostStream {
  /** Attaches the connection, starting with a priming event (id, empty data) when asked (HTTP-9). */
  open(connection: SseConnection, priming: { retryMs: number } | undefined): void;
  send(message: Message | readonly Message[]): Promise<void>;
  /** Closes the connection without ending the stream: the client will poll (HTTP-10). */
  detach(): void;
  /**
   * Ends the stream after what was sent; `isAnswered` false when the session closed here before
   * every request was answered (a lease on them is then given up at once). Default true.
   */
  finish(isAnswered?: boolean): void;
}

/** How a POST exchange opens its stream and shapes its responses. */
export interface PostExchangeOptions {
  accepts: Accepts;
  /** A 2025-03-26 batch: a JSON answer is an array. */
  isBatch: boolean;
  /** Extra response headers (the session id). */
  headers: Record<string, string>;
  keepAliveMs: number;
  /** The SSE connection's bound on events a client leaves unread. */
  maxSseBufferBytes: number;
  /** Opens the stream of the POST's requests (in a session, registered for resumption). */
  streams: { openPostStream(ids: readonly RequestId[]): PostStream };
  /** The priming event's retry, or undefined for revisions before 2025-11-25 (no priming). */
  priming: { retryMs: number } | undefined;
  /** Close the SSE connection (not the stream) this long after the POST: the client polls (HTTP-10). */
  closeAfterMs: number | undefined;
  /** Switch to SSE (primed, resumable) when the responses have not all come this long after the POST; 0: at once. */
  sseAfterMs?: number | undefined;
}

/** The state of one POST of requests. `response` settles once: JSON, or the start of an SSE stream. */
export class PostExchange {
  readonly response: Promise<HttpReply>;
  #options: PostExchangeOptions;
  #requests: readonly JsonRpcRequest[];
  /** The ids still without a response: a POST usually carries one request, whose id is kept bare. */
  #waiting: Set<RequestId> | RequestId | undefined;
  /** Responses held for a JSON answer (a batch's, or one that came before the switch to SSE). */
  #collected: JsonRpcResponse[] | undefined;
  /** The JSON text of the one response of a single-request POST, when its sender gave it. */
  #collectedText: string | undefined;
  #stream: PostStream | undefined;
  #state: 'pending' | 'streaming' | 'done' = 'pending';
  #resolve!: (response: HttpReply) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sseTimer: ReturnType<typeof setTimeout> | undefined;

  /** `requests`: the POST's requests (at least one), answered in the order their responses come. */
  constructor(requests: readonly JsonRpcRequest[], options: PostExchangeOptions) {
    // sseAfterMs 0: answered as if the client accepted SSE only (it accepts it, and JSON besides).
    this.#options =
      options.sseAfterMs === 0 && options.accepts.sse
        ? { ...options, accepts: { json: false, sse: true } }
        : options;
    this.#requests = requests;
    this.#waiting = requests.length === 1 ? requests[0]!.id : new Set(requests.map(({ id }) => id));
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    if (options.closeAfterMs !== undefined && options.accepts.sse) {
      this.#timer = setTimeout(() => this.poll(), options.closeAfterMs);
    }
    // A slow answer gets its stream early, so a client whose connection drops can resume the call
    // (a client that accepts SSE only is on SSE from the first message anyway).
    const { accepts, sseAfterMs } = this.#options;
    if (sseAfterMs !== undefined && accepts.sse && accepts.json) {
      this.#sseTimer = setTimeout(() => {
        if (this.#state === 'pending') this.#startStream();
      }, sseAfterMs);
    }
  }

  /** True once every request of the POST has its response. */
  get isDone(): boolean {
    return this.#state === 'done';
  }

  /**
   * Takes one message related to this POST. Rejects for a server-to-client request the client cannot
   * receive (it accepts JSON only, or the exchange is over), so the caller fails fast. `text`: the
   * message's JSON text as its sender received it (SendOptions.text), the body of a JSON answer; only
   * a response's is used, and the session never rewrites a response's id (wire-ids.ts: requests only).
   */
  handle(message: Message | readonly Message[], text?: string): Promise<void> {
    // The usual message, one response, takes no array.
    if (!Array.isArray(message) && isResponse(message as Message))
      return this.#handleResponses(message as JsonRpcResponse, [message as JsonRpcResponse], text);
    const messages: readonly Message[] = Array.isArray(message) ? message : [message as Message];
    return this.#handleResponses(message, messages.filter(isResponse), undefined, messages);
  }

  /** `responses`: those of `message`; `messages`: all of it, when it is more than one response. */
  #handleResponses(
    message: Message | readonly Message[],
    responses: readonly JsonRpcResponse[],
    text: string | undefined,
    messages?: readonly Message[],
  ): Promise<void> {
    const isAllResponses = messages === undefined || responses.length === messages.length;
    if (
      this.#state === 'done' ||
      (this.#state === 'pending' && responses.length === 0 && !this.#options.accepts.sse)
    ) {
      const request = messages?.find(isRequest);
      // A notification nobody can receive is dropped; a request would wait forever.
      return request
        ? Promise.reject(new Error(`No stream to send "${request.method}" on`))
        : Promise.resolve();
    }
    for (const response of responses) if (response.id !== undefined) this.#answered(response.id);
    const isComplete = this.#waiting === undefined;
    if (this.#state === 'pending' && isAllResponses && this.#options.accepts.json) {
      if (this.#collected === undefined && isComplete && !this.#options.isBatch && responses.length === 1) {
        this.#answerJson(responses[0]!, text);
        return Promise.resolve();
      }
      (this.#collected ??= []).push(...responses);
      if (!Array.isArray(message)) this.#collectedText = text;
      if (isComplete) this.#answerJson(undefined, this.#collectedText);
      return Promise.resolve();
    }
    if (this.#state === 'pending') this.#startStream();
    const sent = this.#stream?.send(message) ?? Promise.resolve();
    if (isComplete) this.#end();
    return sent;
  }

  /** The request `id` has its response. */
  #answered(id: RequestId): void {
    const waiting = this.#waiting;
    if (waiting instanceof Set) {
      waiting.delete(id);
      if (waiting.size === 0) this.#waiting = undefined;
    } else if (waiting === id) this.#waiting = undefined;
  }

  /**
   * Closes this POST's SSE connection without ending its stream (HTTP-10): a POST not yet answered
   * first switches to SSE, so the client gets the priming event to resume from. The client polls
   * with GET and Last-Event-ID for the rest, response included. Returns false, doing nothing, when
   * the client could not resume: no priming (revisions before 2025-11-25), JSON-only Accept, or the
   * exchange is over. Idempotent.
   */
  poll(): boolean {
    if (this.#options.priming === undefined || !this.#options.accepts.sse || this.#state === 'done')
      return false;
    if (this.#state === 'pending') this.#startStream();
    this.#stream?.detach();
    return true;
  }

  /** The session ended: a pending POST gets 404, an open stream ends. */
  abort(): void {
    if (this.#state === 'pending') this.#resolve(emptyReply(404));
    this.#end(this.#waiting === undefined);
  }

  /** Answers with `single`, the POST's one response, or else with those collected. */
  #answerJson(single: JsonRpcResponse | undefined, text: string | undefined): void {
    const { headers, isBatch } = this.#options;
    const body = single ?? (isBatch ? this.#collected : this.#collected?.[0]);
    if (!isBatch && text !== undefined) this.#resolve(jsonTextReply(text, 200, headers));
    else if (body !== undefined) this.#resolve(jsonReply(body, 200, headers));
    this.#end();
  }

  #startStream(): void {
    const { keepAliveMs, maxSseBufferBytes } = this.#options;
    const connection = new SseConnection({ keepAliveMs, maxBufferedBytes: maxSseBufferBytes });
    const stream = this.#options.streams.openPostStream(this.#requests.map(({ id }) => id));
    stream.open(connection, this.#options.priming);
    this.#stream = stream;
    this.#state = 'streaming';
    this.#resolve({
      status: 200,
      headers: { ...SSE_HEADERS, ...this.#options.headers },
      body: connection.body,
    });
    // Responses that came before the switch (a partial batch) go first.
    const collected = this.#collected;
    this.#collected = undefined;
    if (collected !== undefined && collected.length > 0) void stream.send(collected);
  }

  #end(isAnswered = true): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#sseTimer);
    if (this.#state === 'streaming') this.#stream?.finish(isAnswered);
    this.#state = 'done';
  }
}
