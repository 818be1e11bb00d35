// Rules on request ids, per direction: a reused id (BASE-4; in 2026-07-28 only while pending, and
// never for an input_required retry, S26-MRTR-8), a notification method sent with an id (BASE-7),
// and responses to no request, to an answered one, or to a cancelled one (BASE-5/6, CANCEL-5).

import type { MessageContext } from './message-context.ts';
import { otherSide } from './lint-state.ts';
import { showId } from './message-facts.ts';

/** Methods that are notifications even when the schema of the revision in force is not at hand. */
const NOTIFICATION_PREFIX = 'notifications/';

/** A request: its id must be new for its sender, and its method must not be a notification's. */
export function checkRequestId(context: MessageContext): void {
  const { message, state, report, from, method, isStateless } = context;
  if (method?.startsWith(NOTIFICATION_PREFIX) === true) {
    report.report(
      'notification-with-id',
      `${from === 'server' ? 'the server' : 'the client'} sent ${method} with id ${showId(message.id)}: ${method} is a notification, which carries no id (and gets no response); drop the id`,
    );
    context.isSchemaSkipped = true;
  }
  const earlier = state.latestRequestOf(from, message.id);
  if (earlier === undefined) return;
  const where = earlier.line === undefined ? '' : ` at line ${earlier.line}`;
  const who = from === 'server' ? 'the server' : 'the client';
  if (!isStateless) {
    report.report(
      'request-id-reused',
      `${who} reused request id ${showId(message.id)} (${method ?? '?'}), already used${where} for ${earlier.method}; a requestor never reuses an id within a session`,
    );
  } else if (!earlier.isAnswered) {
    report.report(
      'request-id-reused',
      `${who} reused request id ${showId(message.id)} (${method ?? '?'}) while its request${where} (${earlier.method}) is still pending; give every outstanding request its own id`,
    );
  } else if (earlier.resultType === 'input_required' && earlier.method === method) {
    report.report(
      'request-id-reused',
      `${who} retried ${method} after input_required with the same id ${showId(message.id)} as the request${where}; each retry needs a new JSON-RPC id`,
      { requirement: 'S26-MRTR-8' },
    );
  }
}

/**
 * A response must answer a request of the other side that is still unanswered, and should not
 * follow the request's cancellation (CANCEL-5, a warning: the two may cross on the wire; on
 * 2026-07-28 stdio, S26-STDIO-4 makes it a MUST NOT).
 */
export function checkResponseId(context: MessageContext): void {
  const { message, state, report, from, request, isStateless } = context;
  const who = from === 'server' ? 'the server' : 'the client';
  const peer = from === 'server' ? 'the client' : 'the server';
  const isError = 'error' in message && !('result' in message);
  if (request === undefined) {
    const id = message.id;
    // An error without a readable id answers a message whose id could not be read (BASE-6).
    if (isError && (id === undefined || id === null)) return;
    if (isError && state.hasInvalidId(otherSide(from), id)) return;
    // Past the state's limits the request may have been sent and forgotten: nothing to say.
    if (state.hasForgotten(otherSide(from))) return;
    report.report(
      'response-unknown-id',
      `${who} sent a ${isError ? 'error response' : 'result'} for id ${showId(id)}, but ${peer} sent no request with that id; a response echoes the id of the request it answers`,
      { requirement: isStateless ? undefined : isError ? 'BASE-6' : 'BASE-5' },
    );
    return;
  }
  if (request.isAnswered) {
    const where = request.answeredLine === undefined ? '' : ` at line ${request.answeredLine}`;
    report.report(
      'response-duplicate',
      `${who} answered ${request.method} (id ${showId(request.id)}) again: it was already answered${where}; send exactly one response per request`,
      { requirement: isStateless ? undefined : isError ? 'BASE-6' : 'BASE-5' },
    );
    return;
  }
  if (request.isCancelled) {
    const isMust = isStateless && state.transport !== 'http';
    report.report(
      'response-after-cancel',
      `${who} answered ${request.method} (id ${showId(request.id)}) after ${peer} cancelled it; ${isMust ? 'on 2026-07-28 stdio a server sends nothing further for a cancelled request' : 'a cancelled request should get no response (the sender ignores it)'}`,
      isMust ? { severity: 'error', requirement: 'S26-STDIO-4' } : {},
    );
  }
}

/**
 * notifications/cancelled: it names a request its sender issued (CANCEL-2), never initialize
 * (CANCEL-3). In 2026-07-28 a server sends it only to end the client's subscriptions/listen.
 */
export function checkCancel(context: MessageContext): void {
  const { message, state, report, from, isStateless } = context;
  const params = message.params as { requestId?: unknown } | undefined;
  const requestId = params?.requestId;
  if (requestId === undefined) return;
  const who = from === 'server' ? 'the server' : 'the client';
  if (isStateless && from === 'server') {
    const listen = state.requestOf('client', requestId);
    if (listen?.method !== 'subscriptions/listen')
      report.report(
        'cancel-unknown-request',
        `the server sent notifications/cancelled for ${showId(requestId)}, which is no subscriptions/listen of the client; in 2026-07-28 a server cancels only to end a listen stream`,
        { requirement: 'S26-CANCEL-2' },
      );
    return;
  }
  const request = state.requestOf(from, requestId);
  if (request === undefined) {
    // Past the state's limits the request may have been sent and forgotten: nothing to say.
    if (state.hasForgotten(from)) return;
    report.report(
      'cancel-unknown-request',
      `${who} cancelled request ${showId(requestId)}, but it sent no request with that id; cancel only a request you issued that is still running`,
    );
    return;
  }
  if (request.method === 'initialize') {
    report.report(
      'cancel-initialize',
      `${who} cancelled initialize (id ${showId(requestId)}); initialize must not be cancelled: close the connection instead`,
    );
  }
}
