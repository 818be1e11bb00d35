// Progress routing for outbound requests: token per request, monotonic check, delivery to the caller.

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';

/** One progress update, as `notifications/progress` carries it (PROG-2). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Receives progress for one request, in order. */
export type ProgressHandler = (progress: Progress) => void;

interface Entry {
  handler: ProgressHandler;
  last: number;
  onActivity?: () => void;
}

/**
 * Tracks active progress tokens. The token is the request id, so it is unique among active
 * requests (PROG-1). Updates that do not increase are dropped (PROG-3); so are unknown tokens.
 */
export class ProgressTracker {
  #entries = new Map<RequestId, Entry>();

  /** Registers `handler` for request `id` and returns params carrying `_meta.progressToken`. */
  attach(id: RequestId, params: JsonObject | undefined, handler: ProgressHandler): JsonObject {
    this.#entries.set(id, { handler, last: -Infinity });
    const meta = { ...((params?._meta as JsonObject | undefined) ?? {}), progressToken: id };
    return { ...(params ?? {}), _meta: meta };
  }

  /** Calls `callback` on each accepted update for `id` (used to restart timeouts). */
  onActivity(id: RequestId, callback: () => void): void {
    const entry = this.#entries.get(id);
    if (entry) entry.onActivity = callback;
  }

  /**
   * Routes one `notifications/progress` params object. Returns false when no active request has
   * its token (the owner may know it: a task keeps its request's token, PROG-5), else true.
   */
  handle(params: JsonObject): boolean {
    const token = params.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return false;
    const entry = this.#entries.get(token);
    if (!entry) return false;
    const progress = params.progress;
    if (typeof progress !== 'number' || !(progress > entry.last)) return true;
    entry.last = progress;
    entry.onActivity?.();
    const update: Progress = { progress };
    if (typeof params.total === 'number') update.total = params.total;
    if (typeof params.message === 'string') update.message = params.message;
    entry.handler(update);
    return true;
  }

  /** Forgets request `id` (PROG-4: progress stops with the response). */
  detach(id: RequestId): void {
    this.#entries.delete(id);
  }

  /** Forgets everything (connection closed). */
  clear(): void {
    this.#entries.clear();
  }
}
