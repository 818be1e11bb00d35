// Progress rules (PROG-3, PROG-4; S26-PROG-1): a notifications/progress names a token of an
// active request of the other side, arrives before that request's response, and increases.

import { otherSide } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { idKey, paramsOf, showId } from './message-facts.ts';

/** The key of a progress token: tokens are unique per requestor (PROG-1). */
export function progressKey(requestor: 'client' | 'server', token: unknown): string {
  return `${requestor}:${idKey(token)}`;
}

/** notifications/progress, checked against the request that asked for its token. */
export function checkProgress(context: MessageContext): void {
  const { state, report, from } = context;
  const params = paramsOf(context.message) ?? {};
  const token = params.progressToken;
  const progress = params.progress;
  if (token === undefined) return;
  const who = from === 'server' ? 'the server' : 'the client';
  const tracked = state.progress.get(progressKey(otherSide(from), token));
  if (tracked === undefined) {
    report.report(
      'progress-unknown-token',
      `${who} sent progress for token ${showId(token)}, which no request of the ${otherSide(from)} carried in params._meta.progressToken; report progress only for tokens of active requests`,
    );
    return;
  }
  const { request } = tracked;
  if (request.isAnswered && !request.isTask) {
    const where = request.answeredLine === undefined ? '' : ` at line ${request.answeredLine}`;
    report.report(
      'progress-after-response',
      `${who} sent progress for token ${showId(token)} after the response to its request ${request.method} (id ${showId(request.id)})${where}; stop sending progress once the operation completed`,
    );
    return;
  }
  if (typeof progress !== 'number') return;
  if (tracked.last !== undefined && !(progress > tracked.last))
    report.report(
      'progress-not-increasing',
      `${who} sent progress ${progress} for token ${showId(token)} after ${tracked.last}; progress must increase with every notification`,
    );
  tracked.last = progress;
}
