// Reading one SSE stream of a Streamable HTTP client to its end, resuming it with GET and
// `Last-Event-ID` when it breaks early (HTTP-10/11, HTTP-20..24; SEP-1699 polling).

import { HttpError, ResponseStreamLostError, SessionExpiredError } from './http-errors.ts';
import type { HttpAnswer } from './requester.ts';
import { decodeSse, SseParserStream } from './sse-parser.ts';

/** How a broken stream is resumed. The server's `retry:` value, when it sent one, replaces the backoff. */
export interface ReconnectionOptions {
  /** The first wait before a reconnection when the server gave no `retry`, in ms; default 1000. */
  initialDelayMs: number;
  /** The longest backoff wait, in ms; default 30000. */
  maxDelayMs: number;
  /**
   * Reconnections tried in a row before giving up; default 5. Only a connection that delivered a
   * message starts the count again: a server that keeps closing streams without news uses it up.
   */
  maxAttempts: number;
}

/** The defaults of {@link ReconnectionOptions}. */
export const DEFAULT_RECONNECTION: Readonly<ReconnectionOptions> = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  maxAttempts: 5,
};

/** The backoff grows by this factor per attempt, up to `maxDelayMs`. */
const BACKOFF_FACTOR = 1.5;
/** How many event ids a stream remembers to drop replays. */
const SEEN_IDS_LIMIT = 1024;

/** One stream to follow, and what its owner provides. */
export interface StreamPlan {
  /** Names the stream in errors: the JSON-RPC method it answers, or "the GET stream". */
  name: string;
  /** False in the stateless era: a broken stream is lost (S26-HTTP-8). */
  canResume: boolean;
  /** True for the standalone GET stream: it is followed until given up, owing nothing. */
  isStandalone: boolean;
  signal: AbortSignal;
  reconnection: ReconnectionOptions;
  /** Delivers one event's data (never empty). */
  deliver(data: string): void;
  /** True while a response this stream carries has not arrived (on this stream or elsewhere). */
  isOwed(): boolean;
  /** Opens the GET that resumes after `lastEventId` (none when empty); resolves with an SSE response. */
  resume(lastEventId: string, signal: AbortSignal): Promise<HttpAnswer>;
}

/**
 * Reads `first` (undefined: the opening request failed, so start with a reconnection) and its
 * resumptions until the stream is done: it ended owing nothing, or the
 * signal aborted (both resolve). When it breaks owing a response it waits the server's `retry`
 * (else the backoff), resumes with `Last-Event-ID`, and skips events whose id it has seen.
 * Rejects with ResponseStreamLostError when it cannot resume, or with a refusal that ends
 * resumption (SessionExpiredError, HttpError 401/403/405).
 */
export async function followStream(first: HttpAnswer | undefined, plan: StreamPlan): Promise<void> {
  const cursor: Cursor = { lastEventId: '', retry: undefined, seen: new Set() };
  let response: HttpAnswer | undefined = first;
  let failure: unknown;
  let attempts = 0;
  for (;;) {
    let hasDelivered = false;
    if (response !== undefined) ({ hasDelivered, failure } = await readStream(response, cursor, plan));
    if (plan.signal.aborted || (!plan.isStandalone && !plan.isOwed())) return;
    if (!plan.canResume)
      throw lost(
        plan,
        'it ended before the response, and the stateless era has no resumption (the server may have acted on the request)',
        failure,
      );
    if (!plan.isStandalone && cursor.lastEventId === '')
      throw lost(plan, 'it ended before the response, without an event id to resume from', failure);
    if (hasDelivered) attempts = 0;
    if (attempts >= plan.reconnection.maxAttempts)
      throw lost(plan, `no response after ${attempts} reconnection attempts`, failure);
    if (!(await sleep(delayOf(cursor.retry, attempts, plan.reconnection), plan.signal))) return;
    attempts++;
    try {
      response = await plan.resume(cursor.lastEventId, plan.signal);
    } catch (error) {
      if (plan.signal.aborted) return;
      if (isRefusal(error)) throw error;
      failure = error;
      response = undefined;
    }
  }
}

interface Cursor {
  lastEventId: string;
  retry: number | undefined;
  seen: Set<string>;
}

async function readStream(
  response: HttpAnswer,
  cursor: Cursor,
  plan: StreamPlan,
): Promise<{ hasDelivered: boolean; failure: unknown }> {
  let hasDelivered = false;
  const parser = new SseParserStream();
  try {
    if (response.body === null) return { hasDelivered, failure: undefined };
    for await (const event of decodeSse(response.body, parser)) {
      // Streamable HTTP sends JSON-RPC as default-type events; a priming event has empty data (HTTP-9).
      if (event.type !== 'message' || event.data === '') continue;
      if (event.id !== undefined) {
        if (cursor.seen.has(event.id)) continue;
        remember(cursor.seen, event.id);
      }
      hasDelivered = true;
      plan.deliver(event.data);
      // HTTP-14: the response ends a request's stream; stop even if the server holds it open.
      if (!plan.isStandalone && !plan.isOwed()) break;
    }
    return { hasDelivered, failure: undefined };
  } catch (error) {
    return { hasDelivered, failure: error };
  } finally {
    if (parser.lastEventId !== '') cursor.lastEventId = parser.lastEventId;
    if (parser.retry !== undefined) cursor.retry = parser.retry;
  }
}

function remember(seen: Set<string>, id: string): void {
  seen.add(id);
  if (seen.size > SEEN_IDS_LIMIT) seen.delete(seen.values().next().value!);
}

/** The backoff wait before reconnection `attempt` (0 first): `initialDelayMs` growing 1.5 times, at most `maxDelayMs`. */
export function backoffDelay(attempt: number, options: ReconnectionOptions): number {
  return Math.min(options.initialDelayMs * BACKOFF_FACTOR ** attempt, options.maxDelayMs);
}

/** HTTP-11: the client MUST wait the server's `retry`; otherwise back off. */
function delayOf(retry: number | undefined, attempt: number, options: ReconnectionOptions): number {
  if (retry !== undefined) return retry;
  return backoffDelay(attempt, options);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** True for an answer that ends resumption: the session is gone, or the server refuses the GET. */
export function isRefusal(error: unknown): boolean {
  if (error instanceof SessionExpiredError) return true;
  return error instanceof HttpError && [401, 403, 405].includes(error.status);
}

function lost(plan: StreamPlan, reason: string, cause: unknown): ResponseStreamLostError {
  return new ResponseStreamLostError(plan.name, reason, cause === undefined ? undefined : { cause });
}
