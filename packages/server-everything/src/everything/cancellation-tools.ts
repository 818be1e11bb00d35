// The everything server's cancellation fixture (issue 24, point 2): a call that waits until it is
// cancelled, and a call that answers once that cancellation was seen. The fact travels as the resource
// update `test://cancelled/<key>`, which an HTTP handler sharing a message bus (`serve --redis`)
// relays to every other node's server, so the second call may be served by any node.

import type { Server } from 'mcpwire/server';

/** The URI whose update says that the `test_wait_for_cancel` call with a key was cancelled. */
export const CANCELLED_URI_PREFIX = 'test://cancelled/';

/** How many cancelled keys a node remembers: enough for any test, bounded for a long-running node. */
const KEPT_KEYS = 1000;

const KEY_ARGUMENT = {
  type: 'object',
  properties: { key: { type: 'string', description: 'Names the waiting call, chosen by the client' } },
  required: ['key'],
} as const;

/**
 * The cancellations one node has seen, its own and those relayed from other nodes; the last
 * `KEPT_KEYS` are kept. Not shared: each node's record fills from the resource updates it hears.
 */
export class CancellationLog {
  readonly #seen = new Set<string>();
  readonly #waiters = new Map<string, Array<() => void>>();

  /** Takes a resource update: one of `test://cancelled/<key>` records `key` and wakes its waiters; others are ignored. */
  take(uri: string): void {
    if (!uri.startsWith(CANCELLED_URI_PREFIX)) return;
    const key = uri.slice(CANCELLED_URI_PREFIX.length);
    this.#seen.add(key);
    if (this.#seen.size > KEPT_KEYS) this.#seen.delete(this.#seen.values().next().value!);
    for (const wake of this.#waiters.get(key) ?? []) wake();
    this.#waiters.delete(key);
  }

  /** Resolves once `key` is recorded (at once if it is); rejects with the reason when `signal` aborts first. */
  seen(key: string, signal: AbortSignal): Promise<void> {
    if (this.#seen.has(key)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiters = this.#waiters.get(key) ?? [];
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      // An aborted wait leaves nothing behind: a call that times out does not keep its waiter.
      const onAbort = (): void => {
        const at = waiters.indexOf(wake);
        if (at >= 0) waiters.splice(at, 1);
        if (waiters.length === 0 && this.#waiters.get(key) === waiters) this.#waiters.delete(key);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      waiters.push(wake);
      this.#waiters.set(key, waiters);
    });
  }
}

/**
 * Registers `test_wait_for_cancel` and `test_cancellation_seen` over `log`, which hears this server's
 * own resource updates from here on (relayed ones are the server's to give it: `EverythingServer`).
 */
export function registerCancellationTools(server: Server, log: CancellationLog): void {
  server.onResourceUpdated((uri) => log.take(uri));
  server.tool(
    {
      name: 'test_wait_for_cancel',
      description:
        'Reports progress 0 (when asked for progress), then waits until the call is cancelled and raises notifications/resources/updated for test://cancelled/<key>; never answers otherwise.',
      inputSchema: KEY_ARGUMENT,
    },
    async (args, ctx) => {
      // The progress tells the client that the call runs, so its cancellation cannot overtake it.
      await ctx.sendProgress(0, { message: 'waiting to be cancelled' });
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      server.notifyResourceUpdated(`${CANCELLED_URI_PREFIX}${String(args.key)}`);
      return 'cancelled';
    },
  );
  server.tool(
    {
      name: 'test_cancellation_seen',
      description:
        'Answers once this node has seen the cancellation of the test_wait_for_cancel call with the same key (on any node sharing its message bus); waits until then.',
      inputSchema: KEY_ARGUMENT,
    },
    async (args, ctx) => {
      await log.seen(String(args.key), ctx.signal);
      return `cancelled: ${String(args.key)}`;
    },
  );
}
