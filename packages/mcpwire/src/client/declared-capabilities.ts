// What a Client declares, from its options: kept apart from client-capabilities.ts, which the
// option types themselves import.

import type { ClientCapabilities } from '../protocol/types/index.ts';
import { createClientCapabilities } from './client-capabilities.ts';
import type { ClientOptions } from './client-options.ts';

/**
 * What a Client with `options` declares at `version`: its handlers' capabilities, its extensions'
 * (core capabilities per revision, and each one's settings under `extensions`), then the
 * `capabilities` option on top. `hasRoots`: roots were set with `setRoots` (or the option).
 */
export function capabilitiesFromOptions(
  options: ClientOptions,
  hasRoots: boolean,
  version: string,
): ClientCapabilities {
  const handlers = options.handlers ?? {};
  const extensions = options.extensions ?? [];
  const extra: ClientCapabilities | undefined =
    extensions.length === 0
      ? options.capabilities
      : {
          ...Object.assign({}, ...extensions.map(({ client }) => client?.capabilities?.(version))),
          ...options.capabilities,
          extensions: {
            ...options.capabilities?.extensions,
            ...Object.fromEntries(extensions.map(({ id, client }) => [id, client?.settings() ?? {}])),
          },
        };
  return createClientCapabilities({
    extra,
    hasSampling: handlers.sampling !== undefined,
    hasElicitation: handlers.elicitation !== undefined,
    elicitationModes: options.elicitationModes,
    hasRoots: handlers.roots !== undefined || hasRoots,
    protocolVersion: version,
  });
}
