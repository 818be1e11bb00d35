// The processes of the multi-node soak (issue 24, point 4): one persisted redis-server (appendonly,
// so the sessions it stored survive its restart), `count` `mcpwire serve everything --http <port>
// --redis <url>` nodes on fixed ports, and a real HAProxy in round-robin in front of them. A node can
// be SIGKILLed and restarted on its port, Redis stopped and restarted on its port.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { cliChildEnv, MCPWIRE_ARGV } from '../test/support/cli-child.ts';
import { freePort } from '../test/support/free-port.ts';
import { startHaproxy, type Haproxy } from '../test/support/redis-nodes.ts';
import { REDIS_SERVER_PATH } from '../test/support/redis-server.ts';
import { createReportReader, type MemorySample } from './soak-memory.ts';

const REPORTER = join(import.meta.dirname, 'soak-node-reporter.ts');
/** How long a process may take to listen: a node from source took over 60 s on this machine at load 45. */
const START_TIMEOUT_MS = 180_000;

/** One node slot: a fixed port, and the process of its current life. */
interface NodeSlot {
  readonly name: string;
  readonly port: number;
  /** 1 for the first process on this port, 2 after the first restart, ... */
  life: number;
  child: ChildProcess;
  /** The last few KiB the node wrote on stderr (not its memory reports), for a failure report. */
  tail: string;
}

/** Options of {@link Fleet.start}. */
export interface FleetOptions {
  count: number;
  sampleMs: number;
  /** Each memory report of a node life, keyed `node2#3` (node 2's third process). */
  onSample(series: string, sample: MemorySample): void;
}

/** Waits until `child` wrote `ready` on `stream` (text so far is given), or fails when it exits first or takes too long. */
function waitForLine(
  child: ChildProcess,
  what: string,
  isReady: () => boolean,
  onText: (listener: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const onExit = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}) before it was ready`));
    };
    child.once('exit', onExit);
    onText(() => {
      if (!isReady()) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve();
    });
  });
}

/** The processes of one multi-node soak; `close` stops them all. */
export class Fleet {
  readonly #options: FleetOptions;
  readonly #dir: string;
  readonly #redisPort: number;
  #redis: ChildProcess | undefined;
  readonly #slots: NodeSlot[] = [];
  #proxy: Haproxy | undefined;

  private constructor(options: FleetOptions, dir: string, redisPort: number) {
    this.#options = options;
    this.#dir = dir;
    this.#redisPort = redisPort;
  }

  /** Starts Redis, the nodes, then HAProxy; rejects (having stopped what started) when one fails. */
  static async start(options: FleetOptions): Promise<Fleet> {
    const fleet = new Fleet(options, await mkdtemp(join(tmpdir(), 'mcpwire-soak-nodes-')), await freePort());
    try {
      await fleet.#startRedis();
      for (let index = 1; index <= options.count; index++) {
        const port = await freePort();
        const slot: NodeSlot = { name: `node${index}`, port, life: 0, child: undefined as never, tail: '' };
        fleet.#slots.push(slot);
        await fleet.#startNode(slot);
      }
      // A connection refused by a killed node is retried on another one, as a load balancer in front
      // of nodes that come and go would be configured; a request already sent is not.
      fleet.#proxy = await startHaproxy(
        fleet.#slots.map((slot) => `http://127.0.0.1:${slot.port}/mcp`),
        { backendLines: ['  retries 3', '  option redispatch 1'] },
      );
      return fleet;
    } catch (error) {
      await fleet.close();
      throw error;
    }
  }

  /** The MCP endpoint through HAProxy. */
  get url(): string {
    return this.#proxy!.url;
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.#redisPort}`;
  }

  /** The node names (`node1`...). */
  get nodeNames(): string[] {
    return this.#slots.map((slot) => slot.name);
  }

  async #startRedis(): Promise<void> {
    const args = ['--port', String(this.#redisPort), '--bind', '127.0.0.1', '--dir', this.#dir];
    // Persisted: every write goes to the append-only file, which a restart replays.
    args.push('--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec');
    const child = spawn(REDIS_SERVER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const listeners: Array<() => void> = [];
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding('utf8').on('data', (text: string) => {
        output = (output + text).slice(-8192);
        for (const listener of listeners) listener();
      });
    this.#redis = child;
    await waitForLine(
      child,
      'redis-server',
      () => output.includes('Ready to accept connections'),
      (l) => listeners.push(l),
    );
  }

  /** Stops Redis (SIGTERM: it flushes its append-only file), waits `downMs`, starts it again on its port. */
  async restartRedis(downMs: number): Promise<void> {
    await stop(this.#redis, 'SIGTERM');
    await delay(downMs);
    await this.#startRedis();
  }

  async #startNode(slot: NodeSlot): Promise<void> {
    slot.life++;
    const series = `${slot.name}#${slot.life}`;
    const argv = [...MCPWIRE_ARGV.slice(1, -1), '--expose-gc', `--import=${REPORTER}`, MCPWIRE_ARGV.at(-1)!];
    const args = [...argv, 'serve', 'everything', '--http', String(slot.port), '--redis', this.redisUrl];
    const env = cliChildEnv({ NO_COLOR: '1', SOAK_SAMPLE_MS: String(this.#options.sampleMs) });
    const child = spawn(MCPWIRE_ARGV[0]!, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    slot.child = child;
    slot.tail = '';
    let isListening = false;
    const listeners: Array<() => void> = [];
    const read = createReportReader(
      (sample) => this.#options.onSample(series, sample),
      (line) => {
        slot.tail = `${slot.tail}${line}\n`.slice(-4096);
        if (line.includes('serving MCP over Streamable HTTP at')) isListening = true;
        for (const listener of listeners) listener();
      },
    );
    child.stderr!.setEncoding('utf8').on('data', read);
    try {
      await waitForLine(
        child,
        `${series} (port ${slot.port})`,
        () => isListening,
        (l) => listeners.push(l),
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}:\n${slot.tail}`);
    }
  }

  /** SIGKILLs node `index` (0-based), waits `downMs`, starts a new process on the same port; resolves with its name. */
  async killAndRestart(index: number, downMs: number): Promise<string> {
    const slot = this.#slots[index]!;
    await stop(slot.child, 'SIGKILL');
    await delay(downMs);
    await this.#startNode(slot);
    return slot.name;
  }

  /** Stops the proxy, the nodes, then Redis, and removes Redis's directory; idempotent. */
  async close(): Promise<void> {
    await this.#proxy?.[Symbol.asyncDispose]();
    this.#proxy = undefined;
    for (const slot of this.#slots) await stop(slot.child, 'SIGTERM');
    await stop(this.#redis, 'SIGTERM');
    await rm(this.#dir, { recursive: true, force: true });
  }
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
