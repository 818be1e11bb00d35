// A library server definition whose feature requests are answered by a library Client connected to
// another server: a generic building block of the bridges (here, the 2026-07-28 front of era-front.ts).
// The library serves the era of the request (the 2026-07-28 envelope, `server/discover`, caching
// hints, `subscriptions/listen`, per-request log levels); one middleware passes each feature
// request to `forward`, and the upstream's list changes and resource updates feed listen streams.

import type { JsonObject, ServerCapabilities } from 'mcpwire';
import type { Client } from 'mcpwire/client';
import { ServerCore, type RequestContext, type ServerExtension } from 'mcpwire/server';
import { passedThroughExtensions } from './forwarded-extensions.ts';

/** Requests answered upstream; any other (ping, server/discover, subscriptions/listen) is the library's. */
const FORWARDED = new Set([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

type ListKind = 'tools' | 'prompts' | 'resources';

/** How a forwarded request reaches the upstream. */
export type Forward = (method: string, params: JsonObject, ctx: RequestContext) => Promise<JsonObject>;

const changeListeners = new WeakMap<object, Set<(kind: ListKind) => void>>();

/**
 * A ServerCore that declares what `client`'s server declared (its info, instructions, capabilities
 * and the extensions passed through, less what a forwarder cannot serve) and answers feature
 * requests with `forward`. `client` must know the passed-through extensions' methods
 * (`passedThroughClientExtensions()`).
 */
export class ForwardingServer extends ServerCore {
  /** `extensions`: more the forwarder serves itself (the tasks translated for 2026-07-28 clients). */
  constructor(client: Client, forward: Forward, extensions: readonly ServerExtension[] = []) {
    super(client.serverInfo ?? { name: 'upstream', version: '0' }, {
      ...(client.instructions === undefined ? {} : { instructions: client.instructions }),
      capabilities: forwardedCapabilities(client.serverCapabilities ?? {}),
      // Extensions whose methods mean the same in both eras (skills) pass on as they are.
      extensions: [...passedThroughExtensions(client.serverCapabilities ?? {}, forward), ...extensions],
    });
    this.use(({ method, params, ctx }, next) =>
      FORWARDED.has(method) ? forward(method, params, ctx) : next(),
    );
    client.on('toolsListChanged', () => this.#listChanged('tools'));
    client.on('promptsListChanged', () => this.#listChanged('prompts'));
    client.on('resourcesListChanged', () => this.#listChanged('resources'));
  }

  /** List changes of the upstream too (listen streams subscribe here). */
  override onListChanged(listener: (kind: ListKind) => void): () => void {
    const off = super.onListChanged(listener);
    let listeners = changeListeners.get(this);
    if (listeners === undefined) changeListeners.set(this, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      off();
      listeners.delete(listener);
    };
  }

  #listChanged(kind: ListKind): void {
    for (const listener of changeListeners.get(this) ?? []) listener(kind);
  }
}

/**
 * The upstream's capabilities a forwarder serves: tools, prompts, resources (without `subscribe`:
 * subscriptions are not forwarded), completions, logging and experimental; not the 2025-11-25
 * `tasks`, which the 2026-07-28 era moved into an extension.
 */
function forwardedCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  const declared: ServerCapabilities = {};
  if (upstream.tools) declared.tools = { ...upstream.tools };
  if (upstream.prompts) declared.prompts = { ...upstream.prompts };
  if (upstream.resources) {
    const { subscribe: _, ...resources } = upstream.resources;
    declared.resources = resources;
  }
  if (upstream.completions) declared.completions = { ...upstream.completions };
  if (upstream.logging) declared.logging = { ...upstream.logging };
  if (upstream.experimental) declared.experimental = { ...upstream.experimental };
  return declared;
}
