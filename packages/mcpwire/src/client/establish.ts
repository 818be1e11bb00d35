// Opening a connection in the right era: pinned, remembered, or probed (2026-07-28 checklist
// section 3.2), then the handshake (legacy) or nothing more (stateless).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ProtocolStateError } from '../protocol/capabilities.ts';
import type { Session } from '../protocol/session.ts';
import type { InitializeResult } from '../protocol/types/index.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import { probeEra, type EraCache } from './era-probe.ts';

/** Which era to speak: find out (`auto`), or insist. */
export type EraChoice = 'auto' | 'legacy' | 'modern';

/** What `establish` needs from its client. */
export interface EstablishOptions {
  era: EraChoice;
  /** The stateless-era revision to ask for first. */
  modernVersion: string;
  cache: EraCache | undefined;
  probeTimeoutMs: number;
  signal?: AbortSignal;
  /** Creates and starts a session on a channel, wired to the client. */
  open(channel: Channel): Session;
  /** Sends `server/discover` at `version` with the envelope. */
  discover(session: Session, options: { version: string; timeoutMs: number }): Promise<JsonObject>;
  /** Runs the handshake on a new session. */
  initialize(session: Session): Promise<InitializeResult>;
}

/** The outcome: a session and what the server told about itself, per era. */
export type Established =
  | { era: 'legacy'; session: Session; initialized: InitializeResult }
  | { era: 'modern'; session: Session; version: string; discover: JsonObject };

/**
 * Connects `target` and settles the era. A probe that meets silence or a closed connection
 * (some handshake-era servers exit on a pre-initialize request) is followed by a fresh
 * connection when the target is a Transport, so the handshake starts on an unconfused server.
 */
export async function establish(
  target: Transport | Channel,
  options: EstablishOptions,
): Promise<Established> {
  const transport = isTransport(target) ? target : undefined;
  let session = options.open(transport ? await transport.connect() : (target as Channel));
  const key = transport?.key;
  const remembered = key === undefined ? undefined : options.cache?.get(key);
  const shouldProbe = options.era === 'modern' || (options.era === 'auto' && remembered?.era !== 'legacy');
  if (shouldProbe) {
    options.signal?.throwIfAborted();
    session.protocolVersion = options.modernVersion;
    session.setState('operating');
    const verdict = await probeEra(
      (version) => options.discover(session, { version, timeoutMs: options.probeTimeoutMs }),
      options.modernVersion,
    );
    if (key !== undefined)
      options.cache?.set(
        key,
        verdict.era === 'modern' ? { era: 'modern', version: verdict.version } : { era: 'legacy' },
      );
    if (verdict.era === 'modern') {
      session.protocolVersion = verdict.version;
      return { era: 'modern', session, version: verdict.version, discover: verdict.discover };
    }
    if (options.era === 'modern') {
      await session.close();
      throw new ProtocolStateError(
        `The server does not speak the stateless era (2026-07-28): ${verdict.detail}. Connect with era "auto" or "legacy" to use the handshake.`,
      );
    }
    if ((verdict.reason === 'silence' || verdict.reason === 'closed') && transport) {
      await session.close();
      session = options.open(await transport.connect());
    } else {
      session.protocolVersion = undefined;
      session.setState('new');
    }
  }
  options.signal?.throwIfAborted();
  return { era: 'legacy', session, initialized: await options.initialize(session) };
}

function isTransport(target: Transport | Channel): target is Transport {
  return typeof (target as Partial<Transport>).connect === 'function';
}
