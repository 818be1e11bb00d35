// `subscriptions/listen` (S26-SUB): acknowledgement first, then only the requested kinds, each
// tagged with the subscription id, until the client cancels or the server closes.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from '../protocol/capabilities.ts';
import { MetaKey, type Implementation } from '../protocol/types/index.ts';
import type { ModernRequest, ModernStream } from './modern.ts';

/** The change feeds a listen stream draws on. Each `on*` returns its unsubscribe function. */
export interface ListenSource {
  readonly info: Implementation;
  capabilities(): object;
  onListChanged(listener: (kind: 'tools' | 'prompts' | 'resources') => void): () => void;
  onResourceUpdated(listener: (uri: string) => void): () => void;
  /** Fires when the server shuts down: streams end with their graceful result. */
  readonly closing: AbortSignal;
}

const FILTER_KEYS = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
} as const;

/**
 * Serves one listen request on its stream. Resolves with the graceful-close result when the server
 * closes, or when the client cancels (then the transport drops it, S26-SUB-6).
 */
export function serveListen(
  source: ListenSource,
  request: ModernRequest,
  stream: ModernStream,
): Promise<JsonObject> {
  const filter = request.params.notifications as JsonObject;
  const caps = source.capabilities() as JsonObject;
  const honoured: JsonObject = {};
  for (const [key, kind] of Object.entries(FILTER_KEYS)) {
    if (filter[key] === true && hasCapability(caps, [kind, 'listChanged'])) honoured[key] = true;
  }
  const uris = Array.isArray(filter.resourceSubscriptions)
    ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string')
    : [];
  if (uris.length > 0 && hasCapability(caps, ['resources', 'subscribe']))
    honoured.resourceSubscriptions = uris;
  const canListen =
    Object.keys(FILTER_KEYS).some((k) =>
      hasCapability(caps, [FILTER_KEYS[k as keyof typeof FILTER_KEYS], 'listChanged']),
    ) || hasCapability(caps, ['resources', 'subscribe']);
  if (!canListen)
    throw new RpcError(
      ErrorCode.MethodNotFound,
      'Method not found: "subscriptions/listen" (this server has nothing to subscribe to)',
    );

  const tag = { [MetaKey.subscriptionId]: request.id };
  const send = (method: string, params: JsonObject = {}): void => {
    stream.notify(method, { ...params, _meta: tag }, { relatedRequestId: request.id }).catch(() => {});
  };
  send('notifications/subscriptions/acknowledged', { notifications: honoured });
  const pending = new Set<string>();
  const unsubscribe = [
    source.onListChanged((kind) => {
      const key = `${kind}ListChanged`;
      if (honoured[key] !== true || pending.has(kind)) return;
      pending.add(kind);
      setTimeout(() => {
        pending.delete(kind);
        if (!request.signal.aborted) send(`notifications/${kind}/list_changed`);
      }, 0);
    }),
    source.onResourceUpdated((uri) => {
      if (
        uris.some(
          (subscribed) =>
            uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`),
        )
      )
        send('notifications/resources/updated', { uri });
    }),
  ];
  return new Promise<JsonObject>((resolve) => {
    const graceful = { resultType: 'complete', _meta: { ...tag, [MetaKey.serverInfo]: source.info } };
    const end = (): void => {
      unsubscribe.forEach((fn) => fn());
      request.signal.removeEventListener('abort', end);
      source.closing.removeEventListener('abort', end);
      // After a client cancel the transport drops this result (S26-SUB-6); on server close it is sent.
      resolve(graceful);
    };
    if (source.closing.aborted || request.signal.aborted) return end();
    request.signal.addEventListener('abort', end, { once: true });
    source.closing.addEventListener('abort', end, { once: true });
  });
}
