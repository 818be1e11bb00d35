// The handlers' MessageBus on Redis pub/sub (issue 24): what one node publishes reaches the listeners
// of every node, on a subscriber connection of the bus's own.

import type { BusListener, MessageBus } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import { isCluster } from './cluster-connection.ts';
import type { RedisPublisher, RedisSubscriber } from './redis-connection.ts';

/** A bus message: a plain JSON object. */
type JsonObject = Parameters<BusListener>[0];

/** How the bus reports a connection error or a message it could not read (never thrown). */
export interface RedisMessageBusOptions extends KeyOptions {
  readonly onError?: (error: Error) => void;
}

/**
 * A MessageBus over Redis pub/sub: `publish` sends the message as JSON on `mcp:bus:<topic>` over the
 * given connection; `subscribe` listens on a dedicated connection (`duplicate()` of it, opened on
 * first use) and resolves once Redis confirmed the subscription, so every message published after
 * that reaches the listener, in order per publisher (one connection each way), at most once. On a
 * Redis Cluster (clusterConnection) it is sharded pub/sub (`SPUBLISH`, `SSUBSCRIBE`): a topic's
 * messages go through its channel's slot's master only, instead of being broadcast to every node.
 * Listeners are called in subscription order; one that throws does not stop the others.
 * `close` ends the subscriber connection; the given one stays the caller's.
 */
export class RedisMessageBus implements MessageBus, AsyncDisposable {
  #redis: RedisPublisher;
  #keys: RedisKeys;
  #onError: (error: Error) => void;
  #subscriber: Promise<RedisSubscriber> | undefined;
  #isSharded: boolean;

  constructor(redis: RedisPublisher, options: RedisMessageBusOptions = {}) {
    this.#redis = redis;
    this.#isSharded = isCluster(redis);
    this.#keys = new RedisKeys(options);
    this.#onError = options.onError ?? (() => {});
  }

  async publish(topic: string, message: JsonObject): Promise<void> {
    const command = this.#isSharded ? 'SPUBLISH' : 'PUBLISH';
    await this.#redis.sendCommand([command, this.#keys.topic(topic), JSON.stringify(message)]);
  }

  async subscribe(topic: string, listener: BusListener): Promise<() => void> {
    const subscriber = await this.#connected();
    const channel = this.#keys.topic(topic);
    const onMessage = (text: string): void => {
      let message: JsonObject;
      try {
        message = JSON.parse(text) as JsonObject;
      } catch (error) {
        this.#onError(new Error(`Bus topic ${topic}: a message that is not JSON`, { cause: error }));
        return;
      }
      try {
        listener(message);
      } catch (error) {
        // A listener must not throw; one that does loses only its own delivery.
        this.#onError(error instanceof Error ? error : new Error(String(error)));
      }
    };
    if (this.#isSharded) await subscriber.sSubscribe(channel, onMessage);
    else await subscriber.subscribe(channel, onMessage);
    return () => {
      if (!subscriber.isOpen) return;
      const unsubscribed = this.#isSharded
        ? subscriber.sUnsubscribe(channel, onMessage)
        : subscriber.unsubscribe(channel, onMessage);
      unsubscribed.catch(this.#onError);
    };
  }

  /** Ends the subscriber connection (idempotent). */
  async close(): Promise<void> {
    const pending = this.#subscriber;
    this.#subscriber = undefined;
    const subscriber = await pending?.catch(() => undefined);
    if (subscriber?.isOpen) subscriber.destroy();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #connected(): Promise<RedisSubscriber> {
    this.#subscriber ??= (async () => {
      const subscriber = this.#redis.duplicate() as RedisSubscriber;
      subscriber.on('error', this.#onError);
      await subscriber.connect();
      return subscriber;
    })();
    return this.#subscriber;
  }
}
