// Opening a connection in the right era: pinned, remembered, or probed (2026-07-28 checklist
// section 3.2), then the handshake (legacy) or nothing more (stateless), all on one connection.

import { ConnectionClosedError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { ProtocolStateError } from '../protocol/capabilities.ts';
import type { Session } from '../protocol/session.ts';
import type { InitializeResult } from '../protocol/types/index.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import { probeEra, type EraCache, type EraVerdict } from './era-probe.ts';
import { ConnectClosedError, ConnectTimeoutError, type ConnectStep } from './errors.ts';

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
 * Connects `target` and settles the era on that one connection: a Transport's `connect` is called
 * exactly once, so a stdio server is spawned once. After the probe, an error answer or silence
 * means a handshake-era server and `initialize` follows on the same connection (a server that
 * ignored the probe is not confused by it). Silence is no verdict over Streamable HTTP, where it
 * is an outage (ConnectTimeoutError); a connection that closes during the probe is a
 * ConnectClosedError. A verdict is remembered once the connection is established in its era. The
 * caller closes the session on any rejection.
 */
export async function establish(
  target: Transport | Channel,
  options: EstablishOptions,
): Promise<Established> {
  const transport = isTransport(target) ? target : undefined;
  const channel = transport ? await transport.connect() : (target as Channel);
  const session = options.open(channel);
  const key = transport?.key;
  const remembered = key === undefined ? undefined : options.cache?.get(key);
  const shouldProbe = options.era === 'modern' || (options.era === 'auto' && remembered?.era !== 'legacy');
  if (shouldProbe) {
    const verdict = await probe(session, options);
    if (verdict.era === 'modern') {
      if (key !== undefined) options.cache?.set(key, { era: 'modern', version: verdict.version });
      session.protocolVersion = verdict.version;
      return { era: 'modern', session, version: verdict.version, discover: verdict.discover };
    }
    refuseLegacyVerdict(verdict, { options, channel });
    session.protocolVersion = undefined;
    session.setState('new');
  }
  options.signal?.throwIfAborted();
  const initialized = await options.initialize(session);
  // Only a fresh verdict: re-storing a remembered one would keep it from ever expiring.
  if (shouldProbe && key !== undefined) options.cache?.set(key, { era: 'legacy' });
  return { era: 'legacy', session, initialized };
}

/**
 * What a failure of a `connect` step becomes: a timeout a ConnectTimeoutError and a closed
 * connection a ConnectClosedError whose cause is the transport's own error (the Peer's wrapper
 * around it dropped), both naming the step; anything else stays as it is.
 */
export function toConnectError(step: ConnectStep, error: unknown, timeoutMs: number): unknown {
  if (error instanceof RequestTimeoutError) {
    const option = step === 'initialize' ? 'initializeTimeoutMs' : 'probeTimeoutMs';
    const hint = `the server may still be starting, or not speak MCP here; raise ${option} to wait longer`;
    return new ConnectTimeoutError(step, timeoutMs, { hint, cause: error });
  }
  if (error instanceof ConnectionClosedError && !(error instanceof ConnectClosedError))
    return new ConnectClosedError(step, error.cause instanceof Error ? error.cause : error);
  return error;
}

/** Sends the probe on a session that speaks the stateless era until the verdict says otherwise. */
async function probe(session: Session, options: EstablishOptions): Promise<EraVerdict> {
  options.signal?.throwIfAborted();
  session.protocolVersion = options.modernVersion;
  session.setState('operating');
  const timeoutMs = options.probeTimeoutMs;
  try {
    return await probeEra(
      (version) => options.discover(session, { version, timeoutMs }),
      options.modernVersion,
    );
  } catch (error) {
    throw toConnectError('server/discover', error, timeoutMs);
  }
}

/** Throws when a handshake-era verdict cannot lead to `initialize`: era "modern", or silence over HTTP. */
function refuseLegacyVerdict(
  verdict: Extract<EraVerdict, { era: 'legacy' }>,
  context: { options: EstablishOptions; channel: Channel },
): void {
  const { options, channel } = context;
  const isSilence = verdict.reason === 'silence';
  if (options.era === 'modern' && isSilence) {
    const hint =
      'a handshake-era server may ignore it (connect with era "auto" or "legacy" to use the handshake), or it is still starting (raise initializeTimeoutMs)';
    throw new ConnectTimeoutError('server/discover', options.probeTimeoutMs, { hint });
  }
  if (options.era === 'modern') {
    throw new ProtocolStateError(
      `The server does not speak the stateless era (2026-07-28): ${verdict.detail}. Connect with era "auto" or "legacy" to use the handshake.`,
    );
  }
  // 2026-07-28 checklist section 3.3: a handshake-era Streamable HTTP server answers 400; silence is an outage.
  if (isSilence && channel.info?.kind === 'http') {
    const hint =
      'over Streamable HTTP silence is an outage, not a handshake-era server; raise probeTimeoutMs to wait longer';
    throw new ConnectTimeoutError('server/discover', options.probeTimeoutMs, { hint });
  }
}

function isTransport(target: Transport | Channel): target is Transport {
  return typeof (target as Partial<Transport>).connect === 'function';
}
