// A stateless-era subscription (`subscriptions/listen`, S26-SUB): its acknowledgement and its end, and
// a client's open ones.

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import type { RequestOptions, Session } from '../protocol/session.ts';
import { withEnvelope, type StatelessLink } from './stateless-request.ts';

/** What a listen request asks to hear about. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/**
 * One open listen stream. Its notifications arrive as the client's usual events
 * (`toolsListChanged`, `resourceUpdated`, ...). `acknowledged` resolves with the part of the filter
 * the server honours (S26-SUB-2); `closed` resolves when the stream ends, by `close()` or by the server.
 */
export class Subscription {
  readonly acknowledged: Promise<SubscriptionFilter>;
  readonly closed: Promise<void>;
  id: RequestId | undefined;
  #acknowledge!: (filter: SubscriptionFilter) => void;
  #controller: AbortController;

  constructor(controller: AbortController, done: Promise<unknown>) {
    this.#controller = controller;
    let fail!: (error: unknown) => void;
    this.acknowledged = new Promise((resolve, reject) => {
      this.#acknowledge = resolve;
      fail = reject;
    });
    // A listen that fails before its acknowledgement (e.g. the server refuses it) rejects `acknowledged`.
    done.catch((error: unknown) => fail(error));
    this.acknowledged.catch(() => {});
    this.closed = done.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Records the server's acknowledgement. */
  handleAcknowledged(filter: SubscriptionFilter): void {
    this.#acknowledge(filter);
  }

  /** Ends the subscription (on stdio: `notifications/cancelled`). Idempotent. */
  close(): void {
    this.#controller.abort('Subscription closed by the client');
  }
}

/** A client's open listen streams, by request id, so each acknowledgement reaches its own. */
export class Subscriptions {
  #open = new Map<RequestId, Subscription>();

  /** Sends `subscriptions/listen` on `session` and returns its stream at once. */
  open(session: Session, link: StatelessLink, filter: SubscriptionFilter): Subscription {
    const controller = new AbortController();
    const ref: { current?: Subscription } = {};
    const options: RequestOptions = {
      signal: controller.signal,
      timeoutMs: Infinity,
      maxTotalTimeoutMs: Infinity,
      onRequestId: (id) => {
        ref.current!.id = id;
        this.#open.set(id, ref.current!);
      },
    };
    // Sent on a later microtask, once `ref` is set.
    const done = Promise.resolve().then(() =>
      session.request(
        'subscriptions/listen',
        withEnvelope(link, { notifications: filter as JsonObject }),
        options,
      ),
    );
    const subscription = new Subscription(controller, done);
    ref.current = subscription;
    void subscription.closed.then(() => {
      if (subscription.id !== undefined) this.#open.delete(subscription.id);
    });
    return subscription;
  }

  /** Routes one `notifications/subscriptions/acknowledged` to the stream it names. */
  acknowledge(params: JsonObject): void {
    const id = ((params._meta as JsonObject | undefined) ?? {})['io.modelcontextprotocol/subscriptionId'];
    const subscription = typeof id === 'string' || typeof id === 'number' ? this.#open.get(id) : undefined;
    subscription?.handleAcknowledged(params.notifications as SubscriptionFilter);
  }
}
