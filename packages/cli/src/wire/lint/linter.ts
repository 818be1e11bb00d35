// The rule engine: fed transcript entries in order (from a file, or live from a WireRecorder), it
// runs every rule on each one against the connection state so far, then moves the state on.

import type { EventEntry, MessageEntry } from '../transcript.ts';
import { checkCapabilities, checkInputRequests } from './check-capabilities.ts';
import { checkBatch, checkEnvelopeShape, checkInvalidLine } from './check-framing.ts';
import { checkHttpRequest, checkPostHeaders } from './check-http.ts';
import { checkCancel, checkRequestId, checkResponseId } from './check-ids.ts';
import { checkHandshakeOrder } from './check-lifecycle.ts';
import { checkEnvelope, checkResultType } from './check-modern.ts';
import { checkProgress } from './check-progress.ts';
import { SchemaCheck } from './check-schema.ts';
import type { Finding } from './finding.ts';
import { LintState, otherSide } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { hasModernClaim, isRecord, kindOf, paramsOf, type JsonRecord } from './message-facts.ts';
import { Reporter } from './reporter.ts';
import { revisionOf, trackMessage } from './track-message.ts';

/** Options of {@link Linter}. */
export interface LinterOptions {
  /**
   * The revision in force from the start, for a transcript that begins after the handshake (or a
   * 2026-07-28 one): it is never replaced by what the transcript negotiates.
   */
  revision?: string;
}

/**
 * Lints one connection's transcript entries. Feed every entry in order with {@link push}, then
 * call {@link finish} once. Not safe to share between transcripts; cheap to create.
 */
export class Linter {
  readonly #state: LintState;
  readonly #schema = new SchemaCheck();

  constructor(options: LinterOptions = {}) {
    this.#state = new LintState(options.revision);
  }

  /**
   * Lints one entry; `line` is its transcript line (1-based, the header being line 1) for the
   * findings. Returns the findings it caused, and those of earlier messages whose schema check
   * waited for the revision to become known (each with its own line).
   */
  push(entry: EventEntry, line?: number): Finding[] {
    const state = this.#state;
    const report = new Reporter(entry.t, line);
    report.isModern = state.era === 'modern';
    switch (entry.type) {
      case 'message':
        this.#message(entry, line, report);
        break;
      case 'invalid':
        checkInvalidLine(entry, state, report);
        break;
      case 'spawn':
        // A new server process is a new connection.
        if (state.hasMessages) state.reset();
        state.transport = 'stdio';
        break;
      case 'http-request':
        state.transport = 'http';
        checkHttpRequest(entry, line, state, report);
        break;
      case 'exit':
      case 'stderr':
      case 'http-response':
      case 'http-end':
      case 'note':
        break;
    }
    return [...report.findings, ...this.#schema.drain(state.revision)];
  }

  /** The end of the transcript: schema checks still waiting for a revision use 2025-11-25. */
  finish(): Finding[] {
    return this.#schema.finish();
  }

  #message(entry: MessageEntry, line: number | undefined, report: Reporter): void {
    const state = this.#state;
    if (entry.exchange !== undefined) state.transport = 'http';
    const message = entry.message as unknown as JsonRecord;
    if (!isRecord(message)) return;
    const kind = kindOf(message);
    const from = entry.from;
    const method = kind === 'response' ? undefined : String(message.method);
    // A new initialize over HTTP starts a new session (HTTP-31), where ids start afresh.
    if (method === 'initialize' && from === 'client' && state.transport === 'http' && state.phase !== 'none')
      state.reset();
    const request = kind === 'response' ? state.requestOf(otherSide(from), message.id) : undefined;
    const isModern =
      kind === 'request'
        ? hasModernClaim(message) || state.era === 'modern'
        : (request?.isModern ?? state.era === 'modern');
    report.isModern = isModern;
    const context: MessageContext = {
      entry,
      message,
      kind,
      from,
      method,
      state,
      report,
      request,
      isModern,
      isSchemaSkipped: false,
      reportedMissing: [],
    };
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
      report.findings.push(
        ...this.#schema.check({
          message,
          kind,
          from,
          revision,
          call:
            // With an id reused while pending, which request a response answers is a guess: only its envelope is checked.
            request === undefined || request.isAmbiguous
              ? undefined
              : { method: request.method, isTaskAugmented: isRecord(paramsOf(request.message)?.task) },
          isModern,
          line,
          t: entry.t,
          reportedMissing: context.reportedMissing,
        }),
      );
    trackMessage(context, line, revision);
  }
}
