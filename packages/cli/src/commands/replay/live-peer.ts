// The live side of `replay --check`: raw JSON-RPC over a library Channel (no Client), so what goes
// out is the recorded message itself under a new id. The server's own requests go to a callback.

import {
  ConnectionClosedError,
  isRequest,
  isResponse,
  type Channel,
  type Frame,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from 'mcpwire';
import { capDepth } from '../../wire/json-depth.ts';

/** How one request ended: its response, or no response in time. */
export type LiveOutcome = { kind: 'response'; response: JsonRpcResponse } | { kind: 'timeout' };

/** Answers a request the server sent (sampling, elicitation, roots, ping). */
export type ServerRequestHandler = (request: JsonRpcRequest) => JsonRpcResponse;

interface Waiter {
  resolve(outcome: LiveOutcome): void;
  reject(error: Error): void;
}

/**
 * One open channel to the live server. `request` resolves with the response of that id or a
 * timeout (after which a `notifications/cancelled` goes out, CANCEL-1), and rejects when
 * the channel fails: a send refused (HTTP status, closed pipe) or the connection closed first.
 */
export class LivePeer {
  readonly #channel: Channel;
  readonly #waiters = new Map<RequestId, Waiter>();
  #closedBy: Error | undefined;

  constructor(channel: Channel, handleRequest: ServerRequestHandler) {
    this.#channel = channel;
    channel.open({
      handleFrame: (frame) => this.#handleFrame(frame, handleRequest),
      handleClose: (error) => {
        this.#closedBy = error ?? new ConnectionClosedError('The server closed the connection');
        for (const waiter of this.#waiters.values()) waiter.reject(this.#closedBy);
        this.#waiters.clear();
      },
    });
  }

  /** Sends `request` (its id must be new on this channel) and waits up to `timeoutMs` for the response. */
  async request(request: JsonRpcRequest, timeoutMs: number): Promise<LiveOutcome> {
    if (this.#closedBy) throw this.#closedBy;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<LiveOutcome>((resolve, reject) => {
      this.#waiters.set(request.id, { resolve, reject });
      timer = setTimeout(() => {
        this.#waiters.delete(request.id);
        resolve({ kind: 'timeout' });
      }, timeoutMs);
    });
    // Over HTTP a send settles only once the POST's answer is read: wait for the response (or the
    // timeout), and let the send only fail the request.
    const failed = this.#channel.send(request).then(() => new Promise<never>(() => {}));
    try {
      const outcome = await Promise.race([answered, failed]);
      if (outcome.kind === 'timeout')
        await this.notify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: request.id, reason: `no response within ${timeoutMs} ms` },
        }).catch(() => {});
      return outcome;
    } finally {
      clearTimeout(timer);
      this.#waiters.delete(request.id);
    }
  }

  /** Sends a notification (or a request whose response nobody waits for). */
  async notify(message: JsonRpcNotification | JsonRpcRequest): Promise<void> {
    if (this.#closedBy) throw this.#closedBy;
    await this.#channel.send(message);
  }

  /** Closes the channel (a stdio server is asked to exit). Idempotent. */
  close(): Promise<void> {
    return this.#channel.close();
  }

  #handleFrame(frame: Frame, handleRequest: ServerRequestHandler): void {
    if (frame.type === 'batch') {
      for (const item of frame.items) this.#handleFrame(item, handleRequest);
      return;
    }
    if (frame.type !== 'message') return;
    // Compared and printed as the transcript was read: cut at MAX_JSON_DEPTH (issue 21).
    const message = capDepth(frame.message);
    if (isRequest(message)) {
      void this.#channel.send(handleRequest(message)).catch(() => {});
      return;
    }
    if (!isResponse(message) || message.id === undefined) return;
    this.#waiters.get(message.id)?.resolve({ kind: 'response', response: message });
  }
}
