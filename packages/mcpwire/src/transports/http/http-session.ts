// One handshake-era session (2025-03-26 .. 2025-11-25) over Streamable HTTP: the Channel its server
// session reads and writes. Inbound frames come from POSTs; each outbound message goes on exactly
// one stream (HTTP-21): its request's POST stream, else the session's GET stream.

import type { Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { JsonRpcRequest, Message, RequestId, SendOptions } from '../../jsonrpc/message.ts';
import { isRequest, isResponse } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type {
  SessionChange,
  SessionFacts,
  SessionRecord,
  SessionState,
} from '../../protocol/session-record.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { emptyReply, type HttpReply } from './exchange.ts';
import { PostExchange, type Accepts, type PostStream } from './post-exchange.ts';
import type { HttpSessionSettings, SessionOwner } from './session-owner.ts';
import { updateFenced } from './session-store.ts';
import { SessionStreams } from './session-streams.ts';
import type { SseConnection } from './sse-writer.ts';
import { WireIds } from './wire-ids.ts';

/**
 * A session: its record (id, 128 random bits as a UUID, HTTP-26, SEC-7; the principal it is bound
 * to; the client key its per-client cap counts it under; the facts `initialize`, `logging/setLevel`
 * and `resources/subscribe` decided), kept in the handler's session store, and its streams. It is
 * its server session's `sessionState`: the server reads the facts here and writes changes through
 * the store (fenced by the record's revision), so another handler sharing the store can serve the
 * session's next request from the record alone.
 */
export class HttpSession implements Channel, SessionState {
  /** When traffic last touched the session here (`Date.now()`), for the idle sweep. */
  lastActiveAt = Date.now();
  /** The last activity time this handler wrote to the store (touches are coalesced: sessions.ts). */
  storedActiveAt: number;
  /** When the record was last read from the store (`Date.now()`; SessionStore.recordCacheMs). */
  readAt = Date.now();
  #record: SessionRecord;
  /** The revision read from the initialize response, for a server that keeps no facts in the record. */
  #negotiated: string | undefined;
  // An idle session is small: what only some need is made on first use, in-flight maps dropped when empty.
  #settings: HttpSessionSettings;
  #owner: SessionOwner<HttpSession>;
  #receiver: ChannelReceiver | undefined;
  #backlog: Frame[] | undefined;
  /**
   * The in-flight requests' POSTs. A session usually has one request in flight: it is kept in the two
   * fields below, and this map is made only for a second (and dropped once none is left).
   */
  #exchanges: Map<RequestId, PostExchange> | undefined;
  /** The one request in flight when `#exchanges` is undefined (its POST in `#soleExchange`). */
  #soleId: RequestId | undefined;
  #soleExchange: PostExchange | undefined;
  /** Who sent each in-flight request (authenticated endpoints only); dropped with its response. */
  #senders: Map<RequestId, Principal> | undefined;
  #initializeId: RequestId | undefined;
  /** The session's SSE streams here (made on first use). */
  #streams: SessionStreams | undefined;
  #isClosed = false;
  #writing: Promise<void> | undefined;
  /** Requests sent to the client here and not yet answered, by their wire ids (made on first use). */
  #wireIds: WireIds | undefined;

  constructor(record: SessionRecord, settings: HttpSessionSettings, owner: SessionOwner<HttpSession>) {
    this.#record = record;
    this.storedActiveAt = record.lastActiveAt;
    this.#settings = settings;
    this.#owner = owner;
  }

  get id(): string {
    return this.#record.id;
  }

  get principal(): string | undefined {
    return this.#record.principal;
  }

  /** The negotiated revision, once `initialize` has been answered. */
  get protocolVersion(): string | undefined {
    return this.#record.protocolVersion ?? this.#negotiated;
  }

  /** The session's record as last read or written. */
  get record(): SessionRecord {
    return this.#record;
  }

  /** The server session reads and writes its facts here (see the class comment). */
  get sessionState(): SessionState {
    return this;
  }

  get facts(): SessionFacts {
    return this.#record;
  }

  /** Takes a record read from the store if it is newer than the one held. */
  adopt(record: SessionRecord): void {
    if (record.revision > this.#record.revision) this.#record = record;
  }

  /**
   * Stores a change made from the current facts; on a stale revision (another handler wrote first),
   * makes it again from the record the store returned. Rejects when the session is gone.
   */
  write(change: (facts: SessionFacts) => SessionChange): Promise<void> {
    const writing = this.#write(change);
    // Settles either way (the writer sees the failure; this only says when it is over).
    const tracked: Promise<void> = writing
      .catch(() => {})
      .then(() => {
        if (this.#writing === tracked) this.#writing = undefined;
      });
    this.#writing = tracked;
    return writing;
  }

  /**
   * The writes in progress, if any: a POST without requests (202) is answered once the changes its
   * notifications made are stored, so the client's next request, wherever it lands, sees them.
   */
  get writing(): Promise<void> | undefined {
    return this.#writing;
  }

  async #write(change: (facts: SessionFacts) => SessionChange): Promise<void> {
    const latest = () => this.#record;
    const stored = await updateFenced(
      this.#settings.sessions,
      latest,
      (record) => this.adopt(record),
      change,
    );
    if (stored === undefined) throw new ConnectionClosedError();
    this.adopt(stored);
    // Published before the write settles: the request that made it is answered after, so the
    // client's next request finds the change on a handler serving from its live record.
    await this.#owner.changed(stored);
  }

  /** The session is its own ChannelInfo (no object and closure more per session). */
  get info(): ChannelInfo {
    return this;
  }

  get sessionId(): string {
    return this.#record.id;
  }

  /** Who sent the in-flight request `requestId` (authenticated endpoints only). */
  principalOf(requestId: RequestId): Principal | undefined {
    return this.#senders?.get(requestId);
  }

  /**
   * Closes the SSE connection that carries the messages related to `relatedRequestId` without
   * ending their stream, so the client resumes it later (polling, SEP-1699): a request still waiting
   * for its response gets a resumable stream, opened with a priming event if nothing was sent for it
   * yet. Returns false, doing nothing, where that cannot be resumed (revisions before 2025-11-25, a
   * client that accepts JSON only, a request already answered). The server finds it by name (its
   * `PollingChannel`, server/polling-channel.ts) as `ctx.disconnectForPolling()`.
   */
  disconnectForPolling(relatedRequestId: RequestId): boolean {
    return this.#exchangeOf(relatedRequestId)?.poll() ?? false;
  }

  /** True while a POST awaits its responses or a stream has a client attached. */
  get isBusy(): boolean {
    return this.hasRequestsInFlight || this.#streams?.isAttached === true;
  }

  /** True while a POST's requests await their responses (an eviction would lose that work). */
  get hasRequestsInFlight(): boolean {
    return this.#soleExchange !== undefined || this.#exchanges !== undefined;
  }

  /** True if a request with this id is still waiting for its response (ids are per session). */
  isInFlight(id: RequestId): boolean {
    return this.#exchangeOf(id) !== undefined;
  }

  /** The POST of the in-flight request `id`, if any. */
  #exchangeOf(id: RequestId): PostExchange | undefined {
    const sole = this.#soleExchange;
    if (sole !== undefined) return this.#soleId === id ? sole : undefined;
    return this.#exchanges?.get(id);
  }

  /** Notes `id` in flight with its POST. */
  #addInFlight(id: RequestId, exchange: PostExchange): void {
    if (this.#exchanges === undefined) {
      if (this.#soleExchange === undefined) {
        this.#soleId = id;
        this.#soleExchange = exchange;
        return;
      }
      this.#exchanges = new Map([[this.#soleId!, this.#soleExchange]]);
      this.#soleId = this.#soleExchange = undefined;
    }
    this.#exchanges.set(id, exchange);
  }

  /** `id` is no longer in flight; with none left, the senders go too. */
  #removeInFlight(id: RequestId): void {
    this.#senders?.delete(id);
    if (this.#soleExchange !== undefined) {
      if (this.#soleId !== id) return;
      this.#soleId = this.#soleExchange = undefined;
    } else {
      const exchanges = this.#exchanges;
      if (exchanges === undefined || !exchanges.delete(id) || exchanges.size > 0) return;
      this.#exchanges = undefined;
    }
    this.#senders = undefined;
  }

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
    const backlog = this.#backlog ?? [];
    this.#backlog = undefined;
    for (const frame of backlog) receiver.handleFrame(frame);
  }

  /**
   * Delivers a POST body. With requests in it, resolves with their response (JSON or SSE); with a
   * message for another handler, with 202 once the bus took it (rejects when it could not).
   * `delivery.principal`, who sent them, is what `info.principalOf` answers while they are in flight
   * (a token refreshed mid-session gives later requests its new scopes and expiry).
   */
  post(
    frame: Frame,
    requests: readonly JsonRpcRequest[],
    accepts: Accepts,
    delivery: { headers: Record<string, string>; principal?: Principal | undefined },
  ): Promise<HttpReply> | undefined {
    const { headers, principal } = delivery;
    let exchange: PostExchange | undefined;
    if (requests.length > 0) {
      const version = this.protocolVersion ?? (requests[0]?.params?.protocolVersion as string | undefined);
      const isPolling = hasPolling(version);
      const settings = this.#settings;
      exchange = new PostExchange(requests, {
        accepts,
        isBatch: frame.type === 'batch',
        headers,
        keepAliveMs: settings.keepAliveMs,
        maxSseBufferBytes: settings.maxSseBufferBytes,
        streams: this,
        priming: isPolling ? { retryMs: settings.retryMs } : undefined,
        closeAfterMs: isPolling ? settings.closeSseStreamsAfterMs : undefined,
        sseAfterMs: settings.sseAfterMs,
      });
      for (const request of requests) {
        this.#addInFlight(request.id, exchange);
        if (principal !== undefined) (this.#senders ??= new Map()).set(request.id, principal);
        if (request.method === 'initialize') this.#initializeId = request.id;
      }
    }
    if (requests.length === 0 && frame.type === 'message' && this.#isForElsewhere(frame.message)) {
      return this.#owner.forward(this, frame.message).then(() => emptyReply(202));
    }
    this.#deliver(frame);
    return exchange?.response;
  }

  /** What goes on the wire for a message to the client (a request gets an id unique across handlers). */
  #toWire(message: Message): Message {
    return isRequest(message) || this.#wireIds !== undefined
      ? (this.#wireIds ??= new WireIds(this.#owner.node)).toWire(message)
      : message;
  }

  /** A message from the client that reached another handler serving this session (the bus). */
  deliver(message: Message): void {
    if (this.#isForElsewhere(message)) return;
    this.#deliver({ type: 'message', message });
  }

  #deliver(frame: Frame): void {
    const wireIds = this.#wireIds;
    if (wireIds !== undefined) {
      if (frame.type === 'message') {
        // Only a rewritten message loses its text: the client's bytes name the wire id, not ours.
        const message = wireIds.fromWire(frame.message);
        if (message !== frame.message) frame = { type: 'message', message };
      } else if (frame.type === 'batch')
        frame = {
          type: 'batch',
          items: frame.items.map((item) =>
            item.type === 'message' ? { type: 'message', message: wireIds.fromWire(item.message) } : item,
          ),
        };
    }
    if (this.#receiver) this.#receiver.handleFrame(frame);
    else (this.#backlog ??= []).push(frame);
  }

  /**
   * True for a client's response to a request not sent from here, or a cancellation of a request
   * not running here: it belongs to another handler serving the session.
   */
  #isForElsewhere(message: Message): boolean {
    if (isResponse(message)) {
      return message.id !== undefined && this.#wireIds?.has(message.id) !== true;
    }
    if ((message as { method?: unknown }).method !== 'notifications/cancelled') return false;
    const requestId = (message as { params?: { requestId?: unknown } }).params?.requestId;
    return (typeof requestId === 'string' || typeof requestId === 'number') && !this.isInFlight(requestId);
  }

  /** Opens the GET stream (HTTP-17..19); undefined when a client is attached to it already. */
  openStandalone(): HttpReply | undefined {
    const isPriming = hasPolling(this.protocolVersion);
    return this.#streamsMade().openStandalone(isPriming ? { retryMs: this.#settings.retryMs } : undefined);
  }

  /** Resumes the stream `lastEventId` belongs to (HTTP-23/24): SessionStreams.resume. */
  resume(lastEventId: string): Promise<HttpReply | undefined> {
    return this.#streamsMade().resume(lastEventId);
  }

  /** A connection continuing the live stream `streamId` here: SessionStreams.continueStream. */
  continueStream(streamId: string, lastEventId: string): SseConnection | undefined {
    return this.#streams?.continueStream(streamId, lastEventId);
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    if (this.#isClosed) return Promise.reject(new ConnectionClosedError());
    message = Array.isArray(message)
      ? (message as readonly Message[]).map((item) => this.#toWire(item))
      : this.#toWire(message as Message);
    const key = options?.relatedRequestId ?? firstResponseId(message);
    if (key !== undefined) {
      const exchange = this.#exchangeOf(key);
      this.#noteNegotiated(key, message);
      if (this.hasRequestsInFlight) {
        if (!Array.isArray(message)) this.#answered(message as Message);
        else for (const item of message as readonly Message[]) this.#answered(item);
      }
      if (exchange) {
        const handled = exchange.handle(message, options?.text);
        // Answered: the session was active until now (the sweep counts a POST in flight as busy).
        if (exchange.isDone) this.#owner.touch(this);
        return handled;
      }
    }
    const isServerRequest = Array.isArray(message) ? message.some(isRequest) : isRequest(message as Message);
    const standalone = key === undefined ? this.#streams?.sendStandalone(message) : undefined;
    if (standalone !== undefined) return standalone;
    // A related request that is over, or no GET stream: a request would never be answered.
    return isServerRequest
      ? Promise.reject(new Error('No open stream to send the request on'))
      : Promise.resolve();
  }

  /** A response leaves: its request is no longer in flight. */
  #answered(message: Message): void {
    if (!isResponse(message) || message.id === undefined) return;
    this.#removeInFlight(message.id);
  }

  /** Closes the session here and forgets its streams in the event store: the session has ended. */
  close(): Promise<void> {
    return this.#close(true);
  }

  /**
   * Closes what is live of the session here but keeps its streams in the event store: the session
   * goes on elsewhere (this handler stops, or lets go of a session idle here), and a client may
   * resume a stream of it on another handler (`Last-Event-ID`, replayed from the store).
   */
  release(): Promise<void> {
    return this.#close(false);
  }

  #close(isEnded: boolean): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    this.#isClosed = true;
    const sole = this.#soleExchange;
    for (const exchange of sole !== undefined ? [sole] : new Set(this.#exchanges?.values())) exchange.abort();
    this.#exchanges = this.#senders = this.#soleId = this.#soleExchange = undefined;
    this.#streams?.finish(isEnded);
    this.#receiver?.handleClose();
    this.#owner.forget(this);
    return Promise.resolve();
  }

  /** A new stream for the POST of requests `ids` (PostExchangeOptions.streams: no closure per POST). */
  openPostStream(ids: readonly RequestId[]): PostStream {
    return this.#streamsMade().openPostStream(ids);
  }

  #streamsMade(): SessionStreams {
    if (this.#streams !== undefined) return this.#streams;
    const owner = this.#owner;
    const relay = (streamId: string, lastEventId: string) => owner.relay(this, streamId, lastEventId);
    const holder = { sessionId: this.id, node: owner.node, relay };
    return (this.#streams = new SessionStreams(holder, this.#settings));
  }

  /** Reads the negotiated revision from the initialize response (HTTP-33 compares headers with it). */
  #noteNegotiated(key: RequestId, message: Message | readonly Message[]): void {
    if (Array.isArray(message) || !isResponse(message as Message) || this.#initializeId !== key) return;
    this.#initializeId = undefined;
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') this.#negotiated = result.protocolVersion;
  }
}

/** Priming events and polling (SEP-1699) belong to 2025-11-25 and later; older clients get neither. */
function hasPolling(version: string | undefined): boolean {
  if (version === undefined) return false;
  // A session's every POST asks with the same version: the expression runs once, not per POST.
  if (version === lastPolling.version) return lastPolling.hasPolling;
  const answer = /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2025-11-25';
  lastPolling = { version, hasPolling: answer };
  return answer;
}

let lastPolling = { version: '', hasPolling: false };

function firstResponseId(message: Message | readonly Message[]): RequestId | undefined {
  if (!Array.isArray(message)) {
    const single = message as Message;
    return isResponse(single) ? single.id : undefined;
  }
  for (const item of message as readonly Message[])
    if (isResponse(item) && item.id !== undefined) return item.id;
  return undefined;
}
