// The era probe in a transcript (2026-07-28 checklist section 3.2): the `server/discover` a client
// sends before it falls back to `initialize`. It is negotiation, not a request whose refusal is a
// failure: report, lint, tap and replay --check recognise it here, from the messages alone.

import type { EventEntry, MessageEntry } from './transcript.ts';

/** What a message is to the probe: the probe request, the server's answer to it, a cancellation of it. */
export type ProbeRole = 'probe' | 'answer' | 'cancel';

/** How many probes wait for an answer before the oldest is forgotten (a tap stays bounded). */
const MAX_PENDING = 64;

/**
 * Follows the `server/discover` requests of a transcript, fed its message entries in order. Over
 * HTTP a probe's answer is the server message on the probe's exchange (a handshake-era server's 400
 * "Server not initialized" has `id: null`); over stdio it carries the probe's id, or `id: null`
 * while a probe waits. Bounded: at most MAX_PENDING unanswered probes are remembered.
 */
export class EraProbeTracker {
  /** Unanswered probes: `exchange:<n>` over HTTP, `id:<id>` over stdio. */
  readonly #pending = new Set<string>();
  /** The ids of unanswered probes, for their cancellations. */
  readonly #ids = new Set<string>();
  #hasFallenBack = false;

  /** True once an `initialize` followed a probe: the probe was refused and the handshake era chosen. */
  get hasFallenBack(): boolean {
    return this.#hasFallenBack;
  }

  /** The role of `entry` in a probe, or undefined; `key` names the probe it belongs to. */
  roleOf(entry: MessageEntry): { role: ProbeRole; key: string } | undefined {
    const message = entry.message as unknown as Record<string, unknown>;
    if (entry.from === 'client') return this.#clientRole(entry, message);
    if ('method' in message || !('error' in message || 'result' in message)) return undefined;
    const key =
      entry.exchange !== undefined
        ? `exchange:${entry.exchange}`
        : isId(message.id)
          ? `id:${idKey(message.id)}`
          : 'error' in message
            ? [...this.#pending].find((pending) => pending.startsWith('id:'))
            : undefined;
    if (key === undefined || !this.#pending.delete(key)) return undefined;
    return { role: 'answer', key };
  }

  #clientRole(
    entry: MessageEntry,
    message: Record<string, unknown>,
  ): { role: ProbeRole; key: string } | undefined {
    if (message.method === 'initialize' && this.#ids.size + this.#pending.size > 0)
      this.#hasFallenBack = true;
    if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      return isId(requestId) && this.#ids.has(idKey(requestId))
        ? { role: 'cancel', key: `id:${idKey(requestId)}` }
        : undefined;
    }
    if (message.method !== 'server/discover' || !isId(message.id)) return undefined;
    const key = entry.exchange === undefined ? `id:${idKey(message.id)}` : `exchange:${entry.exchange}`;
    this.#pending.add(key);
    this.#ids.add(idKey(message.id));
    for (const set of [this.#pending, this.#ids])
      if (set.size > MAX_PENDING) set.delete(set.values().next().value!);
    return { role: 'probe', key };
  }
}

/** The refused era probe of a transcript: its messages and the HTTP exchanges that carried them. */
export interface EraProbe {
  /** The probe requests, the server's refusals of them, and the client's cancellations of them. */
  readonly entries: ReadonlySet<EventEntry>;
  /** The HTTP exchanges whose request was a refused probe (their status is part of the refusal). */
  readonly exchanges: ReadonlySet<number>;
}

/**
 * The refused era probe of `entries`: the `server/discover` requests of a client that then sent
 * `initialize`, with what refused them (an error, an HTTP 400) or nothing (silence). A discover
 * answered with a result negotiated the stateless era and is no refused probe; neither is one in a
 * transcript with no `initialize` after a probe. One pass, linear in the entries.
 */
export function findEraProbe(entries: readonly EventEntry[]): EraProbe {
  const tracker = new EraProbeTracker();
  const groups: Array<{ entries: MessageEntry[]; isAccepted: boolean }> = [];
  const byKey = new Map<string, { entries: MessageEntry[]; isAccepted: boolean }>();
  for (const entry of entries) {
    if (entry.type !== 'message') continue;
    const found = tracker.roleOf(entry);
    if (found?.role === 'probe') {
      const group = { entries: [entry], isAccepted: false };
      groups.push(group);
      byKey.set(found.key, group);
      // Its cancellation names it by id, whatever carried it.
      byKey.set(`id:${idKey((entry.message as { id: string | number }).id)}`, group);
      continue;
    }
    const group = found === undefined ? undefined : byKey.get(found.key);
    group?.entries.push(entry);
    if (group !== undefined && found?.role === 'answer' && 'result' in entry.message) group.isAccepted = true;
  }
  const probeEntries = new Set<EventEntry>();
  const exchanges = new Set<number>();
  if (!tracker.hasFallenBack) return { entries: probeEntries, exchanges };
  for (const group of groups) {
    if (group.isAccepted) continue;
    for (const entry of group.entries) {
      probeEntries.add(entry);
      if (entry === group.entries[0] && entry.exchange !== undefined) exchanges.add(entry.exchange);
    }
  }
  return { entries: probeEntries, exchanges };
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/** A key telling the string id "1" from the number 1 (BASE-3 allows both). */
function idKey(id: string | number): string {
  return `${typeof id}:${String(id)}`;
}
