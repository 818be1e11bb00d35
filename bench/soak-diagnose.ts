// Explains a soak request that timed out from the fault proxy's log: which connections carried it
// (matched by its JSON-RPC id and its client's session or era), where each was cut, and what passed
// on them. Printed as it happens and kept in the figures.

import type { Entry } from './soak-ledger.ts';
import type { ConnectionLog, ConnectionRecord } from './soak-proxy-log.ts';

/** One connection as a diagnostic shows it. */
export interface ConnectionSummary {
  n: number;
  /** ms after the request started. */
  opened: number;
  closed: number | null;
  cut: ConnectionRecord['cut'] | null;
  timeline: string[];
}

/** GETs of the same client after the request (resumptions, its own stream) shown at most. */
const NEIGHBOURS_LIMIT = 6;

function summarize(record: ConnectionRecord, startedAt: number): ConnectionSummary {
  return {
    n: record.n,
    opened: record.openedAt - startedAt,
    closed: record.closedAt === undefined ? null : record.closedAt - startedAt,
    cut: record.cut ?? null,
    timeline: record.timeline,
  };
}

/**
 * What the proxy saw of a timed-out `entry`: the connections that carried one of its ids, and the
 * GETs of the same client opened since it started (a resumption GET names the stream's last event,
 * not the request). The soak's handshake-era clients share the process's connection pool, so a
 * connection's timeline may hold other clients' requests too (their lines carry their session).
 */
export function explainTimeout(log: ConnectionLog, entry: Entry): unknown {
  const needles = entry.needles ?? [];
  if (needles.length === 0) return 'not an HTTP request: nothing in the proxy log';
  const since = entry.startedAt - 1000;
  const carriers = new Map<number, ConnectionRecord>();
  for (const requestId of entry.requestIds ?? []) {
    for (const record of log.find({ since, needles: [...needles, ` id=${JSON.stringify(requestId)} `] }))
      carriers.set(record.n, record);
  }
  const neighbours = log
    .find({ since: entry.startedAt, needles: needles.map((needle) => `GET ${needle}`) })
    .filter((record) => !carriers.has(record.n) && record.openedAt >= entry.startedAt)
    .slice(0, NEIGHBOURS_LIMIT);
  return {
    carriers: [...carriers.values()].map((record) => summarize(record, entry.startedAt)),
    neighbours: neighbours.map((record) => summarize(record, entry.startedAt)),
  };
}
