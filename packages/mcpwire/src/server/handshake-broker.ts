// Handshake-era input: a handler's elicit/sample/listRoots become real server->client requests,
// checked against the client's negotiated capabilities and sub-flags first.

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import { CapabilityNotNegotiatedError, hasCapability } from '../protocol/capabilities.ts';
import type { Session } from '../protocol/session.ts';
import { adaptElicitationForRevision, adaptSamplingForRevision } from '../protocol/downgrade.ts';
import type { InputBroker, InputMethod } from './context.ts';

/**
 * The `_meta` key under which a handshake-era input request names the input key its handler gave
 * (`InputOptions.key`): the key the same handler would use in a 2026-07-28 `inputRequests` map, so a
 * bridge that turns the request into an input round can keep it. Any server may set it; a client
 * that does not know it ignores it.
 */
export const INPUT_KEY_META = 'dev.mcpwire/inputKey';

/**
 * Input for one inbound request over a handshake-era session. Input requests are cancelled when
 * the originating request is (`signal`).
 */
export function createHandshakeBroker(
  session: Session,
  origin: { readonly signal: AbortSignal; relatedRequestId: RequestId },
): InputBroker {
  const { relatedRequestId } = origin;
  return {
    request(method: InputMethod, params: JsonObject | undefined, options) {
      checkSubFlags(method, params, session.peerCapabilities);
      const version = session.protocolVersion ?? '2025-11-25';
      const shaped =
        method === 'elicitation/create' && params
          ? adaptElicitationForRevision(params, version)
          : method === 'sampling/createMessage' && params
            ? adaptSamplingForRevision(params, version)
            : params;
      return session.request(method, withInputKey(shaped, options.key), {
        signal: origin.signal,
        relatedRequestId,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
    },
  };
}

/** The params with the handler's input key in `_meta` (INPUT_KEY_META), when it gave one. */
function withInputKey(params: JsonObject | undefined, key: string | undefined): JsonObject | undefined {
  if (key === undefined) return params;
  const meta = params?._meta;
  const kept = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...params, _meta: { ...kept, [INPUT_KEY_META]: key } };
}

/** ELIC-2 (mode must be declared) and SAMP-3 (tools need sampling.tools). The base gate is the session's. */
function checkSubFlags(method: InputMethod, params: JsonObject | undefined, caps: JsonObject): void {
  if (method === 'elicitation/create') {
    const elicitation = caps.elicitation as JsonObject | undefined;
    if (!elicitation) return; // The session reports the missing base capability.
    const mode = params?.mode === 'url' ? 'url' : 'form';
    // An empty `elicitation: {}` means form only (ELIC-1).
    const isDeclared =
      mode === 'form'
        ? Object.keys(elicitation).length === 0 || hasCapability(elicitation, ['form'])
        : hasCapability(elicitation, ['url']);
    if (!isDeclared)
      throw new CapabilityNotNegotiatedError(`elicitation/create (${mode} mode)`, {
        side: 'client',
        path: ['elicitation', mode],
      });
  }
  if (
    method === 'sampling/createMessage' &&
    (params?.tools !== undefined || params?.toolChoice !== undefined)
  ) {
    if (!hasCapability(caps, ['sampling', 'tools'])) {
      throw new CapabilityNotNegotiatedError('sampling/createMessage (with tools)', {
        side: 'client',
        path: ['sampling', 'tools'],
      });
    }
  }
}
