// A stateless-era subscription (`subscriptions/listen`, S26-SUB): its acknowledgement and its end.

import type { RequestId } from '../jsonrpc/message.ts';

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
