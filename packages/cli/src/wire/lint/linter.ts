// The rule engine: fed transcript entries in order (from a file, or live from a WireRecorder), it
// runs every rule on each one against the state so far of the connection the entry belongs to
// (connections.ts: one per stdio process, HTTP session or 2026-07-28 request), then moves it on.

import { EraProbeTracker } from '../era-probe.ts';
import type { EventEntry, MessageEntry } from '../transcript.ts';
import { checkCapabilities, checkInputRequests } from './check-capabilities.ts';
import { checkBatch, checkEnvelopeShape, checkInvalidLine } from './check-framing.ts';
import { checkHttpRequest, checkPostHeaders } from './check-http.ts';
import { checkCancel, checkRequestId, checkResponseId } from './check-ids.ts';
import { checkHandshakeOrder } from './check-lifecycle.ts';
import { checkEnvelope, checkResultType } from './check-stateless.ts';
import { checkProgress } from './check-progress.ts';
import { Connections, type Connection } from './connections.ts';
import type { Finding } from './finding.ts';
import { otherSide, type LintLimits, type StateSize } from './lint-state.ts';
import type { MessageContext, PostedRequest } from './message-context.ts';
import { isStatelessMeta, isRecord, kindOf, type JsonRecord } from './message-facts.ts';
import { Reporter } from './reporter.ts';
import { revisionOf, trackMessage } from './track-message.ts';

/** Options of {@link Linter}. */
export interface LinterOptions {
  /**
   * The revision in force from the start, for a transcript that begins after the handshake (or a
   * 2026-07-28 one): it is never replaced by what the transcript negotiates.
   */
  revision?: string;
  /** How much each connection's state keeps (default LINT_LIMITS); smaller in tests. */
  limits?: LintLimits;
}

/**
 * Lints one transcript's entries. Feed every entry in order with {@link push}, then call
 * {@link finish} once. Not safe to share between transcripts; cheap to create. What it keeps is
 * bounded (LintLimits per connection, a bounded number of HTTP sessions), however long it runs.
 */
export class Linter {
  readonly #connections: Connections;
  readonly #report = new Reporter();
  readonly #probes = new EraProbeTracker();

  constructor(options: LinterOptions = {}) {
    this.#connections = new Connections(options.revision, options.limits);
  }

  /**
   * Lints one entry; `line` is its transcript line (1-based, the header being line 1) for the
   * findings. Returns the findings it caused, and those of earlier messages whose schema check
   * waited for the revision to become known (each with its own line).
   */
  push(entry: EventEntry, line?: number): readonly Finding[] {
    const connections = this.#connections;
    const report = this.#report;
    let connection = connections.main;
    report.begin(entry.t, line, connection.state.era === 'stateless');
    switch (entry.type) {
      case 'message': {
        const routed = connections.routeMessage(entry);
        connection = routed.connection;
        this.#message(entry, line, connection, routed.posted);
        connections.learn(connection);
        break;
      }
      case 'invalid':
        checkInvalidLine(entry, connection.state, report);
        break;
      case 'spawn':
        connections.spawn();
        break;
      case 'http-request': {
        const opened = connections.openExchange(entry, line);
        if (opened !== undefined) {
          connection = opened;
          opened.state.transport = 'http';
          report.isStateless = opened.state.era === 'stateless';
          checkHttpRequest(entry, opened.state, report);
        }
        break;
      }
      case 'http-response':
        connections.answerExchange(entry);
        break;
      case 'http-end':
        report.add(connections.closeExchange(entry.exchange));
        break;
      case 'exit':
      case 'stderr':
      case 'note':
        break;
    }
    report.add(connection.schema.drain(connection.state.revision));
    return report.take();
  }

  /** The end of the transcript: schema checks still waiting for a revision use 2025-11-25. */
  finish(): Finding[] {
    return this.#connections.all.flatMap((connection) => connection.schema.finish());
  }

  /**
   * What the stdio connection (or HTTP traffic without a session) holds now: its state's records
   * and the messages whose schema check waits for a revision.
   */
  get size(): StateSize & { waitingSchemaChecks: number } {
    const { main } = this.#connections;
    return { ...main.state.size, waitingSchemaChecks: main.schema.waiting };
  }

  #message(
    entry: MessageEntry,
    line: number | undefined,
    connection: Connection,
    posted: PostedRequest | undefined,
  ): void {
    const { state } = connection;
    const report = this.#report;
    if (entry.exchange !== undefined) state.transport = 'http';
    const message = entry.message as unknown as JsonRecord;
    if (!isRecord(message)) return;
    const kind = kindOf(message);
    const from = entry.from;
    const method = kind === 'response' ? undefined : String(message.method);
    const params = isRecord(message.params) ? message.params : undefined;
    const meta = params !== undefined && isRecord(params._meta) ? params._meta : undefined;
    const hasStatelessClaim = kind === 'request' && isStatelessMeta(meta);
    // Over stdio a new initialize is a protocol fault on the same connection; over HTTP it starts a
    // new session (HTTP-31), which connections.ts sorts out before this point.
    const request = kind === 'response' ? state.requestOf(otherSide(from), message.id) : undefined;
    const isStateless =
      kind === 'request'
        ? hasStatelessClaim || state.era === 'stateless'
        : (request?.isStateless ?? state.era === 'stateless');
    report.isStateless = isStateless;
    const context: MessageContext = {
      entry,
      message,
      kind,
      from,
      method,
      params,
      meta,
      hasStatelessClaim,
      state,
      report,
      request,
      isStateless,
      posted,
      isSchemaSkipped: false,
      reportedMissing: [],
    };
    // The era probe's refusal is negotiation (2026-07-28 section 3.2): a handshake-era server knows no
    // server/discover, and its answer (a 400 with `id: null`, -32601) is only checked for being a refusal.
    if (this.#probes.roleOf(entry)?.role === 'answer' && 'error' in message) context.isSchemaSkipped = true;
    if (!checkEnvelopeShape(context)) return;
    checkBatch(context);
    checkPostHeaders(context);
    if (kind === 'request') {
      checkRequestId(context);
      checkHandshakeOrder(context);
      checkCapabilities(context);
      checkEnvelope(context);
    } else if (kind === 'notification') {
      checkHandshakeOrder(context);
      checkCapabilities(context);
      if (method === 'notifications/progress') checkProgress(context);
      if (method === 'notifications/cancelled') checkCancel(context);
    } else {
      checkResponseId(context);
      checkResultType(context);
      checkInputRequests(context);
    }
    const revision = revisionOf(context);
    if (!context.isSchemaSkipped)
      report.add(
        connection.schema.check({
          message,
          kind,
          from,
          revision,
          call:
            // With an id reused while pending, which request a response answers is a guess: only its envelope is checked.
            request === undefined || request.isAmbiguous
              ? undefined
              : { method: request.method, isTaskAugmented: request.isTaskAugmented },
          isStateless,
          line,
          t: entry.t,
          reportedMissing: context.reportedMissing,
        }),
      );
    trackMessage(context, line, revision);
  }
}
