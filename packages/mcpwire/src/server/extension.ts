// What a Server takes of an extension (`new Server(info, { extensions: [...] })`): handlers for the
// extension's methods, the settings it declares under `capabilities.extensions`, and registrations.

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Extension } from '../protocol/extension.ts';
import type { ServerCapabilities } from '../protocol/types/index.ts';
import type { ListenFeed } from './listen-feed.ts';
import type { PlainHandler, ServerMethodHandler } from './method-handlers.ts';
import type { Registration } from './registry.ts';
import type { ResourceDefinition, ResourceHandler } from './resources.ts';
import type { Tools } from './tools.ts';

/** What an extension may do to the Server that takes it, once, at construction. */
export interface ExtensionHost {
  resource(definition: ResourceDefinition, handler: ResourceHandler): Registration<ResourceDefinition>;
  /**
   * The server's tools, to read a registration (e.g. its `_meta`) while serving a request, and to
   * call one outside any request (a task re-run after its worker died, tasks()).
   */
  readonly tools: Pick<Tools, 'registry' | 'call'>;
}

/** The server side of an extension. */
export interface ServerExtensionPart {
  /** One handler per method the extension describes that a client sends; served behind middleware. */
  readonly handlers: Readonly<Record<string, ServerMethodHandler>>;
  /** The settings object under `capabilities.extensions[id]` (`{}` for none); read when capabilities are. */
  settings(): JsonObject;
  /** Core capabilities the extension depends on (S26-SKILL-1: skills need `resources`), declared with it. */
  readonly requires?: ServerCapabilities;
  /** Registers what the extension serves through core features (resources, tools), once per Server. */
  attach?(host: ExtensionHost): void;
  /**
   * Wrappers of core handlers, by method: each gets the handler it replaces (`next`) and returns the
   * one the Server serves, behind middleware, in both eras. Only the wrapped methods pay for it: a
   * wrapper that passes a request on should call `next` directly (no await, no allocation).
   */
  readonly wraps?: Readonly<Record<string, (next: ServerMethodHandler) => ServerMethodHandler>>;
  /**
   * The same wrappers for the serve path's fast path (PLAIN_HANDLERS), by method: each gets a `next`
   * that may answer with a plain value instead of a promise, and must behave exactly as its `wraps`
   * entry otherwise (same checks, same errors, a plain value only where `next` gave one). A wrapped
   * method without one here always takes the promise path.
   */
  readonly plainWraps?: Readonly<Record<string, (next: PlainHandler) => PlainHandler>>;
  /**
   * Core capability keys declared only in one revision (`initialize` of a handshake-era one, e.g. a
   * feature the stateless era moved into `extensions`), merged under the derived ones.
   */
  capabilities?(version: string): ServerCapabilities | undefined;
  /** Notification kinds it adds to stateless-era `subscriptions/listen` streams, each under its filter key. */
  readonly listen?: readonly ListenFeed[];
}

/** An extension a Server can take. */
export type ServerExtension = Extension<ServerExtensionPart, unknown>;
