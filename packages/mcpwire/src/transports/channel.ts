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
import type { ServedEras } from '../protocol/revisions.ts';
import type { SessionState } from '../protocol/session-record.ts';

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
 * Where the peer refuses a request as such, without a JSON-RPC answer (it does not take that kind of
 * request there), `send` rejects with an error whose `isRefusal` is true; a client reads it as it would
 * an error response. Any other rejection is a failure of the transport, which says nothing of the peer.
 * `close` is idempotent and resolves when the connection is released.
 */
export interface Channel {
  open(receiver: ChannelReceiver): void;
  send(message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  /** Facts for the session (e.g. a session id, the child's pid), and the principal. */
  readonly info?: ChannelInfo;
  /**
   * Where the handshake-era session on this channel keeps what it decided (a transport with a
   * session store offers its record; a record that already holds a negotiated revision is a session
   * brought back to life, served without a new `initialize`). Absent: the server keeps it in memory.
   */
  readonly sessionState?: SessionState;
}

/** Facts a transport may know about its connection. */
export interface ChannelInfo {
  readonly sessionId?: string;
  readonly pid?: number;
  /**
   * True where every request sent meets an answer of its own, the peer's response or a failure of
   * the transport (a request/response transport): there a request left unanswered is an outage,
   * never a peer that ignored it. Absent or false where a peer may stay silent (a byte pipe).
   */
  readonly isRequestResponse?: boolean;
  /**
   * Who sent the inbound request `requestId`, as the transport authenticated it; undefined when
   * unauthenticated. Asked while the request is in flight; the server hands it to the request's
   * handler as `ctx.auth`.
   */
  readonly principalOf?: (requestId: RequestId) => Principal | undefined;
}

/** Something that makes channels: `connect` resolves with an open-able channel, or rejects. */
export interface Transport {
  connect(): Promise<Channel>;
}

/**
 * What a transport needs of a server: it serves channels (mcpwire's `Server` does). `close` lets a
 * transport release the server when its connection ends.
 */
export interface ChannelServer {
  connect(channel: Channel): unknown;
  close?(): Promise<void>;
  /** The eras it speaks (`ServerCore.eras`); both when absent. A transport that serves both routes by it. */
  readonly eras?: ServedEras;
}

/**
 * A server that serves each request on its own, in either era (`ServerCore` has only this; `Server`
 * has `connect` too): what a transport that keeps no session for a request calls (every
 * stateless-era request, and each request of a handler without sessions). `via` is the request's
 * scope and its way back. Resolves with the response, an error response included; never rejects.
 */
export interface RequestServer {
  serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse>;
  close?(): Promise<void>;
  /** The eras it speaks (`ServerCore.eras`); both when absent. */
  readonly eras?: ServedEras;
}

/**
 * How one request of a {@link RequestServer} arrived (its scope) and where what belongs to it goes
 * (its sink). The transport makes one per request, so it is a small object, not a connection.
 */
export interface RequestVia {
  /**
   * The handshake-era revision the client negotiated before (as its request names it);
   * undefined for `initialize`. A stateless-era request names its own revision.
   */
  readonly protocolVersion: string | undefined;
  /** Aborted when the request is cancelled (its client went away); made on first use. */
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
  /** Sends a notification about the request (progress, a log message) with its response. */
  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void>;
  /** Who sent the request `requestId` (this one), as the transport authenticated it. */
  principalOf(requestId: RequestId): Principal | undefined;
}
