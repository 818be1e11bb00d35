// One server behind the aggregate: its library Client (opened from a host config entry as every
// command opens one), its listings, its death and its restart with backoff.

import type { Client, ClientHandlers } from 'mcpwire/client';
import { ErrorCode, RpcError } from 'mcpwire/client';
import type { LoggingLevel, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from 'mcpwire';
import type { RequestContext } from 'mcpwire/server';
import { openClient, type OpenClient } from '../../../target/open-client.ts';
import type { Target } from '../../../target/target.ts';

/** What one upstream lists, all pages read; empty while it is down. */
export interface Listing {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
}

const EMPTY: Listing = { tools: [], prompts: [], resources: [], templates: [] };

/** The first restart waits this long; each failed one doubles it, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 500;
/** The longest wait between two restarts of a dead upstream. */
export const MAX_BACKOFF_MS = 30_000;

/** How long an upstream has to answer initialize, and each request the aggregate forwards. */
export const UPSTREAM_TIMEOUT_MS = 60_000;

/** What an upstream tells the aggregate. */
export interface UpstreamEvents {
  /** Its listing changed: refreshed after its list_changed, emptied when it died, filled when it came back. */
  changed(upstream: Upstream, before: Listing): void;
  /** A `notifications/message` it sent, or a note about it (`data` text). */
  log(upstream: Upstream, level: LoggingLevel, data: unknown, logger: string): void;
}

/**
 * A server of the config. `start` connects it (handshake era, so that its list_changed
 * notifications arrive); when its connection ends it is down: its listing is emptied, its calls
 * still in flight are answered with an error naming it, and it is started again after 0.5 s, 1 s,
 * 2 s, ... 30 s at most (the wait starts over once it answered). Disposing it stops all of this.
 */
export class Upstream implements AsyncDisposable {
  readonly name: string;
  readonly #target: Target;
  readonly #events: UpstreamEvents;
  #open: OpenClient | undefined;
  #listing: Listing = EMPTY;
  #known: Listing = EMPTY;
  #capabilities: ServerCapabilities = {};
  /** The downstream requests this upstream is serving now, newest last. */
  readonly #inFlight: RequestContext[] = [];
  #backoffMs = FIRST_BACKOFF_MS;
  #timer: NodeJS.Timeout | undefined;
  #isDisposed = false;

  constructor(name: string, target: Target, events: UpstreamEvents) {
    this.name = name;
    this.#target = target;
    this.#events = events;
  }

  get listing(): Listing {
    return this.#listing;
  }

  /**
   * Its last listing, kept while it is down: names are computed over these, so a name does not
   * change when an upstream dies or returns with the same lists.
   */
  get known(): Listing {
    return this.#known;
  }

  /** What it declared when it last connected ({} before). */
  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  get isLive(): boolean {
    return this.#open !== undefined;
  }

  /** The process id of a stdio upstream while it is live. */
  get pid(): number | undefined {
    return this.#open?.pid;
  }

  /** Connects and lists; resolves true once live, false when it failed (a restart is then scheduled). */
  async start(): Promise<boolean> {
    let open: OpenClient;
    try {
      // 60 s as every command's default --timeout: a server started with npx may be installing.
      open = await openClient(this.#target, {
        era: 'handshake',
        timeoutMs: UPSTREAM_TIMEOUT_MS,
        handlers: this.#handlers(),
      });
    } catch (error) {
      this.#note('error', `cannot start: ${(error as Error).message}`);
      this.#scheduleRestart();
      return false;
    }
    if (this.#isDisposed) {
      await open[Symbol.asyncDispose]();
      return false;
    }
    this.#open = open;
    this.#capabilities = open.client.serverCapabilities ?? {};
    this.#watch(open.client);
    try {
      await this.#refresh(open.client);
    } catch (error) {
      // It connected but cannot list: treated as dead, its connection ended so `close` restarts it.
      this.#note('error', `cannot list: ${(error as Error).message}`);
      await open[Symbol.asyncDispose]();
      return false;
    }
    this.#backoffMs = FIRST_BACKOFF_MS;
    this.#note('info', `live${open.pid === undefined ? '' : ` (pid ${open.pid})`}`);
    return true;
  }

  /**
   * Runs `work` on the upstream's client for the downstream request `ctx` (whose elicitation,
   * sampling and roots requests it forwards). A down upstream, or one that dies meanwhile, gives
   * an RpcError naming it; the upstream's own error responses pass through unchanged.
   */
  async run<T>(ctx: RequestContext, work: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#open?.client;
    if (client === undefined)
      throw new RpcError(ErrorCode.InternalError, `upstream server "${this.name}" is down (restarting)`);
    this.#inFlight.push(ctx);
    try {
      return await work(client);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      if (ctx.signal.aborted) throw error;
      throw new RpcError(
        ErrorCode.InternalError,
        `upstream server "${this.name}" failed: ${(error as Error).message}`,
      );
    } finally {
      this.#inFlight.splice(this.#inFlight.indexOf(ctx), 1);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#isDisposed = true;
    clearTimeout(this.#timer);
    const open = this.#open;
    this.#open = undefined;
    await open?.[Symbol.asyncDispose]();
  }

  /** Server-to-client requests go to the downstream client through the newest request in flight. */
  #handlers(): ClientHandlers {
    return {
      elicitation: (params) => this.#downstream('elicitation/create').elicit(params),
      sampling: (params) => this.#downstream('sampling/createMessage').sample(params),
      roots: async () => (await this.#downstream('roots/list').listRoots()).roots,
    };
  }

  #downstream(method: string): RequestContext {
    const ctx = this.#inFlight.at(-1);
    if (ctx === undefined)
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `${method} reached the mcpwire bridge outside any request of its client; it forwards such requests only while a call is in flight`,
      );
    return ctx;
  }

  #watch(client: Client): void {
    const refresh = (): void => {
      this.#refresh(client).catch((error: unknown) =>
        this.#note('warning', `cannot list after a list change: ${(error as Error).message}`),
      );
    };
    client.on('toolsListChanged', refresh);
    client.on('promptsListChanged', refresh);
    client.on('resourcesListChanged', refresh);
    // Tagged with the upstream's name: `<server>` or `<server>/<its logger>`.
    client.on('log', (params) =>
      this.#events.log(
        this,
        params.level,
        params.data,
        params.logger === undefined ? this.name : `${this.name}/${params.logger}`,
      ),
    );
    client.on('close', ({ error }) => this.#died(client, error));
  }

  async #refresh(client: Client): Promise<void> {
    const declared = client.serverCapabilities ?? {};
    const [tools, prompts, resources, templates] = await Promise.all([
      declared.tools ? client.listAllTools() : [],
      declared.prompts ? client.listAllPrompts() : [],
      declared.resources ? client.listAllResources() : [],
      declared.resources ? client.listAllResourceTemplates() : [],
    ]);
    if (this.#open?.client !== client) return;
    const before = this.#listing;
    this.#listing = { tools, prompts, resources, templates };
    this.#known = this.#listing;
    this.#events.changed(this, before);
  }

  #died(client: Client, error: Error | undefined): void {
    if (this.#isDisposed || this.#open?.client !== client) return;
    const open = this.#open;
    this.#open = undefined;
    const before = this.#listing;
    this.#listing = EMPTY;
    const tail = open.stderrTail().trim().split('\n').at(-1) ?? '';
    const why = error?.message ?? 'its connection closed';
    this.#note(
      'error',
      `down (${why}${tail === '' ? '' : `; last stderr: ${tail}`}); its tools, prompts and resources are withdrawn; restarting in ${this.#backoffMs / 1000} s`,
    );
    this.#events.changed(this, before);
    void open[Symbol.asyncDispose]();
    this.#scheduleRestart();
  }

  #scheduleRestart(): void {
    if (this.#isDisposed) return;
    const wait = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
    this.#timer = setTimeout(() => void this.start(), wait);
  }

  #note(level: LoggingLevel, text: string): void {
    this.#events.log(this, level, `upstream server "${this.name}": ${text}`, 'mcpwire-bridge');
  }
}
