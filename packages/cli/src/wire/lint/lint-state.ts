// What the linter knows of the connection so far: the requests each side sent (by id), the
// handshake's progress, the era and revision in force, both sides' capabilities, live progress
// tokens and the HTTP requests whose headers wait for their body. The rules read it; the linter
// updates it after the rules have seen each message.

import type { HttpRequestEntry, Side } from '../transcript.ts';
import { idKey, isModernRevision, type JsonRecord } from './message-facts.ts';

/**
 * The era of the connection: `probing` while a 2026-07-28 request waits for its first answer (a
 * dual-era client's server/discover probe), `legacy` once `initialize` was sent, `modern` once a
 * 2026-07-28 request got a result.
 */
export type Era = 'unknown' | 'probing' | 'legacy' | 'modern';

/** How far the handshake (LIFE-1..LIFE-4) has got. */
export type HandshakePhase = 'none' | 'initialize-sent' | 'initialize-answered' | 'initialized';

/** One request as sent, and what became of it. */
export interface RequestRecord {
  readonly id: unknown;
  readonly method: string;
  readonly message: JsonRecord;
  readonly from: Side;
  readonly line: number | undefined;
  /** The revision it was sent under: its envelope's in 2026-07-28, else the negotiated one (if known). */
  readonly revision: string | undefined;
  /** True when it carried the 2026-07-28 `_meta` envelope claim. */
  readonly isModern: boolean;
  isAnswered: boolean;
  answeredLine?: number | undefined;
  isCancelled: boolean;
  /** The `resultType` of its result (2026-07-28), `input_required` asking for a retry with a new id. */
  resultType?: string | undefined;
  /** True when it was answered with a CreateTaskResult: its progress token stays live (PROG-5). */
  isTask: boolean;
  /** True when its id was reused while it was pending: which response answers it is a guess. */
  isAmbiguous: boolean;
}

/** A progress token a request asked for, and the last progress reported for it. */
export interface ProgressRecord {
  readonly request: RequestRecord;
  last: number | undefined;
}

/** The other side. */
export function otherSide(side: Side): Side {
  return side === 'client' ? 'server' : 'client';
}

/** The state of one connection (one stdio process, one HTTP session), reset when a new one starts. */
export class LintState {
  /** A revision given by the caller (e.g. for a transcript recorded mid-session): never replaced. */
  readonly forcedRevision: string | undefined;
  transport: 'stdio' | 'http' | undefined;
  era: Era = 'unknown';
  /** The revision in force: negotiated by initialize, or named by the latest 2026-07-28 request. */
  revision: string | undefined;
  phase: HandshakePhase = 'none';
  clientCapabilities: JsonRecord | undefined;
  serverCapabilities: JsonRecord | undefined;
  /** Requests by the side that sent them, keyed by idKey, oldest first (an id may have been reused). */
  requests: Record<Side, Map<string, RequestRecord[]>> = { client: new Map(), server: new Map() };
  /** Progress tokens keyed by `<side that asked>:<idKey(token)>`. */
  progress = new Map<string, ProgressRecord>();
  /** The ids of each side's lines that were no valid message: an error response may answer one. */
  invalidIds: Record<Side, Set<string>> = { client: new Set(), server: new Set() };
  /** Whether any message was seen since the connection started. */
  hasMessages = false;
  /** The batches already reported, as `<side>:<batch index>` (one finding per batch, not per member). */
  reportedBatches = new Set<string>();
  /** HTTP POSTs whose header check waits for the message in their body, by exchange (kept across sessions). */
  readonly exchanges = new Map<number, { request: HttpRequestEntry; line: number | undefined }>();

  constructor(forcedRevision: string | undefined) {
    this.forcedRevision = forcedRevision;
    this.revision = forcedRevision;
    if (isModernRevision(forcedRevision)) this.era = 'modern';
    else if (forcedRevision !== undefined) {
      this.era = 'legacy';
      this.phase = 'initialized';
    }
  }

  /** Starts a new connection or session: everything but the transport, a forced revision and pending exchanges. */
  reset(): void {
    const fresh = new LintState(this.forcedRevision);
    this.era = fresh.era;
    this.revision = fresh.revision;
    this.phase = fresh.phase;
    this.clientCapabilities = undefined;
    this.serverCapabilities = undefined;
    this.requests = { client: new Map(), server: new Map() };
    this.progress = new Map();
    this.invalidIds = { client: new Set(), server: new Set() };
    this.hasMessages = false;
    this.reportedBatches = new Set();
  }

  /** True while the handshake-era rules apply: not while probing or in 2026-07-28. */
  get isHandshakeEra(): boolean {
    return this.era === 'unknown' || this.era === 'legacy';
  }

  /**
   * The request `from` sent with `id` that a response to `id` answers: the oldest one still
   * unanswered (when the id was reused), else the latest.
   */
  requestOf(from: Side, id: unknown): RequestRecord | undefined {
    const sent = this.requests[from].get(idKey(id));
    return sent?.find((request) => !request.isAnswered) ?? sent?.at(-1);
  }

  /** The latest request `from` sent with `id`, if any. */
  latestRequestOf(from: Side, id: unknown): RequestRecord | undefined {
    return this.requests[from].get(idKey(id))?.at(-1);
  }

  /** Records a request after the rules have seen it. */
  openRequest(record: RequestRecord): void {
    const key = idKey(record.id);
    const sent = this.requests[record.from].get(key);
    if (sent === undefined) {
      this.requests[record.from].set(key, [record]);
      return;
    }
    const pending = sent.filter((request) => !request.isAnswered);
    if (pending.length > 0) for (const request of [...pending, record]) request.isAmbiguous = true;
    sent.push(record);
  }
}
