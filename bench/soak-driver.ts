// One soak driver: a client of one era over one transport, living a series of client lives (connect,
// run the mix on a few concurrent lanes, end by a kill of the server or a close), until told to stop.

import { setTimeout as delay } from 'node:timers/promises';
import { Client, type Channel } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { toOutcome, type Ledger } from './soak-ledger.ts';
import { createReportReader, type MemorySample } from './soak-memory.ts';
import {
  checkExactNotifications,
  ELICITED_NAME,
  runRandomOperation,
  type LifeState,
  type MixCounters,
} from './soak-operations.ts';

/** Which client a driver runs. */
export interface DriverSpec {
  era: 'handshake' | 'stateless';
  transport: 'stdio' | 'http';
}

/** What every driver shares. */
export interface DriverContext {
  ledger: Ledger;
  random: () => number;
  counters: MixCounters & { lives: number; serverKills: number; clientErrors: Record<string, number> };
  /** The endpoint through the fault proxy. */
  httpUrl: string;
  /** How to start one stdio server (it reports its memory on stderr). */
  stdioServer: { command: string; args: string[]; cwd: string };
  onStdioSample(sample: MemorySample): void;
  /** How long a client life lasts, in ms: a random value in this range. */
  lifeMs: readonly [number, number];
  /** Concurrent operations per client. */
  lanes: number;
  /** The pause between one lane's operations, in ms (a random value up to this). */
  pauseMs: number;
}

const PROTOCOL_VERSION = { handshake: '2025-11-25', stateless: '2026-07-28' } as const;
/** Requests that hang this long fail as timeouts; far above any operation of the mix. */
const REQUEST_TIMEOUT_MS = 15_000;
/**
 * The share of stdio lives that end with a SIGKILL of the server at a random moment. A driver's first
 * stdio life always does: a short soak on a loaded machine may have only a few lives per driver, and
 * with chance alone it could inject no kill at all (seen once in CI: 0 kills in 25 s).
 */
const KILL_SHARE = 0.6;

/** A driver: `run` resolves once `stop` aborted and its last life has drained and closed. */
export class SoakDriver {
  readonly name: string;
  /** Whether a kill was scheduled yet (the first stdio life always gets one). */
  #hasKilled = false;
  readonly #spec: DriverSpec;
  readonly #context: DriverContext;

  constructor(spec: DriverSpec, context: DriverContext) {
    this.#spec = spec;
    this.#context = context;
    this.name = `${spec.era === 'handshake' ? '2025-11-25' : '2026-07-28'}/${spec.transport}`;
  }

  /** Lives one client after another until `stop` aborts. */
  async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      const isLived = await this.#live(stop);
      if (!isLived && !stop.aborted) await delay(250);
    }
  }

  async #live(stop: AbortSignal): Promise<boolean> {
    const { ledger, random, counters } = this.#context;
    const lifeId = ledger.begin('connect', this.name);
    const client = this.#createClient();
    let pid: number | undefined;
    let needles: readonly string[] = [];
    try {
      const channel = await this.#openChannel();
      pid = channel.info?.pid;
      await client.connect(channel);
      needles = this.#needlesOf(channel);
      ledger.settle(lifeId, 'result');
    } catch (error) {
      ledger.settle(lifeId, toOutcome(error), error);
      await client.close().catch(() => {});
      return false;
    }
    counters.lives++;
    const life = this.#lifeState(client, lifeId, needles);
    const end = new AbortController();
    const [low, high] = this.#context.lifeMs;
    const lifeMs = low + random() * (high - low);
    const timers = [setTimeout(() => end.abort(), lifeMs)];
    if (pid !== undefined && (!this.#hasKilled || random() < KILL_SHARE)) {
      this.#hasKilled = true;
      timers.push(setTimeout(() => this.#kill(pid), random() * lifeMs));
    }
    const onStop = (): void => end.abort();
    stop.addEventListener('abort', onStop);
    client.on('close', () => end.abort());
    await this.#listen(life);
    await Promise.all(Array.from({ length: this.#context.lanes }, () => this.#lane(life, end.signal)));
    for (const timer of timers) clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
    // Over stdio the server writes in order: a final answer means every earlier event has arrived.
    const isSettled = this.#spec.transport === 'stdio' && (await this.#finalRoundTrip(life));
    await client.close().catch(() => {});
    if (this.#spec.transport === 'stdio') checkExactNotifications(life, isSettled);
    return true;
  }

  async #finalRoundTrip(life: LifeState): Promise<boolean> {
    // tools/list rather than ping: 2026-07-28 has no ping.
    const answer = await life.ledger.track(
      'final tools/list',
      this.name,
      (id) => life.client.listTools(undefined, { onRequestId: (rid) => life.ledger.noteRequestId(id, rid) }),
      life.needles,
    );
    return answer !== undefined;
  }

  async #lane(life: LifeState, end: AbortSignal): Promise<void> {
    while (!end.aborted) {
      await runRandomOperation(life, this.#context.counters);
      await delay(Math.floor(this.#context.random() * this.#context.pauseMs));
    }
  }

  /** Stateless era: notifications need a `subscriptions/listen` stream; handshake era: a subscription. */
  async #listen(life: LifeState): Promise<void> {
    const { client, ledger } = life;
    if (this.#spec.era === 'handshake') {
      await ledger.track('resources/subscribe', this.name, async () => {
        await client.subscribeResource({ uri: 'test://watched-resource' });
        life.isListening = true;
      });
      return;
    }
    await ledger.track('subscriptions/listen', this.name, async () => {
      const subscription = client.listen({
        toolsListChanged: true,
        resourceSubscriptions: ['test://watched-resource'],
      });
      await subscription.acknowledged;
      life.isListening = true;
      // A listen stream that ends (its connection was cut) stops the exact count of this life.
      void subscription.closed.then(() => (life.isListening = false));
    });
  }

  /** What marks this life's requests in the proxy's log: the session id, or the stateless era's version. */
  #needlesOf(channel: Channel): readonly string[] {
    if (this.#spec.transport !== 'http') return [];
    if (this.#spec.era === 'stateless') return [`v=${PROTOCOL_VERSION.stateless}`];
    const sessionId = channel.info?.sessionId;
    return sessionId === undefined ? [] : [`s=${sessionId}`];
  }

  #lifeState(client: Client, lifeId: number, needles: readonly string[]): LifeState {
    const life: LifeState = {
      client,
      driver: this.name,
      era: this.#spec.era,
      ledger: this.#context.ledger,
      random: this.#context.random,
      lifeId,
      needles,
      isListening: false,
      triggers: { succeeded: 0, failed: 0, events: 0 },
      updates: { succeeded: 0, failed: 0, events: 0 },
    };
    client.on('toolsListChanged', () => life.triggers.events++);
    client.on('resourceUpdated', () => life.updates.events++);
    return life;
  }

  #createClient(): Client {
    const { counters } = this.#context;
    return new Client(
      { name: `soak ${this.name}`, version: '0.0.0' },
      {
        era: this.#spec.era,
        protocolVersion: PROTOCOL_VERSION[this.#spec.era],
        eraCache: false,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        roots: [{ uri: 'file:///soak', name: 'soak' }],
        handlers: {
          elicitation: () => {
            counters.elicitationsAnswered++;
            return { action: 'accept', content: { name: ELICITED_NAME } };
          },
        },
        onError: (error) => this.#countError(error),
      },
    );
  }

  #openChannel(): Promise<Channel> {
    if (this.#spec.transport === 'http') {
      const transport = new StreamableHttpClientTransport(this.#context.httpUrl, {
        reconnection: { initialDelayMs: 100, maxDelayMs: 1000, maxAttempts: 5 },
        onError: (error) => this.#countError(error),
      });
      return transport.connect();
    }
    const { command, args, cwd } = this.#context.stdioServer;
    const read = createReportReader((sample) => this.#context.onStdioSample(sample));
    return new StdioClientTransport({ command, args, cwd, stderr: read, shutdownTimeoutMs: 1000 }).connect();
  }

  #kill(pid: number): void {
    try {
      // The server leads its own process group (StdioClientTransport spawns it detached).
      process.kill(-pid, 'SIGKILL');
      this.#context.counters.serverKills++;
    } catch {
      // Already gone: the life ended first.
    }
  }

  #countError(error: Error): void {
    const key = `${error.name}: ${error.message.replace(/\d+/g, 'N').slice(0, 100)}`;
    const errors = this.#context.counters.clientErrors;
    errors[key] = (errors[key] ?? 0) + 1;
  }
}
