// What a Client takes of an extension (`new Client(info, { extensions: [...] })`): the settings it
// declares under `capabilities.extensions` (S26-EXT-2: per request in the stateless era), and the
// optional hooks an extension needs to act on the client's side of the wire.

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Extension } from '../protocol/extension.ts';
import type { ClientCapabilities } from '../protocol/types/index.ts';
import type { ClientMiddleware } from './middleware.ts';

/** The client side of an extension. */
export interface ClientExtensionPart {
  /** The settings object under `capabilities.extensions[id]` (`{}` for none). */
  settings(): JsonObject;
  /**
   * Core capability keys the extension adds when the client speaks `version` (e.g. a handshake-era
   * feature that predates `extensions`), merged over the derived ones; the app's `capabilities` win.
   */
  capabilities?(version: string): ClientCapabilities;
  /**
   * Wraps every request in both directions, inside the app's middleware (as a handler would be), so
   * it can answer the extension's inbound methods itself, or run an inbound request differently.
   */
  readonly middleware?: ClientMiddleware;
  /**
   * Stateless era: `resultType`s besides `complete` and `input_required` the extension accepts, per
   * method (e.g. `task` for `tools/call`); such results are returned as received. Other values stay
   * invalid results (S26-BASE-4).
   */
  readonly resultTypes?: Readonly<Record<string, readonly string[]>>;
}

/** An extension a Client can take. Its methods join the client's method table. */
export type ClientExtension = Extension<unknown, ClientExtensionPart>;
