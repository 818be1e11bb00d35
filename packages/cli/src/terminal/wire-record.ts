// Every JSON-RPC message the demo host sent or received, in wire order, with what each one is: a
// request's label, which request a response answers and how long it took, what a notification says.

import type { Message, RequestId } from 'mcpwire';

/** `sent`: host to server; `received`: server to host. */
export type Direction = 'sent' | 'received';

/** One message as it crossed the wire. */
export interface WireEntry {
  readonly direction: Direction;
  readonly message: Message;
  /** Milliseconds since the demo started. */
  readonly at: number;
  /** What the message is, e.g. `#3 tools/call create_issue` or `#3 (answers tools/call create_issue, 12 ms)`. */
  readonly title: string;
}

interface PendingRequest {
  label: string;
  at: number;
}

/**
 * The record of one demo run. Ids are correlated per direction: a response received answers a
 * request sent with the same id, and a response sent answers a request received.
 */
export class WireRecord {
  readonly entries: WireEntry[] = [];
  readonly #pending = new Map<string, PendingRequest>();

  /** Records a message and returns its entry (with the title to print). */
  add(direction: Direction, message: Message, at: number): WireEntry {
    const entry = { direction, message, at, title: this.#title(direction, message, at) };
    this.entries.push(entry);
    return entry;
  }

  /** Messages per direction. */
  count(direction: Direction): number {
    return this.entries.filter((entry) => entry.direction === direction).length;
  }

  /** The entries recorded since `mark` (an earlier `entries.length`). */
  since(mark: number): WireEntry[] {
    return this.entries.slice(mark);
  }

  /** The responses that travelled in `direction` with this id. */
  responses(direction: Direction, id: RequestId | undefined): WireEntry[] {
    return this.entries.filter(
      (entry) =>
        entry.direction === direction &&
        isResponse(entry.message) &&
        'id' in entry.message &&
        entry.message.id === id,
    );
  }

  /** The requests and notifications of `method` that travelled in `direction`, oldest first. */
  calls(direction: Direction, method: string): WireEntry[] {
    return this.entries.filter(
      (entry) => entry.direction === direction && methodOf(entry.message) === method,
    );
  }

  #title(direction: Direction, message: Message, at: number): string {
    const method = methodOf(message);
    const id = 'id' in message ? message.id : undefined;
    if (method !== undefined && id !== undefined) {
      const label = labelOf(method, paramsOf(message));
      this.#pending.set(`${direction}:${String(id)}`, { label, at });
      return `#${String(id)} ${label}`;
    }
    if (method !== undefined) return `${method}${describeNotification(method, paramsOf(message))}`;
    const key = `${direction === 'sent' ? 'received' : 'sent'}:${String(id)}`;
    const request = this.#pending.get(key);
    this.#pending.delete(key);
    const outcome = 'error' in message ? `error ${String(message.error.code)}, ` : '';
    if (!request) return `#${String(id)} (${outcome}answers no request we know of)`;
    return `#${String(id)} (${outcome}answers ${request.label}, ${Math.round(at - request.at)} ms)`;
  }
}

/** The method of a request or notification, else undefined. */
export function methodOf(message: Message): string | undefined {
  return 'method' in message ? message.method : undefined;
}

/** True for a response (result or error). */
export function isResponse(message: Message): boolean {
  return !('method' in message) && 'id' in message;
}

/** A message's params as a loose record. */
export function paramsOf(message: Message): Record<string, unknown> {
  const params = 'params' in message ? message.params : undefined;
  return (params ?? {}) as Record<string, unknown>;
}

function labelOf(method: string, params: Record<string, unknown>): string {
  if (method === 'tools/call' && typeof params.name === 'string') return `${method} ${params.name}`;
  if (typeof params.uri === 'string') return `${method} ${params.uri}`;
  return method;
}

function describeNotification(method: string, params: Record<string, unknown>): string {
  if (method === 'notifications/cancelled') return ` (cancels #${String(params.requestId)})`;
  if (method === 'notifications/progress')
    return ` (${String(params.progress)}/${String(params.total ?? '?')}, token ${JSON.stringify(params.progressToken)})`;
  if (method === 'notifications/resources/updated') return ` (${String(params.uri)})`;
  return '';
}
