// The handlers' MessageBus on Redis pub/sub (issue 24): what one node publishes reaches the listeners
// of every node, on a subscriber connection of the bus's own, and a node whose subscriber connection
// dropped reads what it missed from the topic's replay log once it is back (bus-log.ts).

import type { BusListener, MessageBus } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import { isCluster } from './cluster-connection.ts';
import { isAfter, PUBLISH_LOGGED, readLogged, readRange, type LoggedMessage } from './bus-log.ts';
import type { RedisPublisher, RedisSubscriber } from './redis-connection.ts';
import { orUnavailable } from './unavailable.ts';

/** A bus message: a plain JSON object. */
type JsonObject = Parameters<BusListener>[0];

/** How the bus reports a connection error or a message it could not read (never thrown). */
export interface RedisMessageBusOptions extends KeyOptions {
  readonly onError?: (error: Error) => void;
  /**
   * About how many recent messages each topic's replay log keeps (Redis trims it near this length):
   * what a node can still catch up on after its subscriber connection was away. Default 1,000.
   */
  readonly replayLength?: number;
}

const DEFAULT_REPLAY_LENGTH = 1000;

/** How long the bus waits before reading a replay log again when Redis refused the read. */
const CATCH_UP_RETRY_MS = 100;

/** One subscribed topic on this bus. */
interface Topic {
  readonly channel: string;
  readonly log: string;
  readonly listeners: Set<BusListener>;
  readonly onMessage: (text: string) => void;
  /** Confirmed by Redis (and the log's newest id read). */
  subscribed: Promise<void>;
  /** The newest log entry delivered here (or the log's newest when subscribed): older ones are dropped. */
  cursor: string;
  /** Set while the subscriber connection is away and the log not yet read: what arrives waits. */
  held: LoggedMessage[] | undefined;
}

/**
 * A MessageBus over Redis pub/sub. `publish` runs one script that appends the message to the topic's
 * replay log (`<channel>` in a hash tag, `:log`, a Stream trimmed to about `replayLength` entries) and
 * publishes `<entry id> <JSON>` on `mcp:bus:<topic>`. `subscribe` listens on a dedicated connection
 * (`duplicate()` of the given one, opened on first use) and resolves once Redis confirmed it, so every
 * message published after that reaches the listener once, in publication order (the log's order).
 * When the subscriber connection drops, node-redis reconnects and resubscribes; the bus holds what
 * arrives until it has read the entries it missed from each topic's log, then delivers those and the
 * held ones in order, skipping any it already delivered. What the log trimmed away meanwhile is lost
 * (reported). On a Redis Cluster (clusterConnection) it is sharded pub/sub (`SPUBLISH`,
 * `SSUBSCRIBE`): a topic's messages go through its channel's slot's master only. Listeners are called
 * in subscription order; one that throws does not stop the others. `close` ends the subscriber
 * connection; the given one stays the caller's.
 */
export class RedisMessageBus implements MessageBus, AsyncDisposable {
  #redis: RedisPublisher;
  #keys: RedisKeys;
  #onError: (error: Error) => void;
  #replayLength: string;
  #subscriber: Promise<RedisSubscriber> | undefined;
  #isSharded: boolean;
  #topics = new Map<string, Topic>();
  /** The subscriber's connections that are away (one for a client, per node for a cluster). */
  #away = new Set<string>();
  #isCatchingUp = false;
  #isClosed = false;

  constructor(redis: RedisPublisher, options: RedisMessageBusOptions = {}) {
    this.#redis = redis;
    this.#isSharded = isCluster(redis);
    this.#keys = new RedisKeys(options);
    this.#onError = options.onError ?? (() => {});
    this.#replayLength = String(options.replayLength ?? DEFAULT_REPLAY_LENGTH);
  }

  async publish(topic: string, message: JsonObject): Promise<void> {
    const keys = [this.#keys.topicLog(topic)];
    const command = this.#isSharded ? 'SPUBLISH' : 'PUBLISH';
    const args = [this.#keys.topic(topic), JSON.stringify(message), this.#replayLength, command];
    await orUnavailable('message bus', () => this.#redis.eval(PUBLISH_LOGGED, { keys, arguments: args }));
  }

  async subscribe(name: string, listener: BusListener): Promise<() => void> {
    let topic = this.#topics.get(name);
    if (topic === undefined) {
      topic = this.#topicMade(name);
      this.#topics.set(name, topic);
    }
    try {
      await topic.subscribed;
    } catch (error) {
      if (this.#topics.get(name) === topic) this.#topics.delete(name);
      throw error;
    }
    const made = topic;
    made.listeners.add(listener);
    return () => {
      made.listeners.delete(listener);
      if (made.listeners.size > 0 || this.#topics.get(name) !== made) return;
      this.#topics.delete(name);
      void this.#subscriber?.then((subscriber) => {
        if (!subscriber.isOpen) return;
        const unsubscribed = this.#isSharded
          ? subscriber.sUnsubscribe(made.channel, made.onMessage)
          : subscriber.unsubscribe(made.channel, made.onMessage);
        unsubscribed.catch(this.#onError);
      }, this.#onError);
    };
  }

  /** Ends the subscriber connection (idempotent). */
  async close(): Promise<void> {
    this.#isClosed = true;
    const pending = this.#subscriber;
    this.#subscriber = undefined;
    const subscriber = await pending?.catch(() => undefined);
    if (subscriber?.isOpen) subscriber.destroy();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** A topic's state, subscribing its channel. */
  #topicMade(name: string): Topic {
    const topic: Topic = {
      channel: this.#keys.topic(name),
      log: this.#keys.topicLog(name),
      listeners: new Set(),
      onMessage: (text) => this.#arrived(name, topic, text),
      subscribed: Promise.resolve(),
      cursor: '0-0',
      held: undefined,
    };
    topic.subscribed = this.#subscribing(topic);
    return topic;
  }

  /** Reads the log's newest id first, then subscribes: nothing published after that is skipped. */
  async #subscribing(topic: Topic): Promise<void> {
    const newest = readRange(await this.#redis.sendCommand(['XREVRANGE', topic.log, '+', '-', 'COUNT', '1']));
    topic.cursor = newest[0]?.id ?? '0-0';
    const subscriber = await this.#connected();
    if (this.#isSharded) await subscriber.sSubscribe(topic.channel, topic.onMessage);
    else await subscriber.subscribe(topic.channel, topic.onMessage);
  }

  #arrived(name: string, topic: Topic, text: string): void {
    const logged = readLogged(text);
    if (logged === undefined) {
      this.#onError(new Error(`Bus topic ${name}: a message without its log entry id`));
      return;
    }
    if (topic.held === undefined) return this.#deliver(name, topic, logged);
    // Every held message is in the log too: past the bound, the next read of the log has them.
    if (topic.held.length >= Number(this.#replayLength)) topic.held = [];
    topic.held.push(logged);
  }

  /** Calls the listeners with a message newer than what they were given; older ones were delivered. */
  #deliver(name: string, topic: Topic, logged: LoggedMessage): void {
    if (!isAfter(logged.id, topic.cursor)) return;
    topic.cursor = logged.id;
    let message: JsonObject;
    try {
      message = JSON.parse(logged.json) as JsonObject;
    } catch (error) {
      this.#onError(new Error(`Bus topic ${name}: a message that is not JSON`, { cause: error }));
      return;
    }
    for (const listener of [...topic.listeners]) {
      try {
        listener(message);
      } catch (error) {
        // A listener must not throw; one that does loses only its own delivery.
        this.#onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** A subscriber connection dropped: what arrives from now on waits until the logs were read. */
  #wentAway(connection: string): void {
    this.#away.add(connection);
    for (const topic of this.#topics.values()) topic.held ??= [];
  }

  /** A subscriber connection is back, resubscribed (node-redis does so before `ready`). */
  #cameBack(connection: string): void {
    if (!this.#away.delete(connection) || this.#away.size > 0) return;
    void this.#catchUp();
  }

  /** Reads each held topic's log after its cursor, delivers it and the held messages; retries on failure. */
  async #catchUp(): Promise<void> {
    if (this.#isCatchingUp) return;
    this.#isCatchingUp = true;
    try {
      while (!this.#isClosed && this.#away.size === 0) {
        const held = [...this.#topics].filter(([, topic]) => topic.held !== undefined);
        try {
          await Promise.all(held.map(([name, topic]) => this.#replay(name, topic)));
          return;
        } catch (error) {
          this.#onError(new Error('Bus: could not read the replay logs; trying again', { cause: error }));
          await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS));
        }
      }
    } finally {
      this.#isCatchingUp = false;
    }
  }

  async #replay(name: string, topic: Topic): Promise<void> {
    const reply = await this.#redis.sendCommand(['XRANGE', topic.log, `(${topic.cursor}`, '+']);
    const missed = readRange(reply);
    if (missed.length >= Number(this.#replayLength))
      this.#onError(
        new Error(`Bus topic ${name}: the replay log may have dropped messages this node missed`),
      );
    const held = topic.held ?? [];
    topic.held = undefined;
    for (const logged of missed) this.#deliver(name, topic, logged);
    for (const logged of held) this.#deliver(name, topic, logged);
  }

  #connected(): Promise<RedisSubscriber> {
    this.#subscriber ??= (async () => {
      const subscriber = this.#redis.duplicate() as RedisSubscriber;
      subscriber.on('error', this.#onError);
      // A client reports its own connection; a cluster each node's (its sharded subscribers among them).
      subscriber.on('reconnecting', () => this.#wentAway('client'));
      subscriber.on('ready', () => this.#cameBack('client'));
      subscriber.on('node-reconnecting', (node) => this.#wentAway(nodeName(node)));
      subscriber.on('node-ready', (node) => this.#cameBack(nodeName(node)));
      await subscriber.connect();
      return subscriber;
    })();
    return this.#subscriber;
  }
}

/** A cluster node as its events name it (`{ host, port }`). */
function nodeName(node: unknown): string {
  const { host, port } = (node ?? {}) as { host?: unknown; port?: unknown };
  return `${String(host)}:${String(port)}`;
}
