// The client side of the deprecated HTTP+SSE transport of 2024-11-05 (COMPAT-3): one GET event
// stream carries every server message, and every client message is POSTed to the URI its `endpoint`
// event names.

import { decodeFrame, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { Message } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver, Transport } from '../channel.ts';
import { Inbox } from '../inbox.ts';
import { discardBody, Fetcher, mediaTypeOf, type FetcherOptions, type HttpAnswer } from './http-fetcher.ts';
import { decodeSse, type ServerSentEvent } from './sse-parser.ts';

/** How long a connection waits for the `endpoint` event after the stream opened, in ms. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

/** What a LegacySseConnection needs from its owner. */
export interface LegacySseConnectionOptions {
  fetcher: Fetcher;
  url: URL;
  /** Receives every message event, decoded, in order. */
  deliver(frame: Frame): void;
  /** The stream ended or failed after `start` resolved; called at most once, never after `close`. */
  handleEnd(error: ConnectionClosedError): void;
  endpointTimeoutMs?: number;
}

/**
 * One 2024-11-05 connection. `start` opens the event stream and resolves once the `endpoint` event
 * arrived (it must be on the stream's origin, a guard against being redirected elsewhere), or
 * rejects (HttpError for a refused GET, ConnectionClosedError otherwise). `send` POSTs one message
 * and resolves when the server accepted it (any 2xx); its answer arrives on the stream.
 */
export class LegacySseConnection {
  readonly #options: LegacySseConnectionOptions;
  readonly #controller = new AbortController();
  #endpoint: URL | undefined;

  constructor(options: LegacySseConnectionOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    const { fetcher, url } = this.#options;
    const call = {
      method: 'GET' as const,
      url,
      headers: new Headers({ Accept: 'text/event-stream' }),
      signal: this.#controller.signal,
    };
    const response = await fetcher.send(call);
    if (!response.ok) throw await fetcher.toHttpError(response, call);
    if (mediaTypeOf(response) !== 'text/event-stream' || response.body === null) {
      discardBody(response);
      throw new ConnectionClosedError(`GET ${url.href} did not answer with an event stream`);
    }
    const reader = decodeSse(response.body).getReader();
    const timeoutMs = this.#options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    let isTimedOut = false;
    const timer = setTimeout(() => {
      isTimedOut = true;
      this.#controller.abort();
    }, timeoutMs);
    try {
      this.#endpoint = await this.#readEndpoint(reader);
    } catch (error) {
      this.#controller.abort();
      if (error instanceof ConnectionClosedError) throw error;
      const reason = isTimedOut
        ? `no endpoint event within ${timeoutMs} ms`
        : 'it failed before its endpoint event';
      throw new ConnectionClosedError(`The SSE stream of ${url.href}: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    void this.#pump(reader);
  }

  /** POSTs one message to the endpoint; rejects with HttpError for a non-2xx answer. */
  async send(message: Message | readonly Message[]): Promise<void> {
    const endpoint = this.#endpoint;
    if (endpoint === undefined || this.#controller.signal.aborted)
      throw new ConnectionClosedError('The SSE connection is closed');
    const call = {
      method: 'POST' as const,
      url: endpoint,
      headers: new Headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(message),
      signal: this.#controller.signal,
      ...('method' in message ? { rpcMethod: message.method } : {}),
    };
    let response: HttpAnswer;
    try {
      response = await this.#options.fetcher.send(call);
    } catch (error) {
      if (!this.#controller.signal.aborted) throw error;
      throw new ConnectionClosedError('The SSE connection closed while posting', { cause: error });
    }
    if (!response.ok) throw await this.#options.fetcher.toHttpError(response, call);
    discardBody(response);
  }

  /** Aborts the stream and any request in flight. Idempotent. */
  close(): void {
    this.#controller.abort();
  }

  async #readEndpoint(reader: ReadableStreamDefaultReader<ServerSentEvent>): Promise<URL> {
    const { url } = this.#options;
    for (;;) {
      const { value, done } = await reader.read();
      if (done)
        throw new ConnectionClosedError(`The SSE stream of ${url.href} ended before its endpoint event`);
      if (value.type === 'message') {
        if (value.data !== '') this.#options.deliver(decodeFrame(value.data));
        continue;
      }
      if (value.type !== 'endpoint') continue;
      const endpoint = new URL(value.data, url);
      if (endpoint.origin !== url.origin)
        throw new ConnectionClosedError(
          `The SSE endpoint ${endpoint.href} is not on the origin of ${url.href}; refusing to post there`,
        );
      return endpoint;
    }
  }

  async #pump(reader: ReadableStreamDefaultReader<ServerSentEvent>): Promise<void> {
    let error: ConnectionClosedError;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value.type === 'message' && value.data !== '') this.#options.deliver(decodeFrame(value.data));
      }
      error = new ConnectionClosedError(`The server ended the SSE stream of ${this.#options.url.href}`);
    } catch (cause) {
      error = new ConnectionClosedError(`The SSE stream of ${this.#options.url.href} failed`, { cause });
    }
    if (this.#controller.signal.aborted) return;
    this.#controller.abort();
    this.#options.handleEnd(error);
  }
}

/** A channel over one 2024-11-05 connection. Closing it aborts the stream; the server sees the disconnect. */
class SseClientChannel implements Channel {
  readonly info: ChannelInfo = {};
  readonly #inbox: Inbox;
  readonly #connection: LegacySseConnection;
  readonly #fetcher: Fetcher;

  constructor(inbox: Inbox, connection: LegacySseConnection, fetcher: Fetcher) {
    this.#inbox = inbox;
    this.#connection = connection;
    this.#fetcher = fetcher;
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) return Promise.reject(new ConnectionClosedError('The SSE channel is closed'));
    return this.#connection.send(message);
  }

  close(): Promise<void> {
    this.#connection.close();
    this.#fetcher.close();
    this.#inbox.close();
    return Promise.resolve();
  }
}

/** Options of {@link SseClientTransport}. */
export interface SseClientTransportOptions extends FetcherOptions {
  /** How long to wait for the `endpoint` event, in ms; default 10000. */
  endpointTimeoutMs?: number;
}

/**
 * Connects to a server that speaks only the deprecated HTTP+SSE transport (2024-11-05). Each
 * `connect` opens a new event stream and resolves once the server named its POST endpoint.
 * StreamableHttpClientTransport falls back to this by itself (COMPAT-2); use this one to skip the try.
 */
export class SseClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: SseClientTransportOptions;

  /** Checks the URL (http or https, else TypeError); connects nothing yet. */
  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.#url = toHttpUrl(url);
    this.#options = options;
  }

  /** The server's identity for caches of per-server facts: `sse:` and the URL's origin and path. */
  get key(): string {
    return `sse:${this.#url.origin}${this.#url.pathname}`;
  }

  /** Opens a new stream, with connections of its own (closed with the channel). */
  async connect(): Promise<Channel> {
    const inbox = new Inbox();
    const fetcher = new Fetcher(this.#options);
    const connection = new LegacySseConnection({
      fetcher,
      url: this.#url,
      deliver: (frame) => inbox.deliver(frame),
      handleEnd: (error) => inbox.close(error),
      ...(this.#options.endpointTimeoutMs === undefined
        ? {}
        : { endpointTimeoutMs: this.#options.endpointTimeoutMs }),
    });
    try {
      await connection.start();
    } catch (error) {
      fetcher.close();
      throw error;
    }
    return new SseClientChannel(inbox, connection, fetcher);
  }
}

/** Parses a server URL; only http and https are accepted. */
export function toHttpUrl(url: string | URL): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TypeError(`Expected an http: or https: URL, got ${parsed.href}`);
  return parsed;
}
