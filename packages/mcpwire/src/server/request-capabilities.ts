// A handshake-era request may narrow, for itself, the client capabilities its handler sees: a bridge
// serving several clients over one connection names the capabilities of the client whose request it
// forwards, so the handler asks only for what that client can answer.

import type { JsonObject } from '../jsonrpc/message.ts';
import type { ClientCapabilities } from '../protocol/types/index.ts';

/**
 * The `_meta` key under which a handshake-era request names the capabilities of the client it was
 * sent for (an object, as in `initialize`). A handler's `ctx.clientCapabilities` is then the
 * connection's capabilities narrowed to the ones named there: never wider than what was negotiated.
 * Any client may set it; a server that does not know it ignores it.
 */
export const CLIENT_CAPABILITIES_META = 'dev.mcpwire/clientCapabilities';

/**
 * The capabilities a handshake-era request's handler sees: the connection's, less those the
 * request's `_meta[CLIENT_CAPABILITIES_META]` does not name (top-level keys; each value stays the
 * connection's). Without that key, the connection's as they are.
 */
export function requestClientCapabilities(
  negotiated: ClientCapabilities,
  meta: JsonObject | undefined,
): ClientCapabilities {
  const named = meta?.[CLIENT_CAPABILITIES_META];
  if (typeof named !== 'object' || named === null || Array.isArray(named)) return negotiated;
  const narrowed: JsonObject = {};
  for (const [name, value] of Object.entries(negotiated as JsonObject)) {
    if (Object.hasOwn(named, name) && value !== undefined) narrowed[name] = value;
  }
  return narrowed as ClientCapabilities;
}
