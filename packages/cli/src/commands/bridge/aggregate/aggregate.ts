// Several servers as one: a library Server definition whose list handlers merge the upstreams'
// listings under aggregate names and whose call/get/read/complete handlers route to the owner.

import { MetaKey, type Channel, type JsonObject, type LoggingLevel, type ServerCapabilities } from 'mcpwire';
import { ErrorCode, RpcError } from 'mcpwire/client';
import {
  isLevelEnabled,
  Server,
  type Middleware,
  type RequestContext,
  type ServerSession,
} from 'mcpwire/server';
import { PACKAGE_VERSION } from '../../../package-info.ts';
import { toTerminalText } from '../../../terminal/terminal-text.ts';
import { nameAll, type Origin } from './naming.ts';
import type { Listing, Upstream, UpstreamEvents } from './upstream.ts';

/** The 2026-07-28 request envelope, which a forwarded request does not carry. */
const ENVELOPE_KEYS = [
  MetaKey.protocolVersion,
  MetaKey.clientCapabilities,
  MetaKey.clientInfo,
  MetaKey.logLevel,
];

/** The three kinds whose items get aggregate names. */
type NamedKind = 'tools' | 'prompts' | 'templates';

/** How the aggregate is built. */
export interface AggregateOptions {
  /** Which aggregate names are served (`--allow`/`--deny`, name-filter.ts); default all. */
  isServed?: (name: string) => boolean;
  /** Where notes go besides logging-level clients; default stderr, escaped. */
  note?: (text: string) => void;
}

/**
 * The aggregate of `upstreams`. Build it, give its `events` to the upstreams, start them, then call
 * `declare()` once (capabilities are the union of what the live upstreams declared) before serving
 * `server`. Names follow naming.ts; a resource URI listed by several upstreams belongs to the one
 * whose config name sorts first, as does a URI template two of them list.
 */
export class Aggregate {
  readonly events: UpstreamEvents;
  #server: SessionKeepingServer | undefined;
  readonly #upstreams = new Map<string, Upstream>();
  readonly #isServed: (name: string) => boolean;
  readonly #note: (text: string) => void;
  #names: Record<NamedKind, Map<string, Origin>> = {
    tools: new Map(),
    prompts: new Map(),
    templates: new Map(),
  };

  constructor(options: AggregateOptions = {}) {
    this.#isServed = options.isServed ?? (() => true);
    this.#note =
      options.note ?? ((text) => process.stderr.write(`mcpwire bridge: ${toTerminalText(text)}\n`));
    this.events = {
      changed: (upstream, before) => this.#changed(upstream, before),
      log: (upstream, level, data, logger) => this.#log(level, data, logger),
    };
  }

  /** Adds an upstream (before `declare`). */
  add(upstream: Upstream): void {
    this.#upstreams.set(upstream.name, upstream);
  }

  /** The Server definition, made on first call with the live upstreams' capabilities joined. */
  get server(): Server {
    return (this.#server ??= this.#createServer());
  }

  /** The aggregate name of every tool now served, in listing order (for tests and notes). */
  get toolNames(): string[] {
    return [...this.#names.tools.keys()];
  }

  #createServer(): SessionKeepingServer {
    const server = new SessionKeepingServer(
      { name: 'mcpwire-bridge', title: 'mcpwire bridge (several servers as one)', version: PACKAGE_VERSION },
      { capabilities: this.#capabilities(), onError: (error) => this.#note(error.message) },
    );
    server.use(this.#middleware());
    this.#rename();
    return server;
  }

  /**
   * The union of the live upstreams' tools, prompts, resources (no subscribe: updates are not
   * routed) and completions, each kind with listChanged (the aggregate sends it when an upstream
   * changes, dies or returns). Logging is always declared (the aggregate's own notes).
   */
  #capabilities(): ServerCapabilities {
    const declared: ServerCapabilities = {};
    for (const upstream of this.#upstreams.values()) {
      if (!upstream.isLive) continue;
      const caps = upstream.capabilities;
      if (caps.tools) declared.tools = { listChanged: true };
      if (caps.prompts) declared.prompts = { listChanged: true };
      if (caps.resources) declared.resources = { listChanged: true };
      if (caps.completions) declared.completions = {};
    }
    return declared;
  }

  /** The upstreams in the order their config names sort: the order of listings and of ownership. */
  #sorted(): Upstream[] {
    return [...this.#upstreams.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Recomputes the names of every kind over every upstream's last known listing (a down one's
   * included, so names stay put while it is down), the filter applied after naming.
   */
  #rename(): void {
    const origins = (pick: (listing: Listing) => ReadonlyArray<{ name: string }>): Origin[] =>
      this.#sorted().flatMap((upstream) =>
        pick(upstream.known).map((item) => ({ server: upstream.name, name: item.name })),
      );
    const served = (all: Map<string, Origin>): Map<string, Origin> =>
      new Map([...all].filter(([name]) => this.#isServed(name)));
    this.#names = {
      tools: served(nameAll(origins((listing) => listing.tools))),
      prompts: served(nameAll(origins((listing) => listing.prompts))),
      templates: served(nameAll(origins((listing) => listing.templates))),
    };
  }

  #changed(upstream: Upstream, before: Listing): void {
    this.#rename();
    const after = upstream.listing;
    const server = this.#server;
    if (server === undefined) return;
    // One list_changed per kind that really changed (an upstream's change to one kind, or all of
    // them when it died or came back).
    if (JSON.stringify(before.tools) !== JSON.stringify(after.tools)) server.relayListChanged('tools');
    if (JSON.stringify(before.prompts) !== JSON.stringify(after.prompts)) server.relayListChanged('prompts');
    if (
      JSON.stringify(before.resources) !== JSON.stringify(after.resources) ||
      JSON.stringify(before.templates) !== JSON.stringify(after.templates)
    )
      server.relayListChanged('resources');
  }

  /** Notes on stderr (the bridge's own) and, for every client that set a level, `notifications/message`. */
  #log(level: LoggingLevel, data: unknown, logger: string): void {
    if (logger === 'mcpwire-bridge') this.#note(String(data));
    const sessions = this.#server?.sessions ?? new Set();
    for (const session of sessions) {
      const threshold = session.logLevel;
      if (threshold === undefined || !isLevelEnabled(level, threshold)) continue;
      session
        .sendNotification('notifications/message', { level, logger, data: data as JsonObject })
        .catch(() => sessions.delete(session));
    }
  }

  #middleware(): Middleware {
    // async: a routing error thrown below becomes a rejection, so the client gets it as a response.
    return async ({ method, params, ctx }, next) => {
      switch (method) {
        case 'tools/list':
          return { tools: this.#list('tools', (listing) => listing.tools) };
        case 'prompts/list':
          return { prompts: this.#list('prompts', (listing) => listing.prompts) };
        case 'resources/templates/list':
          return { resourceTemplates: this.#list('templates', (listing) => listing.templates) };
        case 'resources/list':
          return { resources: this.#resources() };
        case 'tools/call':
        case 'prompts/get':
          return this.#routeNamed(method, params, ctx);
        case 'resources/read':
          return this.#forward(this.#ownerOfUri(String(params.uri)), method, params, ctx);
        case 'completion/complete':
          return this.#complete(params, ctx);
        case 'logging/setLevel':
          // The upstreams log at the client's level too (their messages are passed on, tagged).
          for (const upstream of this.#upstreams.values())
            void upstream
              .run(ctx, (client) => client.setLoggingLevel({ level: params.level as LoggingLevel }))
              .catch(() => {});
          return next();
        default:
          return next();
      }
    };
  }

  /** The served items of a kind, renamed, in upstream order then the upstream's own order. */
  #list<T extends { name: string }>(kind: NamedKind, pick: (listing: Listing) => readonly T[]): T[] {
    const nameOf = new Map([...this.#names[kind]].map(([name, origin]) => [keyOf(origin), name]));
    const items: T[] = [];
    for (const upstream of this.#sorted())
      for (const item of pick(upstream.listing)) {
        const name = nameOf.get(keyOf({ server: upstream.name, name: item.name }));
        if (name !== undefined) items.push({ ...item, name });
      }
    return items;
  }

  /** Every upstream's resources, URIs unchanged; a URI two upstreams list appears once (its owner's). */
  #resources(): JsonObject[] {
    const seen = new Set<string>();
    const resources: JsonObject[] = [];
    for (const upstream of this.#sorted())
      for (const resource of upstream.listing.resources)
        if (!seen.has(resource.uri)) {
          seen.add(resource.uri);
          resources.push(resource as unknown as JsonObject);
        }
    return resources;
  }

  #routeNamed(
    method: 'tools/call' | 'prompts/get',
    params: JsonObject,
    ctx: RequestContext,
  ): Promise<JsonObject> {
    const kind = method === 'tools/call' ? 'tools' : 'prompts';
    const origin = this.#names[kind].get(String(params.name));
    if (origin === undefined)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `unknown ${kind === 'tools' ? 'tool' : 'prompt'} "${String(params.name)}" (the bridge serves names such as <server>__<name>, see tools/list)`,
      );
    return this.#forward(this.#upstreams.get(origin.server)!, method, { ...params, name: origin.name }, ctx);
  }

  /**
   * The upstream a URI belongs to: the first (by config name) that lists it as a resource, else
   * the owner of the template with the longest literal start the URI begins with.
   */
  #ownerOfUri(uri: string): Upstream {
    for (const upstream of this.#sorted())
      if (upstream.listing.resources.some((resource) => resource.uri === uri)) return upstream;
    let best: { upstream: Upstream; length: number } | undefined;
    for (const [, origin] of this.#names.templates) {
      const upstream = this.#upstreams.get(origin.server)!;
      for (const template of upstream.listing.templates) {
        // Only a live upstream's templates (its listing is empty while down).
        if (template.name !== origin.name) continue;
        const literal = template.uriTemplate.split('{')[0]!;
        if (!uri.startsWith(literal)) continue;
        // The longest literal start wins; on a tie, the upstream whose name sorts first.
        const isBetter =
          best === undefined ||
          literal.length > best.length ||
          (literal.length === best.length && upstream.name < best.upstream.name);
        if (isBetter) best = { upstream, length: literal.length };
      }
    }
    if (best !== undefined) return best.upstream;
    throw new RpcError(
      -32_002,
      `Resource not found: no upstream server lists "${uri}" or a template it matches`,
      {
        uri,
      },
    );
  }

  #complete(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const ref = params.ref as { type?: string; name?: string; uri?: string };
    if (ref.type === 'ref/prompt') {
      const origin = this.#names.prompts.get(String(ref.name));
      if (origin === undefined)
        throw new RpcError(ErrorCode.InvalidParams, `unknown prompt "${String(ref.name)}"`);
      const ownRef = { ...ref, name: origin.name };
      return this.#forward(
        this.#upstreams.get(origin.server)!,
        'completion/complete',
        { ...params, ref: ownRef },
        ctx,
      );
    }
    return this.#forward(this.#ownerOfUri(String(ref.uri)), 'completion/complete', params, ctx);
  }

  /** Sends the request to `upstream` (progress and cancellation carried both ways). */
  #forward(upstream: Upstream, method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const { _meta: meta, ...rest } = params as JsonObject & { _meta?: JsonObject };
    // The client sets its own progress token, and a 2026-07-28 request's envelope describes the
    // downstream request, not the upstream connection (a handshake-era one refuses it): both are
    // left out; the rest of _meta passes as it came.
    const { progressToken, ...otherMeta } = meta ?? {};
    for (const key of ENVELOPE_KEYS) delete otherMeta[key];
    const forwarded: JsonObject = Object.keys(otherMeta).length === 0 ? rest : { ...rest, _meta: otherMeta };
    return upstream.run(ctx, (client) =>
      client.request(method, forwarded, {
        signal: ctx.signal,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: ({ progress, total, message }) =>
                void ctx
                  .sendProgress(progress, {
                    ...(total === undefined ? {} : { total }),
                    ...(message === undefined ? {} : { message }),
                  })
                  .catch(() => {}),
            }),
      }),
    );
  }
}

/**
 * The library Server, keeping each handshake-era session it opens (stdio's one host, or each HTTP
 * session) so the aggregate's notes reach the clients that set a level. A session is dropped once
 * a send to it fails (the library tells no one when a session ends).
 */
class SessionKeepingServer extends Server {
  readonly sessions = new Set<ServerSession>();

  override connect(channel: Channel): ServerSession {
    const session = super.connect(channel);
    this.sessions.add(session);
    return session;
  }
}

function keyOf({ server, name }: Origin): string {
  return `${server}\u0000${name}`;
}
