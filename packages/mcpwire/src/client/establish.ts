// Opening a connection in the right era: pinned, remembered, or probed (2026-07-28 checklist
// section 3.2), then the handshake (handshake) or nothing more (stateless), all on one connection.

import { ConnectionClosedError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { ProtocolStateError } from '../protocol/capabilities.ts';
import type { Session } from '../protocol/session.ts';
import type { InitializeResult } from '../protocol/types/index.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import { classifyDiscover, eraKeyOf, probeEra, type EraCache, type EraVerdict } from './era-probe.ts';
import { ConnectClosedError, ConnectTimeoutError, type ConnectStep } from './errors.ts';

/** Which era to speak: find out (`auto`), or insist. */
export type EraChoice = 'auto' | 'handshake' | 'stateless';

/** What `establish` needs from its client. */
export interface EstablishOptions {
  era: EraChoice;
  /** The stateless-era revision to ask for first. */
  statelessVersion: string;
  cache: EraCache | undefined;
  probeTimeoutMs: number;
  /** How long a probe that met silence may still be answered, while initialize runs (ms). */
  lateAnswerMs: number;
  signal?: AbortSignal;
  /** Creates and starts a session on a channel, wired to the client. */
  open(channel: Channel): Session;
  /** Sends `server/discover` at `version` with the envelope. */
  discover(
    session: Session,
    options: { version: string; timeoutMs: number; signal?: AbortSignal },
  ): Promise<JsonObject>;
  /** Runs the handshake on a new session. */
  initialize(session: Session): Promise<InitializeResult>;
}

/** The outcome: a session and what the server told about itself, per era. */
export type Established =
  | { era: 'handshake'; session: Session; initialized: InitializeResult }
  | { era: 'stateless'; session: Session; version: string; discover: JsonObject };

/**
 * Connects `target` and settles the era on that one connection: a Transport's `connect` is called
 * exactly once, so a stdio server is spawned once. After the probe, an error answer or silence
 * means a handshake-era server and `initialize` follows on the same connection (a server that
 * ignored the probe is not confused by it). Silence is no verdict where the channel answers every
 * request (`isRequestResponse`, Streamable HTTP): there it is an outage (ConnectTimeoutError); a
 * connection that closes during the probe is a
 * ConnectClosedError. A verdict is remembered, under the transport's `EraKeyed.key`, once the
 * connection is established in its era. The caller closes the session on any rejection.
 */
export async function establish(
  target: Transport | Channel,
  options: EstablishOptions,
): Promise<Established> {
  const transport = isTransport(target) ? target : undefined;
  const channel = transport ? await transport.connect() : (target as Channel);
  const session = options.open(channel);
  const key = eraKeyOf(transport);
  const remembered = key === undefined ? undefined : options.cache?.get(key);
  const shouldProbe =
    options.era === 'stateless' || (options.era === 'auto' && remembered?.era !== 'handshake');
  const remember = (verdict: { era: 'stateless' | 'handshake'; version?: string }): void => {
    // Only a fresh verdict: re-storing a remembered one would keep it from ever expiring.
    if (shouldProbe && key !== undefined) options.cache?.set(key, verdict);
  };
  let late: LateProbe | undefined;
  if (shouldProbe) {
    const probed = await probe(session, options, channel);
    const { verdict } = probed;
    late = probed.late;
    if (verdict.era === 'stateless') {
      remember({ era: 'stateless', version: verdict.version });
      return statelessEstablished(session, verdict);
    }
    refuseHandshakeVerdict(verdict, { options, channel });
    session.protocolVersion = undefined;
    session.setState('new');
  }
  options.signal?.throwIfAborted();
  const outcome = await initializeOrLateAnswer(session, options, late);
  if (outcome.era === 'stateless') {
    remember({ era: 'stateless', version: outcome.version });
    return statelessEstablished(session, outcome);
  }
  remember({ era: 'handshake' });
  return { era: 'handshake', session, initialized: outcome.initialized };
}

/** A probe that met silence but may still be answered: a slow server's start, not a verdict. */
interface LateProbe {
  /** Resolves with the discover result if it comes; rejects when it fails or is given up. */
  answer: Promise<JsonObject>;
  version: string;
  /** Gives the probe up (sends its cancellation). */
  cancel(): void;
}

function statelessEstablished(
  session: Session,
  verdict: { version: string; discover: JsonObject },
): Established {
  session.protocolVersion = verdict.version;
  session.setState('operating');
  return { era: 'stateless', session, version: verdict.version, discover: verdict.discover };
}

/**
 * Runs `initialize`. When the probe met silence it is still open: a server that was only slow to
 * start answers it first, and a stateless-era server then refuses the initialize that followed
 * (S26 section 3.4: the first request decides); that late answer settles the era as stateless.
 * Once initialize succeeds the probe is cancelled.
 */
async function initializeOrLateAnswer(
  session: Session,
  options: EstablishOptions,
  late: LateProbe | undefined,
): Promise<{ era: 'handshake'; initialized: InitializeResult } | Extract<EraVerdict, { era: 'stateless' }>> {
  const initializing = options.initialize(session);
  if (late === undefined) return { era: 'handshake', initialized: await initializing };
  const lateVerdict = late.answer.then(
    (result) => classifyDiscover(result, late.version),
    () => undefined,
  );
  const first = await Promise.race([
    initializing.then(
      (initialized) => ({ kind: 'initialized' as const, initialized }),
      (error: unknown) => ({ kind: 'failed' as const, error }),
    ),
    lateVerdict.then((verdict) => ({ kind: 'late' as const, verdict })),
  ]);
  if (first.kind === 'late' && first.verdict?.era === 'stateless') {
    initializing.catch(() => {});
    return first.verdict;
  }
  if (first.kind === 'initialized') {
    late.cancel();
    return { era: 'handshake', initialized: first.initialized };
  }
  if (first.kind === 'failed') {
    // The refusal of initialize and the late answer arrive together; the answer may settle next.
    const verdict = await Promise.race([lateVerdict, Promise.resolve(undefined)]);
    if (verdict?.era === 'stateless') return verdict;
    late.cancel();
    throw first.error;
  }
  // The late answer was a refusal or no mutual version: the handshake era after all.
  try {
    return { era: 'handshake', initialized: await initializing };
  } finally {
    late.cancel();
  }
}

/**
 * What a failure of a `connect` step becomes: a timeout a ConnectTimeoutError and a closed
 * connection a ConnectClosedError whose cause is the transport's own error (the Peer's wrapper
 * around it dropped), both naming the step; anything else stays as it is.
 */
export function toConnectError(step: ConnectStep, error: unknown, timeoutMs: number): unknown {
  if (error instanceof RequestTimeoutError) {
    // Neutral: which setting governs the wait differs by caller (an option here, a flag in a CLI).
    const hint = 'the server may still be starting, or not speak MCP here; a longer timeout waits longer';
    return new ConnectTimeoutError(step, timeoutMs, { hint, cause: error });
  }
  if (error instanceof ConnectionClosedError && !(error instanceof ConnectClosedError))
    return new ConnectClosedError(step, error.cause instanceof Error ? error.cause : error);
  return error;
}

/**
 * Sends the probe on a session that speaks the stateless era until the verdict says otherwise.
 * Silence after `probeTimeoutMs` is the verdict "handshake era", but where silence can be a slow
 * start (a channel that is not request/response, era "auto") the first discover stays open as a LateProbe for `lateAnswerMs`.
 */
async function probe(
  session: Session,
  options: EstablishOptions,
  channel: Channel,
): Promise<{ verdict: EraVerdict; late?: LateProbe }> {
  options.signal?.throwIfAborted();
  session.protocolVersion = options.statelessVersion;
  session.setState('operating');
  const timeoutMs = options.probeTimeoutMs;
  const mayAnswerLate = options.era === 'auto' && channel.info?.isRequestResponse !== true;
  let late: LateProbe | undefined;
  const discover = (version: string): Promise<JsonObject> => {
    if (!mayAnswerLate || late !== undefined) return options.discover(session, { version, timeoutMs });
    const controller = new AbortController();
    const abort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abort, { once: true });
    const answer = options.discover(session, {
      version,
      timeoutMs: Math.max(timeoutMs, options.lateAnswerMs),
      signal: controller.signal,
    });
    answer.catch(() => {}).finally(() => options.signal?.removeEventListener('abort', abort));
    const pending: LateProbe = { answer, version, cancel: () => controller.abort('the era is settled') };
    late = pending;
    return new Promise<JsonObject>((resolve, reject) => {
      // Silence for the probe, but the request stays open (a LateProbe) for initialize's time.
      let isSilent = false;
      const timer = setTimeout(() => {
        isSilent = true;
        reject(new RequestTimeoutError('server/discover', timeoutMs));
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        if (!isSilent && late === pending) late = undefined;
      };
      answer.then(
        (result) => {
          settle();
          resolve(result);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  };
  try {
    const verdict = await probeEra(discover, options.statelessVersion);
    return verdict.era === 'handshake' && verdict.reason === 'silence' && late !== undefined
      ? { verdict, late }
      : { verdict };
  } catch (error) {
    throw toConnectError('server/discover', error, timeoutMs);
  }
}

/** Throws when a handshake-era verdict cannot lead to `initialize`: era "stateless", or silence over HTTP. */
function refuseHandshakeVerdict(
  verdict: Extract<EraVerdict, { era: 'handshake' }>,
  context: { options: EstablishOptions; channel: Channel },
): void {
  const { options, channel } = context;
  const isSilence = verdict.reason === 'silence';
  if (options.era === 'stateless' && isSilence) {
    const hint =
      'a handshake-era server may ignore it (connect with era "auto" or "handshake" to use the handshake), or it is still starting (a longer timeout waits longer)';
    throw new ConnectTimeoutError('server/discover', options.probeTimeoutMs, { hint });
  }
  if (options.era === 'stateless') {
    throw new ProtocolStateError(
      `The server does not speak the stateless era (2026-07-28): ${verdict.detail}. Connect with era "auto" or "handshake" to use the handshake.`,
    );
  }
  // 2026-07-28 checklist section 3.3: a handshake-era Streamable HTTP server answers the probe (400);
  // where every request is answered, silence is an outage.
  if (isSilence && channel.info?.isRequestResponse === true) {
    const hint =
      'over Streamable HTTP silence is an outage, not a handshake-era server; a longer timeout waits longer';
    throw new ConnectTimeoutError('server/discover', options.probeTimeoutMs, { hint });
  }
}

function isTransport(target: Transport | Channel): target is Transport {
  return typeof (target as Partial<Transport>).connect === 'function';
}
