// The transport contract: a Channel carries JSON-RPC messages in both directions between two peers.

import type { Frame } from '../jsonrpc/codec.ts';
import type {
  JsonObject,
  JsonRpcRequest,
  JsonRpcResponse,
  Message,
  RequestId,
  SendOptions,
} from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';

/** What a channel delivers to the side that opened it. */
export interface ChannelReceiver {
  /** One decoded frame, in arrival order. Must not throw. */
  handleFrame(frame: Frame): void;
  /** The channel is closed (by either side, or by failure); called exactly once. */
  handleClose(error?: Error): void;
}

/**
 * One live connection to a peer. `open` starts delivery and is called once; frames that arrive
 * before it are buffered. `send` writes one message (or a batch, where the revision allows it)
 * and resolves once the transport has accepted it; it rejects with ConnectionClosedError after close.
 * `close` is idempotent and resolves when the connection is released.
 */
export interface Channel {
  open(receiver: ChannelReceiver): void;
  send(message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  /** Transport facts for the session (e.g. a session id over HTTP, the child's pid over stdio). */
  readonly info?: ChannelInfo;
}

/** Facts a transport may know about its connection. */
export interface ChannelInfo {
  readonly kind: 'memory' | 'stdio' | 'http' | 'sse';
  readonly sessionId?: string;
  readonly pid?: number;
  /**
   * Closes the connection that carries the messages related to `relatedRequestId` without ending
   * their stream, so the client resumes it later (Streamable HTTP polling, SEP-1699): a request
   * still waiting for its response gets a resumable stream, opened with a priming event if nothing
   * was sent for it yet. Returns false, doing nothing, where that cannot be resumed (revisions
   * before 2025-11-25, a client that accepts JSON only, a request already answered). Only
   * transports with resumable streams provide it; it lives here so wrappers that pass `info`
   * through keep it.
   */
  readonly closeStream?: (relatedRequestId: RequestId) => boolean;
  /**
   * Who sent the inbound request `requestId`, as the transport authenticated it (HTTP with an
   * `authenticate` hook or `auth` layer); undefined when unauthenticated. Asked while the request is
   * in flight; the server hands it to the request's handler as `ctx.auth`.
   */
  readonly principalOf?: (requestId: RequestId) => Principal | undefined;
}

/** Something that makes channels: `connect` resolves with an open-able channel, or rejects. */
export interface Transport {
  connect(): Promise<Channel>;
  /** A stable identity of the server configuration, for caches of per-server facts (the era verdict). */
  readonly key?: string;
}

/**
 * What a transport needs of a server: it serves channels (mcpwire's `Server` does). `close` lets a
 * transport release the server when its connection ends; `toolInputSchema` lets an HTTP transport
 * check `Mcp-Param-*` headers without a `tools/list` round.
 */
export interface ChannelServer {
  connect(channel: Channel): unknown;
  close?(): Promise<void>;
  toolInputSchema?(name: string): object | undefined;
}

/**
 * A server that serves each request on its own, in either era (`ServerCore` has only this; `Server`
 * has `connect` too): what a transport that keeps no session for a request calls, the stateless era
 * on HTTP and every POST of a handler without sessions. `via` is the request's scope and its way
 * back. Resolves with the response, an error response included; never rejects.
 */
export interface RequestServer {
  serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse>;
  close?(): Promise<void>;
  toolInputSchema?(name: string): object | undefined;
}

/**
 * How one request of a {@link RequestServer} arrived (its scope) and where what belongs to it goes
 * (its sink). The transport makes one per request, so it is a small object, not a connection.
 */
export interface RequestVia {
  /**
   * The handshake-era revision the client negotiated before (its MCP-Protocol-Version header);
   * undefined for `initialize`. A stateless-era request names its own revision.
   */
  readonly protocolVersion: string | undefined;
  /** Aborted when the request is cancelled (its client went away); made on first use. */
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
  /** Sends a notification about the request (progress, a log message) on its stream. */
  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void>;
  /** Who sent the request `requestId` (this one), as the transport authenticated it. */
  principalOf(requestId: RequestId): Principal | undefined;
}
