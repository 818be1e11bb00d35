// `subscriptions/listen` (S26-SUB): acknowledgement first, then only the requested kinds, each
// tagged with the subscription id, until the client cancels or the server closes. Extensions add
// notification kinds as listen feeds (listen-feed.ts).

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { hasCapability } from '../protocol/capabilities.ts';
import { MetaKey, type Implementation, type SubscriptionsListenResult } from '../protocol/types/index.ts';
import { openListenFeeds, type ListenFeed, type OpenedFeeds } from './listen-feed.ts';
import type { StatelessRequest, StatelessStream } from './stateless.ts';

/** The change feeds a listen stream draws on. Each `on*` returns its unsubscribe function. */
export interface ListenSource {
  readonly info: Implementation;
  capabilities(): object;
  onListChanged(listener: (kind: 'tools' | 'prompts' | 'resources') => void): () => void;
  onResourceUpdated(listener: (uri: string) => void): () => void;
  /** Fires when the server shuts down: streams end with their graceful result. */
  readonly closing: AbortSignal;
  /** The notification kinds extensions add, each under its own filter key. */
  readonly listenFeeds?: readonly ListenFeed[];
}

const FILTER_KEYS = {
  toolsListChanged: 'tools',
  promptsListChanged: 'prompts',
  resourcesListChanged: 'resources',
} as const;

/**
 * Serves one listen request on its stream. Resolves with the graceful-close result when the server
 * closes, or when the client cancels (then the transport drops it, S26-SUB-6). Rejects when an
 * extension's feed refuses the listen.
 */
export function serveListen(
  source: ListenSource,
  request: StatelessRequest,
  stream: StatelessStream,
): Promise<SubscriptionsListenResult> {
  // Only a filter that asks for an extension's feed waits for it before the acknowledgement.
  const opening = openListenFeeds(source.listenFeeds, request, stream);
  if (opening) return opening.then((feeds) => serveOpened(source, { request, stream, feeds }));
  return serveOpened(source, { request, stream, feeds: undefined });
}

function serveOpened(
  source: ListenSource,
  {
    request,
    stream,
    feeds,
  }: { request: StatelessRequest; stream: StatelessStream; feeds: OpenedFeeds | undefined },
): Promise<SubscriptionsListenResult> {
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
    ) ||
    hasCapability(caps, ['resources', 'subscribe']) ||
    feeds !== undefined;
  if (feeds) Object.assign(honoured, feeds.honoured);
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
    feeds?.start(send) ?? (() => {}),
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
  return new Promise<SubscriptionsListenResult>((resolve) => {
    const graceful: SubscriptionsListenResult = {
      resultType: 'complete',
      _meta: { ...tag, [MetaKey.serverInfo]: source.info },
    };
    let stopWaiting = (): void => {};
    const end = (): void => {
      unsubscribe.forEach((fn) => fn());
      request.signal.removeEventListener('abort', end);
      stopWaiting();
      // After a client cancel the transport drops this result (S26-SUB-6); on server close it is sent.
      resolve(graceful);
    };
    if (source.closing.aborted || request.signal.aborted) return end();
    request.signal.addEventListener('abort', end, { once: true });
    stopWaiting = onClosing(source.closing, end);
  });
}

/** The streams waiting on each server's `closing` signal. */
const closingWaiters = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `end` once `closing` aborts; returns the function that stops waiting. Every stream of a
 * server shares one listener on its signal: a listener per stream would pass Node's limit of 10
 * per signal (MaxListenersExceededWarning, issue 13) with the 11th open listen stream.
 */
function onClosing(closing: AbortSignal, end: () => void): () => void {
  let waiters = closingWaiters.get(closing);
  if (waiters === undefined) {
    const created = new Set<() => void>();
    closingWaiters.set(closing, created);
    closing.addEventListener('abort', () => [...created].forEach((fn) => fn()), { once: true });
    waiters = created;
  }
  const own = waiters;
  own.add(end);
  return () => own.delete(end);
}
