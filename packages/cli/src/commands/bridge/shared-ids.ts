// `bridge --http --shared`: the one place where ids are remapped between several client sessions and
// their one child. A table with no I/O: what a message becomes on the other side, and where it goes.

import type { JsonObject, JsonRpcRequest, Message, RequestId } from 'mcpwire';

/** A client request the child has not answered: whose it is, under which id and progress token. */
interface ClientRequest<S> {
  readonly session: S;
  readonly id: RequestId;
  readonly token?: string | number;
}

/** A request of the child's sent to a session under the bridge's id: whose, and the child's own id. */
interface ChildRequest<S> {
  readonly session: S;
  readonly childId: RequestId;
}

/**
 * Where a message of the child's goes: to one session (with the client request whose stream should
 * carry it), to every session, or nowhere (an answer to nothing in flight; `reason` says why).
 */
export type ChildRoute<S> =
  | { readonly to: 'session'; readonly session: S; readonly message: Message; readonly related?: RequestId }
  | { readonly to: 'all'; readonly message: Message }
  | { readonly to: 'none'; readonly reason: string };

/** What a session leaves behind when it ends: its requests to cancel on the child, the child's requests to fail. */
export interface SessionLeftovers {
  readonly cancelOnChild: readonly Message[];
  readonly childRequestsToFail: readonly RequestId[];
}

/**
 * The id table of one shared child. Toward the child, every client request gets an id of the table's
 * own (1, 2, ...), and its progress token becomes that same number (unique while the request is in
 * flight); a client's `notifications/cancelled` names the child-side id. Toward a client, the child's
 * requests get ids `mcpwire-shared-<n>`, answered only by the session they went to. Everything else in
 * a message passes unchanged; the rewritten messages are new objects (the input is never modified).
 */
export class SharedIdTable<S> {
  #nextClientRequest = 1;
  #nextChildRequest = 1;
  /** Child-side id -> the client request; in the order they were sent (the latest last). */
  readonly #clientRequests = new Map<number, ClientRequest<S>>();
  /** Bridge id toward a client -> the child's request. */
  readonly #childRequests = new Map<string, ChildRequest<S>>();

  /** Client requests in flight at the child (all sessions). */
  get inFlight(): number {
    return this.#clientRequests.size;
  }

  /**
   * A message of `session`'s as the child must see it; undefined when it must not reach the child (an
   * answer to a request of the child's this session was not sent, a cancellation of nothing in flight).
   */
  toChild(session: S, message: Message): Message | undefined {
    if (!('method' in message)) return this.#answerToChild(session, message);
    if (!('id' in message)) {
      if (message.method !== 'notifications/cancelled') return message;
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const childId = this.#childIdOf(session, requestId);
      if (childId === undefined) return undefined;
      this.#clientRequests.delete(childId);
      return { ...message, params: { ...message.params, requestId: childId } };
    }
    const childId = this.#nextClientRequest++;
    const meta = message.params?._meta as JsonObject | undefined;
    const token = meta?.progressToken;
    const hasToken = typeof token === 'string' || typeof token === 'number';
    this.#clientRequests.set(childId, { session, id: message.id, ...(hasToken ? { token } : {}) });
    const request: JsonRpcRequest = { ...message, id: childId };
    if (hasToken) request.params = { ...message.params, _meta: { ...meta, progressToken: childId } };
    return request;
  }

  /** Where a message of the child's goes, with the client's ids and token put back. */
  fromChild(message: Message): ChildRoute<S> {
    if (!('method' in message)) {
      const entry = typeof message.id === 'number' ? this.#clientRequests.get(message.id) : undefined;
      if (entry === undefined)
        return { to: 'none', reason: `an answer to no request in flight (id ${JSON.stringify(message.id)})` };
      this.#clientRequests.delete(message.id as number);
      return { to: 'session', session: entry.session, message: { ...message, id: entry.id } };
    }
    if ('id' in message) return this.#childRequest(message);
    const params = message.params as { progressToken?: unknown; requestId?: unknown } | undefined;
    if (message.method === 'notifications/progress') {
      const entry =
        typeof params?.progressToken === 'number'
          ? this.#clientRequests.get(params.progressToken)
          : undefined;
      if (entry?.token === undefined) return { to: 'none', reason: 'progress for no request in flight' };
      const restored = { ...message, params: { ...message.params, progressToken: entry.token } };
      return { to: 'session', session: entry.session, message: restored, related: entry.id };
    }
    if (message.method === 'notifications/cancelled') {
      const found = [...this.#childRequests].find(([, entry]) => entry.childId === params?.requestId);
      if (found === undefined) return { to: 'none', reason: 'a cancellation of no request in flight' };
      const [bridgeId, entry] = found;
      this.#childRequests.delete(bridgeId);
      const remapped = { ...message, params: { ...message.params, requestId: bridgeId } };
      return { to: 'session', session: entry.session, message: remapped };
    }
    return { to: 'all', message };
  }

  /** The latest request of `session` in flight at the child (its POST stream is where the client listens). */
  latestOf(session: S): RequestId | undefined {
    let latest: RequestId | undefined;
    for (const entry of this.#clientRequests.values()) if (entry.session === session) latest = entry.id;
    return latest;
  }

  /** Forgets `session`: its requests in flight become cancellations for the child; the child's requests to it fail. */
  endSession(session: S, reason: string): SessionLeftovers {
    const cancelOnChild: Message[] = [];
    for (const [childId, entry] of this.#clientRequests) {
      if (entry.session !== session) continue;
      this.#clientRequests.delete(childId);
      cancelOnChild.push({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: childId, reason },
      });
    }
    const childRequestsToFail: RequestId[] = [];
    for (const [bridgeId, entry] of this.#childRequests) {
      if (entry.session !== session) continue;
      this.#childRequests.delete(bridgeId);
      childRequestsToFail.push(entry.childId);
    }
    return { cancelOnChild, childRequestsToFail };
  }

  /** Every client request in flight at the child, by session, as the clients sent them (the child is gone). */
  drain(): Array<{ session: S; id: RequestId }> {
    const all = [...this.#clientRequests.values()].map(({ session, id }) => ({ session, id }));
    this.#clientRequests.clear();
    this.#childRequests.clear();
    return all;
  }

  /** A request of the child's: to the session of the latest client request in flight, under a bridge id. */
  #childRequest(message: JsonRpcRequest): ChildRoute<S> {
    const latest = [...this.#clientRequests.values()].at(-1);
    if (latest === undefined) return { to: 'none', reason: 'no client request is in flight to carry it' };
    const bridgeId = `mcpwire-shared-${this.#nextChildRequest++}`;
    this.#childRequests.set(bridgeId, { session: latest.session, childId: message.id });
    return {
      to: 'session',
      session: latest.session,
      message: { ...message, id: bridgeId },
      related: latest.id,
    };
  }

  #answerToChild(session: S, message: Message & { id?: RequestId }): Message | undefined {
    const entry = typeof message.id === 'string' ? this.#childRequests.get(message.id) : undefined;
    if (entry === undefined || entry.session !== session) return undefined;
    this.#childRequests.delete(message.id as string);
    return { ...message, id: entry.childId } as Message;
  }

  #childIdOf(session: S, requestId: unknown): number | undefined {
    for (const [childId, entry] of this.#clientRequests)
      if (entry.session === session && entry.id === requestId) return childId;
    return undefined;
  }
}
