// What a Server takes of an extension (`new Server(info, { extensions: [...] })`): handlers for the
// extension's methods, the settings it declares under `capabilities.extensions`, and registrations.

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Extension } from '../protocol/extension.ts';
import type { ServerCapabilities } from '../protocol/types/index.ts';
import type { ServerMethodHandler } from './method-handlers.ts';
import type { Registration } from './registry.ts';
import type { ResourceDefinition, ResourceHandler } from './resources.ts';

/** What an extension may do to the Server that takes it, once, at construction. */
export interface ExtensionHost {
  resource(definition: ResourceDefinition, handler: ResourceHandler): Registration<ResourceDefinition>;
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
}

/** An extension a Server can take. */
export type ServerExtension = Extension<ServerExtensionPart, unknown>;
