// Progress rules (PROG-3, PROG-4; S26-PROG-1): a notifications/progress names a token of an
// active request of the other side, arrives before that request's response, and increases.

import { otherSide } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import { showId } from './message-facts.ts';

/** notifications/progress, checked against the request that asked for its token. */
export function checkProgress(context: MessageContext): void {
  const { state, report, from } = context;
  const params = context.params ?? {};
  const token = params.progressToken;
  const progress = params.progress;
  if (token === undefined) return;
  const who = from === 'server' ? 'the server' : 'the client';
  // Tokens are unique per requestor (PROG-1).
  const tracked = state.progressOf(otherSide(from), token);
  if (tracked === undefined) {
    // Past the state's limits its request may have been forgotten: nothing to say.
    if (state.hasForgotten(otherSide(from))) return;
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
