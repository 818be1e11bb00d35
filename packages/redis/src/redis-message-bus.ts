// The handlers' MessageBus on Redis pub/sub (issue 24): what one node publishes reaches the listeners
// of every node, on a subscriber connection of the bus's own; what pub/sub lost on the way (a
// connection reconnecting, a cluster shard's subscriptions moving to a new master) a node reads from
// the topic's replay log (bus-log.ts).

import type { BusListener, MessageBus } from 'mcpwire/http';
import { RedisKeys, type KeyOptions } from './keys.ts';
import { isCluster } from './cluster-connection.ts';
import { isAfter, PUBLISH_LOGGED, readLogged, readRange, type LogEntry } from './bus-log.ts';
import type { RedisPublisher, RedisSubscriber } from './redis-connection.ts';
import { orUnavailable } from './unavailable.ts';

/** A bus message: a plain JSON object. */
type JsonObject = Parameters<BusListener>[0];

/** How the bus reports a connection error or a message it could not read (never thrown). */
export interface RedisMessageBusOptions extends KeyOptions {
  readonly onError?: (error: Error) => void;
  /**
   * About how many recent messages each topic's replay log keeps (Redis trims it near this length):
   * what a node can still catch up on after its subscription was away. Default 1,000.
   */
  readonly replayLength?: number;
  /**
   * How often the bus reads each subscribed topic's log for messages pub/sub lost with none after them
   * to show the gap (one `XRANGE` per topic). Default 1,000 ms; 0 never.
   */
  readonly catchUpIntervalMs?: number;
}

const DEFAULT_REPLAY_LENGTH = 1000;
const DEFAULT_CATCH_UP_INTERVAL_MS = 1000;

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
  /** Whether `subscribed` has settled: from then on, the bus reads the log for what pub/sub lost. */
  isLive: boolean;
  /** The newest log entry delivered here (or the log's newest when subscribed): older ones are dropped. */
  cursor: string;
  /** Set while the log is being read: what arrives meanwhile waits, then follows what the log gave. */
  held: LogEntry[] | undefined;
}

/**
 * A MessageBus over Redis pub/sub. `publish` runs one script that appends the message to the topic's
 * replay log (`<channel>` in a hash tag, `:log`, a Stream trimmed to about `replayLength` entries) and
 * publishes `<entry id> <previous entry id> <JSON>` on `mcp:bus:<topic>`. `subscribe` listens on a
 * dedicated connection (`duplicate()` of the given one, opened on first use) and resolves once Redis
 * confirmed it, so every message published after that reaches the listener once, in publication
 * order (the log's order). Pub/sub alone would lose what is published while the subscription is away
 * (node-redis reconnecting and resubscribing, or on a cluster moving a shard's subscriptions to a
 * promoted master without reconnecting): the bus reads each topic's log after the newest entry it
 * delivered when a message names a previous entry it never got (then delivers the missed ones first),
 * when a subscriber connection is ready again, and every `catchUpIntervalMs`. What the log trimmed
 * away meanwhile is lost (reported). On a Redis Cluster (clusterConnection) it is sharded pub/sub
 * (`SPUBLISH`, `SSUBSCRIBE`): a topic's messages go through its channel's slot's master only.
 * Listeners are called in subscription order; one that throws does not stop the others. `close` ends
 * the subscriber connection; the given one stays the caller's.
 */
export class RedisMessageBus implements MessageBus, AsyncDisposable {
  #redis: RedisPublisher;
  #keys: RedisKeys;
  #onError: (error: Error) => void;
  #replayLength: string;
  #catchUpIntervalMs: number;
  #catchUpTimer: ReturnType<typeof setInterval> | undefined;
  #subscriber: Promise<RedisSubscriber> | undefined;
  #isSharded: boolean;
  #topics = new Map<string, Topic>();
  #isClosed = false;

  constructor(redis: RedisPublisher, options: RedisMessageBusOptions = {}) {
    this.#redis = redis;
    this.#isSharded = isCluster(redis);
    this.#keys = new RedisKeys(options);
    this.#onError = options.onError ?? (() => {});
    this.#replayLength = String(options.replayLength ?? DEFAULT_REPLAY_LENGTH);
    this.#catchUpIntervalMs = options.catchUpIntervalMs ?? DEFAULT_CATCH_UP_INTERVAL_MS;
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
    clearInterval(this.#catchUpTimer);
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
      isLive: false,
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
    topic.isLive = true;
  }

  #arrived(name: string, topic: Topic, text: string): void {
    const logged = readLogged(text);
    if (logged === undefined) {
      this.#onError(new Error(`Bus topic ${name}: a message without its log entry ids`));
      return;
    }
    if (topic.held !== undefined) {
      // Every held message is in the log too: past the bound, the next read of the log has them.
      if (topic.held.length >= Number(this.#replayLength)) topic.held = [];
      topic.held.push(logged);
      return;
    }
    if (!isAfter(logged.previous, topic.cursor)) return this.#deliver(name, topic, logged);
    // Pub/sub lost the entries between the cursor and this one: the log has them.
    topic.held = [logged];
    void this.#readLog(name, topic);
  }

  /** Calls the listeners with a message newer than what they were given; older ones were delivered. */
  #deliver(name: string, topic: Topic, entry: LogEntry): void {
    if (!isAfter(entry.id, topic.cursor)) return;
    topic.cursor = entry.id;
    let message: JsonObject;
    try {
      message = JSON.parse(entry.json) as JsonObject;
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

  /** Reads every topic's log for what pub/sub lost (a topic already being read is left to that read). */
  #catchUp(): void {
    for (const [name, topic] of this.#topics) {
      if (!topic.isLive || topic.held !== undefined) continue;
      topic.held = [];
      void this.#readLog(name, topic);
    }
  }

  /**
   * Reads the topic's log after its cursor and delivers those entries, then the held messages;
   * retries until Redis answers, the bus closes or the topic is gone. The caller set `held`.
   */
  async #readLog(name: string, topic: Topic): Promise<void> {
    let missed: LogEntry[];
    for (;;) {
      try {
        missed = readRange(await this.#redis.sendCommand(['XRANGE', topic.log, `(${topic.cursor}`, '+']));
        break;
      } catch (error) {
        if (this.#isClosed || this.#topics.get(name) !== topic) return;
        this.#onError(
          new Error(`Bus topic ${name}: could not read the replay log; trying again`, { cause: error }),
        );
        await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS));
      }
    }
    if (missed.length >= Number(this.#replayLength))
      this.#onError(
        new Error(`Bus topic ${name}: the replay log may have dropped messages this node missed`),
      );
    const held = topic.held ?? [];
    topic.held = undefined;
    for (const entry of missed) this.#deliver(name, topic, entry);
    for (const entry of held) this.#deliver(name, topic, entry);
  }

  #connected(): Promise<RedisSubscriber> {
    this.#subscriber ??= (async () => {
      const subscriber = this.#redis.duplicate() as RedisSubscriber;
      subscriber.on('error', this.#onError);
      // Back from a reconnect (a client's connection, or one of a cluster's nodes), resubscribed:
      // node-redis does so before `ready`.
      subscriber.on('ready', () => this.#catchUp());
      subscriber.on('node-ready', () => this.#catchUp());
      await subscriber.connect();
      if (this.#catchUpIntervalMs > 0 && !this.#isClosed) {
        this.#catchUpTimer = setInterval(() => this.#catchUp(), this.#catchUpIntervalMs);
        this.#catchUpTimer.unref();
      }
      return subscriber;
    })();
    return this.#subscriber;
  }
}
