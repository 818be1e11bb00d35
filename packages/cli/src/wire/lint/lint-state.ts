// What the linter knows of one connection so far: the requests each side sent (by id), the
// handshake's progress, the era and revision in force, both sides' capabilities and live progress
// tokens. The rules read it; the linter updates it after the rules have seen each message. What it
// keeps of requests is bounded (LINT_LIMITS), so a tap that runs for days does not grow.

import type { Side } from '../transcript.ts';
import { BoundedIdSet, IdMap, NONE, RecentQueue } from './id-map.ts';
import { isStatelessRevision, type JsonRecord } from './message-facts.ts';

/**
 * The era of the connection: `probing` while a 2026-07-28 request waits for its first answer (a
 * dual-era client's server/discover probe), `handshake` once `initialize` was sent, `stateless` once a
 * 2026-07-28 request got a result.
 */
export type Era = 'unknown' | 'probing' | 'handshake' | 'stateless';

/** How far the handshake (LIFE-1..LIFE-4) has got. */
export type HandshakePhase = 'none' | 'initialize-sent' | 'initialize-answered' | 'initialized';

/** One request as sent, and what became of it. */
export interface RequestRecord {
  readonly id: unknown;
  readonly method: string;
  readonly from: Side;
  readonly line: number | undefined;
  /** The revision it was sent under: its envelope's in 2026-07-28, else the negotiated one (if known). */
  readonly revision: string | undefined;
  /** True when it carried the 2026-07-28 `_meta` envelope claim. */
  readonly isStateless: boolean;
  /** True when it asked for a task (`params.task`): its result may be a CreateTaskResult. */
  readonly isTaskAugmented: boolean;
  /** The client capabilities its 2026-07-28 envelope declared (what an input_required result may ask). */
  readonly claimedCapabilities: JsonRecord | undefined;
  /** The progress token it asked for (`params._meta.progressToken`). */
  readonly progressToken: string | number | undefined;
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

/**
 * How much one connection's state keeps, per side. Past these the oldest is forgotten: an id reused
 * after more than `answered` later answers, or a response to a request pushed out of `pending`, is
 * no longer recognised as such (a forgotten pending request is never reported as unknown).
 */
export interface LintLimits {
  /** Answered requests remembered (for request-id-reused, response-duplicate, late progress). */
  readonly answered: number;
  /** Requests still waiting for their response. */
  readonly pending: number;
  /** Ids of lines that were no valid message (an error response may answer one). */
  readonly invalidIds: number;
}

/** The default limits: 4096 answered and 4096 pending requests per side, 1024 invalid ids per side. */
export const LINT_LIMITS: LintLimits = { answered: 4096, pending: 4096, invalidIds: 1024 };

/** How much a state holds now, for tests and diagnostics. */
export interface StateSize {
  requests: number;
  progressTokens: number;
  invalidIds: number;
}

/** The other side. */
export function otherSide(side: Side): Side {
  return side === 'client' ? 'server' : 'client';
}

/** The state of one connection (one stdio process, one HTTP session), reset when a new one starts. */
export class LintState {
  /** A revision given by the caller (e.g. for a transcript recorded mid-session): never replaced. */
  readonly forcedRevision: string | undefined;
  readonly limits: LintLimits;
  transport: 'stdio' | 'http' | undefined;
  era: Era = 'unknown';
  /** The revision in force: negotiated by initialize, or named by the latest 2026-07-28 request. */
  revision: string | undefined;
  phase: HandshakePhase = 'none';
  clientCapabilities: JsonRecord | undefined;
  serverCapabilities: JsonRecord | undefined;
  /** Whether any message was seen since the connection started. */
  hasMessages = false;
  /** The batch each side last had reported (one finding per batch, not per member). */
  reportedBatch: Record<Side, number | undefined> = { client: undefined, server: undefined };
  #sides: Record<Side, SideRequests>;

  constructor(forcedRevision: string | undefined, limits: LintLimits = LINT_LIMITS) {
    this.forcedRevision = forcedRevision;
    this.limits = limits;
    this.revision = forcedRevision;
    if (isStatelessRevision(forcedRevision)) this.era = 'stateless';
    else if (forcedRevision !== undefined) {
      this.era = 'handshake';
      this.phase = 'initialized';
    }
    this.#sides = { client: new SideRequests(limits), server: new SideRequests(limits) };
  }

  /** Starts a new connection or session: everything but the transport and a forced revision. */
  reset(): void {
    const fresh = new LintState(this.forcedRevision, this.limits);
    this.era = fresh.era;
    this.revision = fresh.revision;
    this.phase = fresh.phase;
    this.clientCapabilities = undefined;
    this.serverCapabilities = undefined;
    this.hasMessages = false;
    this.reportedBatch = { client: undefined, server: undefined };
    this.#sides = fresh.#sides;
  }

  /** True while the handshake-era rules apply: not while probing or in 2026-07-28. */
  get isHandshakeEra(): boolean {
    return this.era === 'unknown' || this.era === 'handshake';
  }

  /**
   * The request `from` sent with `id` that a response to `id` answers: the oldest one still
   * unanswered (when the id was reused), else the latest.
   */
  requestOf(from: Side, id: unknown): RequestRecord | undefined {
    const sent = this.#sides[from].byId.get(id);
    if (!Array.isArray(sent)) return sent;
    for (const request of sent) if (!request.isAnswered) return request;
    return sent.at(-1);
  }

  /** The latest request `from` sent with `id`, if remembered. */
  latestRequestOf(from: Side, id: unknown): RequestRecord | undefined {
    const sent = this.#sides[from].byId.get(id);
    return Array.isArray(sent) ? sent.at(-1) : sent;
  }

  /** Records a request after the rules have seen it (forgetting the oldest pending one past the limit). */
  openRequest(record: RequestRecord): void {
    const side = this.#sides[record.from];
    const known = side.byId.get(record.id);
    if (known === undefined) side.byId.set(record.id, record);
    else {
      const sent = Array.isArray(known) ? known : [known];
      let isReusedWhilePending = false;
      for (const request of sent) if (!request.isAnswered) isReusedWhilePending = request.isAmbiguous = true;
      if (isReusedWhilePending) record.isAmbiguous = true;
      sent.push(record);
      if (sent !== known) side.byId.set(record.id, sent);
    }
    side.pending.add(record);
    if (side.pending.size > this.limits.pending) {
      const oldest = side.pending.values().next().value!;
      side.pending.delete(oldest);
      this.#forget(oldest);
    }
  }

  /** Marks `record` answered (at `line`), forgetting the oldest answered one past the limit. */
  answerRequest(record: RequestRecord, line: number | undefined): void {
    record.isAnswered = true;
    record.answeredLine = line;
    const side = this.#sides[record.from];
    side.pending.delete(record);
    const evicted = side.answered.push(record);
    if (evicted !== NONE) this.#forget(evicted);
  }

  /**
   * True once a request of `from` was forgotten while it could still be answered, cancelled or
   * report progress (a pending request, or a task): a message about an id then may match none.
   */
  hasForgotten(from: Side): boolean {
    return this.#sides[from].hasForgotten;
  }

  /** The progress token `requestor` asked for, if its request is still remembered. */
  progressOf(requestor: Side, token: unknown): ProgressRecord | undefined {
    return this.#sides[requestor].progress.get(token);
  }

  /** Records the progress token of `record` (a request of `record.from`). */
  trackProgress(record: RequestRecord, token: string | number): void {
    this.#sides[record.from].progress.set(token, { request: record, last: undefined });
  }

  /** Notes the id of a line of `from` that was no valid message. */
  addInvalidId(from: Side, id: unknown): void {
    this.#sides[from].invalidIds.add(id);
  }

  /** True when `from` sent a line with this id that was no valid message (recently enough). */
  hasInvalidId(from: Side, id: unknown): boolean {
    return this.#sides[from].invalidIds.has(id);
  }

  /** What the state holds now: bounded by {@link limits} whatever the length of the connection. */
  get size(): StateSize {
    const sides = [this.#sides.client, this.#sides.server];
    let requests = 0;
    let progressTokens = 0;
    let invalidIds = 0;
    for (const side of sides) {
      requests += side.pending.size + side.answered.size;
      progressTokens += side.progress.size;
      invalidIds += side.invalidIds.size;
    }
    return { requests, progressTokens, invalidIds };
  }

  /** Drops a request from every index (its progress token too, unless a later request took it). */
  #forget(record: RequestRecord): void {
    const side = this.#sides[record.from];
    if (!record.isAnswered || record.isTask) side.hasForgotten = true;
    const sent = side.byId.get(record.id);
    if (sent === record) side.byId.delete(record.id);
    else if (Array.isArray(sent)) {
      const index = sent.indexOf(record);
      if (index >= 0) sent.splice(index, 1);
      if (sent.length === 0) side.byId.delete(record.id);
    }
    const token = record.progressToken;
    if (token !== undefined && side.progress.get(token)?.request === record) side.progress.delete(token);
  }
}

/**
 * What one side's requests are kept in: by id (the one request, or in order sent when an id was
 * reused: most ids are used once, so most need no array), the pending ones in order sent, the
 * answered in order answered.
 */
class SideRequests {
  readonly byId = new IdMap<RequestRecord | RequestRecord[]>();
  readonly pending = new Set<RequestRecord>();
  readonly answered: RecentQueue<RequestRecord>;
  readonly progress = new IdMap<ProgressRecord>();
  readonly invalidIds: BoundedIdSet;
  hasForgotten = false;

  constructor(limits: LintLimits) {
    this.answered = new RecentQueue(limits.answered);
    this.invalidIds = new BoundedIdSet(limits.invalidIds);
  }
}
