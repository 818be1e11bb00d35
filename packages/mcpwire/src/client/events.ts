// Server notifications as client events: which notification becomes which event, and the listener sets.

import type { JsonObject } from '../jsonrpc/message.ts';
import type {
  ElicitationCompleteNotificationParams,
  LoggingMessageNotificationParams,
  NotificationParams,
  ResourceUpdatedNotificationParams,
} from '../protocol/types/index.ts';

/** Each client event and the payload its listeners receive. */
export interface ClientEventMap {
  /** `notifications/tools/list_changed`; cached output schemas are dropped before listeners run. */
  toolsListChanged: NotificationParams;
  /** `notifications/resources/list_changed`. */
  resourcesListChanged: NotificationParams;
  /** `notifications/prompts/list_changed`. */
  promptsListChanged: NotificationParams;
  /** `notifications/resources/updated`, for a subscribed resource or a sub-resource of one. */
  resourceUpdated: ResourceUpdatedNotificationParams;
  /** `notifications/message`. */
  log: LoggingMessageNotificationParams;
  /** `notifications/elicitation/complete`, only for URL elicitations this client received and has not seen complete (ELIC-11). */
  elicitationComplete: ElicitationCompleteNotificationParams;
  /**
   * Every server notification the client received, after its own event (if any): for extensions'
   * notifications (e.g. `notifications/tasks/status`) and progress no pending request claims.
   */
  notification: { method: string; params: JsonObject };
  /** The connection ended (closed by either side, or failed). */
  close: { error?: Error };
}

/** A client event name. */
export type ClientEvent = keyof ClientEventMap;

/** A listener for event `E`. */
export type ClientListener<E extends ClientEvent> = (payload: ClientEventMap[E]) => void;

/** Which server notification becomes which event. */
const NOTIFICATION_EVENTS: Readonly<Record<string, Exclude<ClientEvent, 'close' | 'notification'>>> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/updated': 'resourceUpdated',
  'notifications/message': 'log',
  'notifications/elicitation/complete': 'elicitationComplete',
};

/** The event a notification method maps to, or undefined for methods the client does not surface. */
export function toClientEvent(method: string): Exclude<ClientEvent, 'close' | 'notification'> | undefined {
  return Object.hasOwn(NOTIFICATION_EVENTS, method) ? NOTIFICATION_EVENTS[method] : undefined;
}

/**
 * Listener sets per event. Listeners run synchronously in subscription order; one that throws is
 * reported to `onError` and does not stop the others. Listeners added or removed during an emit
 * take effect from the next emit.
 */
export class ClientEvents {
  #listeners = new Map<ClientEvent, Set<(payload: never) => void>>();
  #onError: (error: Error) => void;

  constructor(onError: (error: Error) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; the returned function removes it (idempotent). */
  on<E extends ClientEvent>(event: E, listener: ClientListener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    // Wrapped so the same function may be added twice and removed independently.
    const entry = (payload: never): void => listener(payload);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** Calls every listener of `event` with `payload`. */
  emit<E extends ClientEvent>(event: E, payload: ClientEventMap[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as ClientListener<E>)(payload);
      } catch (error) {
        this.#onError(new Error(`A "${event}" listener threw`, { cause: error }));
      }
    }
  }

  /** Emits the event for one server notification, if it maps to one. */
  emitNotification(method: string, params: JsonObject): void {
    const event = toClientEvent(method);
    if (event) this.emit(event, params as never);
    if (this.#listeners.has('notification')) this.emit('notification', { method, params });
  }
}
