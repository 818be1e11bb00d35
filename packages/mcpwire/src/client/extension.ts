// What a Client takes of an extension (`new Client(info, { extensions: [...] })`): the settings it
// declares under `capabilities.extensions` (S26-EXT-2: per request in the stateless era).

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Extension } from '../protocol/extension.ts';

/** The client side of an extension. */
export interface ClientExtensionPart {
  /** The settings object under `capabilities.extensions[id]` (`{}` for none). */
  settings(): JsonObject;
}

/** An extension a Client can take. Its methods join the client's method table. */
export type ClientExtension = Extension<unknown, ClientExtensionPart>;
