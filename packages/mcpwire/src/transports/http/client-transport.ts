// The client side of Streamable HTTP: a Transport whose channels speak to one MCP endpoint URL in
// either era, falling back to the deprecated HTTP+SSE transport for servers that predate it.

import type { Transport } from '../channel.ts';
import { StreamableHttpClientChannel } from './client-channel.ts';
import { Fetcher, type FetcherOptions } from './http-fetcher.ts';
import { toHttpUrl } from './legacy-sse-client.ts';
import { DEFAULT_RECONNECTION, type ReconnectionOptions } from './response-stream.ts';

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions extends FetcherOptions {
  /**
   * How broken SSE streams are resumed, and how often an answer to a server request is re-posted
   * after a network failure (handshake era only); each field defaults separately.
   */
  reconnection?: Partial<ReconnectionOptions>;
  /**
   * Out-of-band problems that fail no call: a tool dropped from `tools/list` for an invalid
   * `x-mcp-header` (InvalidToolHeaderError, S26-HDR-3), a server GET stream given up. Default:
   * `console.warn` of the message. Must not throw.
   */
  onError?: (error: Error) => void;
}

/**
 * Connects to an MCP endpoint over Streamable HTTP (2025-11-25 section 2.8, 2026-07-28 section 2.7).
 * `connect` makes no request: it resolves at once with a new channel, and the first message sent
 * reaches the server. Each channel learns its era from the messages it carries (see
 * StreamableHttpClientChannel) and falls back to HTTP+SSE when its first handshake `initialize`
 * is refused with 400/404/405 and no stateless-era error (COMPAT-2).
 */
export class StreamableHttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: FetcherOptions;
  readonly #reconnection: ReconnectionOptions;
  readonly #onError: (error: Error) => void;

  /** Checks the URL (http or https, else TypeError) and the reconnection limits (else RangeError). */
  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = toHttpUrl(url);
    this.#options = options;
    this.#reconnection = { ...DEFAULT_RECONNECTION, ...options.reconnection };
    for (const [name, value] of Object.entries(this.#reconnection)) {
      if (!(Number.isFinite(value) && value >= 0))
        throw new RangeError(`reconnection.${name} must be a non-negative number, got ${value}`);
    }
    this.#onError = options.onError ?? ((error) => console.warn(error.message));
  }

  /** The endpoint's identity for caches of per-server facts: `http:` and the URL's origin and path. */
  get key(): string {
    return `http:${this.#url.origin}${this.#url.pathname}`;
  }

  /**
   * A new channel to the endpoint; nothing is sent until its first message. Each channel has its
   * own connections (on Node, a keep-alive pool), closed when the channel closes.
   */
  connect(): Promise<StreamableHttpClientChannel> {
    return Promise.resolve(
      new StreamableHttpClientChannel({
        url: this.#url,
        fetcher: new Fetcher(this.#options),
        reconnection: this.#reconnection,
        onError: this.#onError,
      }),
    );
  }
}
