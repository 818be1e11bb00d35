// `replay --check`: the recorded client side sent to a live server in recording order, each request
// waiting for its response, which is compared with the recorded one; the server's own requests
// (sampling, elicitation, roots) are answered with the recorded answers.

import {
  isRequest,
  isResponse,
  type Channel,
  type JsonRpcNotification,
  type JsonRpcResponse,
  type RequestId,
} from 'mcpwire';
import { findEraProbe } from '../../wire/era-probe.ts';
import { messagesOf, type Transcript } from '../../wire/transcript.ts';
import { CarriedValues } from './carried-values.ts';
import { describeRequest } from './canonical-params.ts';
import type { IgnoredPaths } from './ignored-paths.ts';
import { diffJson, type Difference } from './json-diff.ts';
import { LivePeer } from './live-peer.ts';
import { ReplayBook } from './replay-book.ts';
import { pairExchanges } from './recorded-exchanges.ts';

/** The comparison of one response. */
export interface CheckedResponse {
  /** The request: `tools/call add_numbers`. */
  label: string;
  /** Its position among the recorded client requests, from 1. */
  number: number;
  /** Empty when the live response is the recorded one (ids and ignored paths aside). */
  differences: Difference[];
  /** Set when nothing could be compared: the live server did not answer in time. */
  problem?: string;
}

/** What a check found. */
export interface CheckReport {
  responses: CheckedResponse[];
  /** Requests the live server sent that the recording has no answer for (they got the mock's error). */
  unexpectedRequests: string[];
  /** Recorded requests with no recorded response (cancelled, or cut off): sent, not waited for. */
  unansweredCount: number;
}

/** How to check. */
export interface CheckOptions {
  /** How long to wait for each response. */
  timeoutMs: number;
  /** Not compared: the per-run fields and the user's --ignore paths. */
  ignored: IgnoredPaths;
  /** Told each comparison as it is made (to print as the check goes). */
  onChecked?: (checked: CheckedResponse) => void;
}

/**
 * Runs the client side of `transcript` on `channel` (opened here, not closed: the caller owns it).
 * A refused era probe (see findEraProbe) is left out. Requests get new ids 1, 2, ...; a recorded `notifications/cancelled` is re-addressed to the new
 * id, and values the server makes up per run (see CarriedValues) are carried into later requests.
 * Rejects when the connection fails (closed, refused): the caller reports it as exit 3.
 */
export async function runCheck(
  transcript: Transcript,
  channel: Channel,
  options: CheckOptions,
): Promise<CheckReport> {
  // A refused era probe was negotiation, not a request to compare: the live server negotiates anew.
  const probe = findEraProbe(transcript.entries);
  const messages = messagesOf(transcript).filter((entry) => !probe.entries.has(entry));
  const exchanges = pairExchanges(messages, 'client');
  const serverBook = ReplayBook.fromTranscript(transcript, 'server');
  const report: CheckReport = { responses: [], unexpectedRequests: [], unansweredCount: 0 };
  const peer = new LivePeer(channel, (request) => {
    const answer = serverBook.answer(request);
    if (answer.exchange === undefined && 'error' in answer.response)
      report.unexpectedRequests.push(describeRequest(request.method, request.params));
    return answer.response;
  });
  const carried = new CarriedValues();
  const ids = new Map<RequestId, RequestId>();
  let requests = 0;
  for (const { from, message } of messages) {
    if (from !== 'client' || isResponse(message)) continue;
    if (!isRequest(message)) {
      await peer.notify(readdressCancel(carried.apply(message), ids));
      continue;
    }
    const outgoing = carried.apply(message);
    const exchange = exchanges[requests]!;
    const id = ++requests;
    ids.set(outgoing.id, id);
    const recorded = exchange.response;
    if (recorded === undefined) {
      report.unansweredCount++;
      await peer.notify({ ...outgoing, id });
      continue;
    }
    const outcome = await peer.request({ ...outgoing, id }, options.timeoutMs);
    const checked: CheckedResponse = {
      label: describeRequest(outgoing.method, outgoing.params),
      number: id,
      differences: [],
    };
    if (outcome.kind === 'timeout')
      checked.problem = `no response within ${formatSeconds(options.timeoutMs)}`;
    else {
      const [was, is] = [bodyOf(recorded), bodyOf(outcome.response)];
      checked.differences = diffJson(was, is, { ignored: options.ignored });
      carried.learn(was, is);
    }
    report.responses.push(checked);
    options.onChecked?.(checked);
  }
  return report;
}

/** True when the check found nothing that differs. */
export function isIdentical(report: CheckReport): boolean {
  return (
    report.unexpectedRequests.length === 0 &&
    report.responses.every((checked) => checked.problem === undefined && checked.differences.length === 0)
  );
}

/** What is compared of a response: its `result` or its `error` (never the id). */
function bodyOf(response: JsonRpcResponse): Record<string, unknown> {
  return 'error' in response ? { error: response.error } : { result: response.result };
}

/** A recorded cancellation names the recorded id; the live request has a new one. */
function readdressCancel(
  notification: JsonRpcNotification,
  ids: ReadonlyMap<RequestId, RequestId>,
): JsonRpcNotification {
  const requestId = notification.params?.requestId as RequestId | undefined;
  if (notification.method !== 'notifications/cancelled' || requestId === undefined) return notification;
  const id = ids.get(requestId);
  return id === undefined
    ? notification
    : { ...notification, params: { ...notification.params, requestId: id } };
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}
