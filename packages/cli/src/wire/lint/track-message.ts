// How each message moves the connection state on, once the rules have seen it: requests and their
// progress tokens are recorded, responses close them, the handshake advances, the era and revision
// settle, and both sides' capabilities are learned (initialize; server/discover in 2026-07-28).

import type { RequestRecord } from './lint-state.ts';
import type { MessageContext } from './message-context.ts';
import {
  claimedCapabilities,
  claimedVersion,
  isStatelessRevision,
  isRecord,
  progressTokenOf,
  type JsonRecord,
} from './message-facts.ts';

/** The revision `context`'s message belongs to, when known: forced, its envelope's, its request's, or the connection's. */
export function revisionOf(context: MessageContext): string | undefined {
  const { state, message, kind, request, method } = context;
  if (state.forcedRevision !== undefined) return state.forcedRevision;
  if (kind === 'request') {
    if (method === 'initialize') {
      const requested = context.params?.protocolVersion;
      return typeof requested === 'string' ? requested : undefined;
    }
    const claimed = claimedVersion(context.meta);
    if (claimed !== undefined) return claimed;
  }
  if (kind === 'response' && request !== undefined) {
    const result = resultOf(message);
    if (request.method === 'initialize' && typeof result?.protocolVersion === 'string')
      return result.protocolVersion;
    if (request.revision !== undefined) return request.revision;
  }
  return state.revision;
}

/** Updates the state after every rule has seen the message (`revision` is revisionOf's answer). */
export function trackMessage(
  context: MessageContext,
  line: number | undefined,
  revision: string | undefined,
): void {
  if (context.kind === 'request') trackRequest(context, line, revision);
  else if (context.kind === 'notification') trackNotification(context);
  else trackResponse(context, line);
  context.state.hasMessages = true;
}

function trackRequest(context: MessageContext, line: number | undefined, revision: string | undefined): void {
  const { state, message, from, method, params, meta } = context;
  const isStateless = context.hasStatelessClaim;
  if (method === 'initialize' && from === 'client') {
    if (state.forcedRevision === undefined) state.era = 'handshake';
    state.phase = 'initialize-sent';
    const capabilities = params?.capabilities;
    state.clientCapabilities = isRecord(capabilities) ? capabilities : undefined;
  }
  if (isStateless && state.era === 'unknown') state.era = 'probing';
  // Each 2026-07-28 request names its revision; while probing it is not settled yet.
  if (
    isStateless &&
    state.era === 'stateless' &&
    state.forcedRevision === undefined &&
    revision !== undefined
  )
    state.revision = revision;
  const token = progressTokenOf(meta);
  // Only what the rules read later is kept, not the message: a tap keeps thousands of these.
  const record: RequestRecord = {
    id: message.id,
    method: method ?? '',
    from,
    line,
    revision,
    isStateless: context.isStateless,
    isTaskAugmented: isRecord(params?.task),
    claimedCapabilities: claimedCapabilities(meta),
    progressToken: token,
    isAnswered: false,
    // Every field set from the start, so records share one shape and no later write adds a property.
    answeredLine: undefined,
    isCancelled: false,
    resultType: undefined,
    isTask: false,
    isAmbiguous: false,
  };
  state.openRequest(record);
  if (token !== undefined) state.trackProgress(record, token);
}

function trackNotification(context: MessageContext): void {
  const { state, from, method } = context;
  if (method === 'notifications/initialized' && from === 'client') state.phase = 'initialized';
  if (method === 'notifications/cancelled') {
    const request = state.requestOf(from, context.params?.requestId);
    if (request !== undefined && !request.isAnswered) request.isCancelled = true;
  }
}

function trackResponse(context: MessageContext, line: number | undefined): void {
  const { state, message, request } = context;
  if (request === undefined || request.isAnswered) return;
  state.answerRequest(request, line);
  const result = resultOf(message);
  if (result !== undefined) {
    request.resultType = typeof result.resultType === 'string' ? result.resultType : undefined;
    request.isTask = isRecord(result.task);
  }
  const isForced = state.forcedRevision !== undefined;
  if (request.method === 'initialize') {
    if (result === undefined) {
      // A failed initialize may be retried with another version.
      if (state.phase === 'initialize-sent') state.phase = 'none';
      return;
    }
    if (!isForced && typeof result.protocolVersion === 'string') state.revision = result.protocolVersion;
    if (isRecord(result.capabilities)) state.serverCapabilities = result.capabilities;
    if (state.phase === 'initialize-sent') state.phase = 'initialize-answered';
    return;
  }
  if (!request.isStateless) return;
  if (result === undefined) {
    // An error to the probe: no 2026-07-28 server (or not yet); the handshake may follow.
    if (state.era === 'probing') state.era = 'unknown';
    return;
  }
  if (state.era !== 'handshake') {
    state.era = 'stateless';
    if (!isForced && isStatelessRevision(request.revision)) state.revision = request.revision;
  }
  if (request.method === 'server/discover' && isRecord(result.capabilities))
    state.serverCapabilities = result.capabilities;
}

function resultOf(message: JsonRecord): JsonRecord | undefined {
  return isRecord(message.result) && !('error' in message) ? message.result : undefined;
}
