// A transcript's conversation as exchanges, per direction: each request one side sent, paired by id
// with the other side's response, and the notifications the answering side sent for it.

import {
  isNotification,
  isRequest,
  isResponse,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from 'mcpwire';
import type { MessageEntry, Side } from '../../wire/transcript.ts';

/** One recorded request and what answered it. */
export interface RecordedExchange {
  /** Its position among the asking side's requests, from 0, in recording order. */
  index: number;
  request: JsonRpcRequest;
  /** The answer; undefined when none was recorded (cancelled, or the recording ended first). */
  response?: JsonRpcResponse;
  /**
   * The answering side's notifications between the request and its response that belong to it:
   * progress carrying its `_meta.progressToken` (PROG-1/2), and any other notification sent while
   * it was the latest request in flight (logs, list changes).
   */
  before: JsonRpcNotification[];
  /** The answering side's notifications after the response, until the asking side spoke again. */
  after: JsonRpcNotification[];
}

/**
 * Pairs the requests `asker` sent with the other side's responses, in recording order. A response
 * answers the earliest unanswered request with its id (ids may be reused once answered). Progress
 * without a matching token, and notifications sent while no request of `asker` was in flight or
 * just answered, belong to no exchange and are left out.
 */
export function pairExchanges(messages: readonly MessageEntry[], asker: Side): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  const open = new Map<string, RecordedExchange>();
  let justAnswered: RecordedExchange | undefined;
  for (const { from, message } of messages) {
    if (from === asker) {
      justAnswered = undefined;
      if (!isRequest(message)) continue;
      const exchange: RecordedExchange = { index: exchanges.length, request: message, before: [], after: [] };
      exchanges.push(exchange);
      const key = idKey(message.id);
      if (!open.has(key)) open.set(key, exchange);
      continue;
    }
    if (isResponse(message)) {
      const key = message.id === undefined ? undefined : idKey(message.id);
      const exchange = key === undefined ? undefined : open.get(key);
      if (exchange === undefined || key === undefined) continue;
      exchange.response = message;
      open.delete(key);
      justAnswered = exchange;
    } else if (isNotification(message)) {
      attribute(message, [...open.values()], justAnswered);
    }
  }
  return exchanges;
}

/** Files a notification under the exchange it belongs to, if any. */
function attribute(
  notification: JsonRpcNotification,
  open: readonly RecordedExchange[],
  justAnswered: RecordedExchange | undefined,
): void {
  if (notification.method === 'notifications/progress') {
    const token = notification.params?.progressToken;
    const owner = [...open, ...(justAnswered ? [justAnswered] : [])].find(
      (exchange) => token !== undefined && progressTokenOf(exchange.request) === token,
    );
    if (owner === undefined) return;
    (owner.response === undefined ? owner.before : owner.after).push(notification);
    return;
  }
  const latest = open.at(-1);
  if (latest !== undefined) latest.before.push(notification);
  else justAnswered?.after.push(notification);
}

/** The `_meta.progressToken` of a request, if it asked for progress. */
export function progressTokenOf(request: { params?: JsonObject }): unknown {
  const meta = request.params?._meta;
  return typeof meta === 'object' && meta !== null ? (meta as JsonObject).progressToken : undefined;
}

/** A map key telling the string id "1" from the number 1 (BASE-3 allows both). */
function idKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}
